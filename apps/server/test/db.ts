import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { withClient, withDatabase } from './global-setup';

export interface TestDatabase {
  /** Connection string of this file's own database. */
  url: string;
  engine: 'embedded' | 'external';
  database: Database;
}

/**
 * Gives the calling test file its own database, cloned from the migrated template, dropped after the file.
 * Use inside a describe block or at the top level: `const t = useTestDatabase();` then `t().database.db`.
 */
export function useTestDatabase(): () => TestDatabase {
  let current: TestDatabase | undefined;
  let name = '';
  const adminUrl = inject('adminUrl');
  beforeAll(async () => {
    name = `${inject('templateDatabase').replace(/_template$/, '')}_${randomBytes(5).toString('hex')}`;
    await withClient(adminUrl, (c) => c.query(`create database ${name} template ${inject('templateDatabase')}`));
    const url = withDatabase(adminUrl, name);
    const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', databasePoolSize: 5 });
    current = { url, engine: inject('engine'), database };
  });
  afterAll(async () => {
    await current?.database.close();
    await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
  });
  return () => {
    if (!current) throw new Error('useTestDatabase(): the database exists only inside tests and hooks');
    return current;
  };
}

/** A fresh, empty database (no template) for migration tests. */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const name = `${inject('templateDatabase').replace(/_template$/, '')}_${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`create database ${name}`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () => withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
