import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { users } from '../src/db/schema';
import { JobQueue } from '../src/jobs/job-queue';
import { defineJob } from '../src/jobs/job-registry';
import { JobsRepository } from '../src/jobs/jobs.repository';
import { useTestDatabase } from './db';
import { waitFor } from './wait-for';

const t = useTestDatabase();
const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '..');

function startWorker(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/effect-worker.ts')], {
    cwd: serverRoot,
    env: { ...process.env, DATABASE_URL: url, JOB_LEASE_SECONDS: '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
}

describe('a worker killed mid-job (kill -9)', () => {
  const children: ChildProcess[] = [];
  // The producer only enqueues: same registry shape as the worker's, no work() here.
  const producerRegistry = {
    test_effect: defineJob({
      payload: z.object({ key: z.string(), steps: z.number().int(), step_ms: z.number().int() }),
      handler: async () => undefined,
    }),
  };
  let producer: JobQueue<typeof producerRegistry>;

  beforeAll(async () => {
    const { pool } = t().database;
    await pool.query('create table test_effects (key text primary key, job_id uuid not null)');
    await pool.query('create table test_runs (job_id uuid not null, pid int not null, at timestamptz default now())');
    producer = new JobQueue(producerRegistry, new JobsRepository(t().database.db), {
      connectionString: t().url,
      leaseSeconds: 2,
      timeoutSeconds: 300,
    });
    await producer.start();
  });

  afterEach(async () => {
    // Each test decides alone which workers exist.
    await Promise.all(
      children.splice(0).map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGKILL');
            }),
      ),
    );
  });

  afterAll(async () => {
    await producer.stop(1000);
  });

  it('is picked up by another worker after the lease expires and completes exactly once in effect', async () => {
    const { db, pool } = t().database;
    const [owner] = await db.insert(users).values({ email: 'owner@example.com', displayName: 'Owner' }).returning();
    const repository = new JobsRepository(db);

    const first = await startWorker(t().url);
    children.push(first);
    const id = await producer.enqueue(owner!.id, 'test_effect', { key: 'effect-1', steps: 10, step_ms: 300 });

    // Kill the first worker while the job is visibly in progress.
    await waitFor(async () => {
      const row = await repository.findById(id);
      return row && row.status === 'running' && row.progress >= 30 ? row : undefined;
    });
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const interrupted = await repository.findById(id);
    expect(interrupted?.status).toBe('running');
    expect(interrupted?.progress).toBeLessThan(100);

    const second = await startWorker(t().url);
    children.push(second);

    const done = await waitFor(async () => {
      const row = await repository.findById(id);
      return row?.status === 'completed' || row?.status === 'failed' ? row : undefined;
    });
    expect(done.status).toBe('completed');
    expect(done.message).toBe('effect written');
    expect(done.attempts).toBe(2);
    expect(done.workerId).not.toContain(`:${first.pid}:`);

    const runs = await pool.query('select distinct pid from test_runs where job_id = $1', [id]);
    expect(runs.rows.map((r) => r.pid).sort()).toEqual([first.pid, second.pid].sort());
    const effects = await pool.query('select job_id from test_effects where key = $1', [`effect-1`]);
    expect(effects.rows).toEqual([{ job_id: id }]);
    // pg-boss marks the delivery just after the job's own record.
    expect(await waitFor(async () => ((await producer.deliveryState(id)) === 'completed' ? true : undefined))).toBe(
      true,
    );
  });

  it('on SIGTERM releases its running job for retry, and another worker finishes it', async () => {
    const { db, pool } = t().database;
    const [owner] = await db.insert(users).values({ email: 'term@example.com', displayName: 'Term' }).returning();
    const repository = new JobsRepository(db);

    const first = await startWorker(t().url);
    children.push(first);
    const id = await producer.enqueue(owner!.id, 'test_effect', { key: 'effect-2', steps: 20, step_ms: 300 });
    await waitFor(async () => {
      const row = await repository.findById(id);
      return row && row.status === 'running' && row.progress >= 10 ? row : undefined;
    });
    const exited = new Promise<number | null>((r) => first.once('exit', r));
    first.kill('SIGTERM');
    expect(await exited).toBe(0);
    const released = await repository.findById(id);
    expect(released).toMatchObject({
      status: 'pending',
      message: 'Interrupted by shutdown; the job will be run again',
    });

    const second = await startWorker(t().url);
    children.push(second);
    const done = await waitFor(async () => {
      const row = await repository.findById(id);
      return row?.status === 'completed' || row?.status === 'failed' ? row : undefined;
    });
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
    const effects = await pool.query('select job_id from test_effects where key = $1', ['effect-2']);
    expect(effects.rows).toEqual([{ job_id: id }]);
  });
});
