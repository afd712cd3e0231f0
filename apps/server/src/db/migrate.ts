import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

/** Any fixed 64-bit number shared by every Invoicebox process: the advisory lock around migrations. */
const MIGRATION_LOCK_ID = 4_710_202_611;

/**
 * Applies pending migrations under a session-level advisory lock, so that several processes starting at once
 * (API processes, workers) run them exactly once; the others wait and then find nothing to do.
 */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await withSchemaLock(client, () => migrate(drizzle(client), { migrationsFolder: migrationsFolder() }));
  } finally {
    client.release();
  }
}

/**
 * Runs `fn` while `client`'s session holds the advisory lock of the migrations. Every schema change at start-up goes
 * through it, ours and pg-boss's (its schema and `create_queue`, which deadlock when two processes run them at once
 * on a new database).
 */
export async function withSchemaLock<T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> {
  await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
  try {
    return await fn();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
  }
}

/** apps/server/drizzle, found from the source file (tests) or from the bundle in dist/ alike. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('migrations folder (apps/server/drizzle) not found');
}
