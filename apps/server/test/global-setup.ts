import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';

/**
 * Starts (embedded) or reaches (external, TEST_DATABASE_URL) one PostgreSQL server per test run, and builds a
 * template database migrated once. Each test file then clones its own database from the template (test/db.ts)
 * and drops it afterwards, so files run in parallel with no clean-up between them.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
    engine: 'embedded' | 'external';
  }
}

export default async function setup(project: TestProject) {
  const engine = process.env.INVOICEBOX_TEST_ENGINE === 'external' ? 'external' : 'embedded';
  let adminUrl: string;
  let stopServer = async () => {};
  let tempDir: string | undefined;

  if (engine === 'external') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      throw new Error(
        'server-external: TEST_DATABASE_URL is not set. Point it at a PostgreSQL server where the user may create databases, e.g. postgres://postgres@127.0.0.1:5432/test',
      );
    }
    adminUrl = url;
  } else {
    tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-test-pg-'));
    await fs.chmod(tempDir, 0o755); // the server runs as the `postgres` user when tests run as root
    const server = await startEmbeddedPostgres(tempDir);
    adminUrl = server.url;
    stopServer = server.stop;
  }

  const prefix = `ibx_${engine === 'external' ? 'x' : 'e'}_${process.pid}`;
  const templateDatabase = `${prefix}_template`;
  await withClient(adminUrl, async (client) => {
    await client.query(`drop database if exists ${templateDatabase}`);
    await client.query(`create database ${templateDatabase}`);
  });
  const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, templateDatabase), max: 2 });
  try {
    await runMigrations(pool);
  } finally {
    await pool.end();
  }

  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);
  project.provide('engine', engine);

  return async () => {
    await withClient(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${prefix}_%`],
      );
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    });
    await stopServer();
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
