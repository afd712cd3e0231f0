import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../config';
import { ConfigError, databaseUnreachableMessage, errorMessage, isDatabaseUnavailable } from '../errors';
import type { LockRole } from './data-dir-lock';
import { type EmbeddedDatabase, type EmbeddedStatus, startEmbeddedPostgres } from './embedded-postgres';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;

/** One connection pool and its typed query layer, on the embedded server or on DATABASE_URL. */
export interface Database {
  readonly db: Db;
  readonly pool: pg.Pool;
  readonly url: string;
  readonly engine: 'embedded' | 'external';
  /** True when the server answers a trivial query. */
  ping(): Promise<boolean>;
  /** The embedded server's supervision state (undefined on DATABASE_URL). */
  embeddedStatus(): EmbeddedStatus | undefined;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>,
  log: (message: string, level?: 'info' | 'warn') => void = () => {},
  options: { role?: LockRole } = {},
): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.dataDir, log, options);
    url = embedded.url;
  }
  const pool = createPool(url, config.databasePoolSize);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    await embedded?.stop();
    const where = config.databaseUrl ? 'DATABASE_URL' : 'the embedded PostgreSQL';
    const why = isDatabaseUnavailable(error)
      ? databaseUnreachableMessage(error, url)
      : `${errorMessage(error)} (${redactUrl(url)})`;
    throw new ConfigError(`cannot connect to ${where}: ${why}`, error);
  }
  return {
    db: drizzle(pool, { schema }),
    pool,
    url,
    engine: embedded ? 'embedded' : 'external',
    async ping() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    embeddedStatus: () => embedded?.status(),
    async close() {
      await pool.end().catch(() => {});
      await embedded?.stop();
    },
  };
}

export function createPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Keep one bad statement from holding a connection for ever.
    statement_timeout: 60_000,
  });
  // An idle client losing its server (database restarted) emits here; without a listener the process would crash.
  // The pool drops that client and opens a new one on the next query.
  pool.on('error', () => {});
  // A client that is checked out (inside a transaction, between two queries) has no listener of the pool's: its
  // connection dropping would be an uncaught exception. The query that runs on it next fails instead, as an outage.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** A connection string safe to print: the password is replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
