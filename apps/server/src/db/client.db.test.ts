import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { createPool } from './client';

const t = useTestDatabase();

describe('the connection pool', () => {
  it('turns a checked-out connection that drops into a failed query, never an uncaught exception', async () => {
    const pool = createPool(t().url, 2);
    const uncaught: unknown[] = [];
    const spy = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', spy);
    try {
      const client = await pool.connect(); // as a transaction holds it between two queries
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      await t().database.pool.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await new Promise((r) => setTimeout(r, 300));
      expect(uncaught).toEqual([]);
      await expect(client.query('select 1')).rejects.toThrow();
      client.release(true);
      expect((await pool.query('select 1 as one')).rows[0].one).toBe(1);
    } finally {
      process.off('uncaughtException', spy);
      await pool.end();
    }
  });
});
