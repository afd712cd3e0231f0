import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/ports';
import { cliErrorLine } from './output';

describe('the line a failed command prints', () => {
  it('says in one line that the database is unreachable and where, not the query and its parameters', async () => {
    const port = await freePort(); // nothing listens there
    const url = `postgres://invoicebox:secret-password@127.0.0.1:${port}/invoicebox`;
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2000 });
    pool.on('error', () => {});
    const params = Array.from({ length: 51 }, (_, i) => `value ${i} ${'x'.repeat(40)}`);
    let failure: unknown;
    try {
      await drizzle(pool).execute(
        sql`insert into mail_messages select ${sql.join(
          params.map((p) => sql`${p}`),
          sql`, `,
        )}`,
      );
    } catch (error) {
      failure = error;
    } finally {
      await pool.end();
    }
    expect(String((failure as Error).message).length).toBeGreaterThan(2000); // what used to be printed
    const line = cliErrorLine(failure, url);
    expect(line).toBe(`invoicebox: the database is unreachable at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(line).not.toContain('secret-password');
  });

  it('takes the place from the connection string when the error does not say it', () => {
    const dropped = new Error('Failed query: select 1\nparams: ', {
      cause: new Error('Connection terminated unexpectedly'),
    });
    expect(cliErrorLine(dropped, 'postgres://u:pw@db.example:6543/x')).toBe(
      'invoicebox: the database is unreachable at db.example:6543 (Connection terminated unexpectedly)',
    );
  });

  it('shows the driver reason, not the SQL, for any other failed query', () => {
    const failed = new Error('Failed query: insert into x values ($1)\nparams: secret', {
      cause: Object.assign(new Error('duplicate key value violates unique constraint "x_pkey"'), { code: '23505' }),
    });
    expect(cliErrorLine(failed)).toBe('invoicebox: duplicate key value violates unique constraint "x_pkey"');
  });
});
