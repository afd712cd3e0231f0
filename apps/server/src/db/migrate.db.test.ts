import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from '../../test/db';
import { runMigrations } from './migrate';

describe('migrations', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('apply once when several processes start at the same time, and again is a no-op', async () => {
    const { url, drop } = await createEmptyDatabase();
    drops.push(drop);
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    try {
      await Promise.all(pools.map((pool) => runMigrations(pool)));
      await runMigrations(pools[0]!);
      const { rows } = await pools[0]!.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      expect(rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['jobs', 'users', 'mail_accounts', 'sessions']),
      );
      const applied = await pools[0]!.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows[0].n).toBeGreaterThanOrEqual(1);
      const journalCount = applied.rows[0].n;
      await runMigrations(pools[1]!);
      const again = await pools[0]!.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(again.rows[0].n).toBe(journalCount);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});
