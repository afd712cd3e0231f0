import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config';
import { type Database, openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { ConfigError } from './errors';
import type { HealthProbe } from './http/health.routes';
import { JobQueue } from './jobs/job-queue';
import { JobsRepository } from './jobs/jobs.repository';
import { JobsService } from './jobs/jobs.service';
import { type AppJobRegistry, jobRegistry } from './jobs/registry';
import type { Logger } from './logger';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

/**
 * The composition root: opens the database (embedded or external), applies migrations, starts the queue and builds
 * the services. `start` adds the HTTP app on top, `worker` only calls `queue.work()`.
 */
export interface Runtime {
  readonly config: Config;
  readonly database: Database;
  readonly queue: JobQueue<AppJobRegistry>;
  readonly jobs: JobsService;
  readonly users: UsersService;
  readonly health: HealthProbe;
  /** Stops the queue gracefully (running jobs get `shutdownGraceSeconds`), then the database. */
  close(): Promise<void>;
}

export async function createRuntime(config: Config, logger: Logger): Promise<Runtime> {
  await ensureWritableDataDir(config.dataDir);
  const database = await openDatabase(config, (message) => logger.info(message));
  try {
    await runMigrations(database.pool);
    const jobsRepository = new JobsRepository(database.db);
    const queue = new JobQueue(jobRegistry, jobsRepository, {
      connectionString: database.url,
      leaseSeconds: config.jobLeaseSeconds,
      timeoutSeconds: config.jobTimeoutSeconds,
      log: (level, message, detail) => logger[level](detail ?? {}, message),
    });
    await queue.start();
    const users = new UsersService(new UsersRepository(database.db));
    await users.ensureLocalOwner();

    return {
      config,
      database,
      queue,
      jobs: new JobsService(jobsRepository),
      users,
      health: {
        engine: database.engine,
        database: () => database.ping(),
        queue: async () => {
          try {
            await database.pool.query('select 1 from pgboss.queue limit 1');
            return true;
          } catch {
            return false;
          }
        },
      },
      async close() {
        await queue.stop(config.shutdownGraceSeconds * 1000).catch((error) => {
          logger.warn({ err: error }, 'queue did not stop cleanly');
        });
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function ensureWritableDataDir(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true });
    const probe = path.join(dir, `.write-test-${process.pid}`);
    await fs.writeFile(probe, '');
    await fs.rm(probe);
  } catch (error) {
    throw new ConfigError(`INVOICEBOX_DATA_DIR (${dir}) is not writable: ${(error as Error).message}`, error);
  }
}
