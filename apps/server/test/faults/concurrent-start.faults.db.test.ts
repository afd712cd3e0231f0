import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { runMigrations } from '../../src/db/migrate';
import { JobQueue } from '../../src/jobs/job-queue';
import { JobsRepository } from '../../src/jobs/jobs.repository';
import { createEmptyDatabase } from '../db';

/**
 * Several processes starting at once on a new database (the bootstrap of `start` and `worker`: migrations, then
 * pg-boss's schema and the queue). Two concurrent `pgboss.create_queue` used to end one of them with
 * `deadlock detected`.
 */
describe('processes starting at once on a new database', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  async function bootstrap(url: string): Promise<void> {
    const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', databasePoolSize: 2 });
    const queue = new JobQueue({}, new JobsRepository(database.db), {
      connectionString: url,
      poolSize: 2,
      leaseSeconds: 30,
      timeoutSeconds: 300,
    });
    try {
      await runMigrations(database.pool);
      await queue.start();
    } finally {
      await queue.stop(0);
      await database.close();
    }
  }

  it('all succeed, every time', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const { url, drop } = await createEmptyDatabase();
      drops.push(drop);
      const results = await Promise.allSettled([bootstrap(url), bootstrap(url), bootstrap(url)]);
      expect(
        results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      ).toEqual([]);
    }
  });
});
