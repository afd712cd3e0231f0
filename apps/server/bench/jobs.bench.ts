/**
 * Jobs per second the queue sustains here: no-op jobs enqueued and completed through the project's JobQueue (our
 * `jobs` record and pg-boss, as every real job goes) for JOBS_BENCH_SECONDS (default 20) on the embedded PostgreSQL.
 * Producers enqueue without pause while WORKERS × CONCURRENCY pollers complete them; the figures are jobs enqueued
 * and completed per second, and how far the workers fell behind. The handler does nothing, so this is the queue's
 * own ceiling: real jobs (a sync, an extraction) take seconds each and are bound by their work, not by the queue.
 * Prints figures; never fails on time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { users } from '../src/db/schema';
import { JobQueue } from '../src/jobs/job-queue';
import { defineJob } from '../src/jobs/job-registry';
import { JobsRepository } from '../src/jobs/jobs.repository';

const SECONDS = Number(process.env.JOBS_BENCH_SECONDS ?? 20);
/** Worker processes are simulated by queues of their own (each its own pg-boss and pool), as `invoicebox worker` has. */
const WORKERS = Number(process.env.JOBS_BENCH_WORKERS ?? 2);
const CONCURRENCY = Number(process.env.JOBS_BENCH_CONCURRENCY ?? 4);
const PRODUCERS = 4;

export async function runJobsBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-jobs-'));
  await fs.chmod(dir, 0o755);
  const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
  const database = await openDatabase({ databaseUrl: embedded.url, dataDir: dir, databasePoolSize: 8 });
  let completed = 0;
  const registry = {
    noop: defineJob({
      payload: z.object({ n: z.number().int() }),
      async handler() {
        completed += 1;
        return undefined;
      },
    }),
  };
  const repository = new JobsRepository(database.db);
  const options = {
    connectionString: embedded.url,
    leaseSeconds: 60,
    timeoutSeconds: 600,
    pollingIntervalSeconds: 0.05,
  };
  const producer = new JobQueue(registry, repository, { ...options, poolSize: PRODUCERS });
  const workers = Array.from({ length: WORKERS }, () => new JobQueue(registry, repository, options));
  try {
    await runMigrations(database.pool);
    const [owner] = await database.db
      .insert(users)
      .values({ email: 'bench@example.com', displayName: 'Bench' })
      .returning();
    await producer.start();
    for (const worker of workers) await worker.start();
    for (const worker of workers) await worker.work(CONCURRENCY);

    let enqueued = 0;
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: PRODUCERS }, async () => {
        while (performance.now() < deadline) {
          await producer.enqueue(owner!.id, 'noop', { n: enqueued });
          enqueued += 1;
        }
      }),
    );
    const produced = (performance.now() - started) / 1000;
    const doneInTime = completed;
    // The backlog is drained (at most another SECONDS) so that the completion rate covers every job.
    while (completed < enqueued && performance.now() < deadline + SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const total = (performance.now() - started) / 1000;
    console.log(
      `${WORKERS} workers × ${CONCURRENCY} pollers, ${PRODUCERS} producers, ${SECONDS} s on the embedded PostgreSQL ` +
        `(JOBS_BENCH_SECONDS, JOBS_BENCH_WORKERS, JOBS_BENCH_CONCURRENCY)`,
    );
    console.log(`enqueued: ${enqueued} jobs in ${produced.toFixed(1)} s = ${(enqueued / produced).toFixed(0)} jobs/s`);
    console.log(
      `completed: ${doneInTime} while enqueueing (${(doneInTime / produced).toFixed(0)} jobs/s), ` +
        `all ${completed} of ${enqueued} after ${total.toFixed(1)} s = ${(completed / total).toFixed(0)} jobs/s end to end`,
    );
    const rows = await database.db.execute(sql`select count(*)::int as n from jobs where status = 'completed'`);
    console.log(`jobs rows completed: ${(rows.rows[0] as { n: number }).n}`);
  } finally {
    for (const worker of workers) await worker.stop(1000).catch(() => undefined);
    await producer.stop(1000).catch(() => undefined);
    await database.close();
    await embedded.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
