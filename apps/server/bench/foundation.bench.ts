/**
 * Foundation benchmarks: health endpoint throughput and latency (autocannon against the real server), queue
 * throughput with a no-op handler on the embedded and the external PostgreSQL, and cold start of `invoicebox start`.
 * Prints figures; never fails on time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { z } from 'zod';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { users } from '../src/db/schema';
import { JobQueue } from '../src/jobs/job-queue';
import { defineJob } from '../src/jobs/job-registry';
import { JobsRepository } from '../src/jobs/jobs.repository';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/invoicebox.js');

export async function runFoundationBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-'));
  await fs.chmod(dir, 0o755);
  try {
    await benchColdStartAndHealth(path.join(dir, 'app'));
    await benchQueue(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'start'], {
    env: { ...process.env, PORT: '0', INVOICEBOX_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = out.match(/running at (http:\/\/\S+)/);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  while (
    (await fetch(`${url}/api/v1/health`)
      .then((r) => r.status)
      .catch(() => 0)) !== 200
  ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, url, seconds: (performance.now() - started) / 1000 };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function benchColdStartAndHealth(dataDir: string): Promise<void> {
  const first = await startServer(dataDir); // creates the data dir (initdb, migrations)
  await stopServer(first.child);
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof startServer>> | undefined;
  for (let i = 0; i < 3; i++) {
    last = await startServer(dataDir);
    times.push(last.seconds);
    if (i < 2) await stopServer(last.child);
  }
  times.sort((a, b) => a - b);
  console.log(`cold start (first run, new data dir):    ${first.seconds.toFixed(2)} s`);
  console.log(`cold start (existing data dir, median):  ${times[1]!.toFixed(2)} s  (goal < 3 s)`);

  const result = await autocannon({ url: `${last!.url}/api/v1/health`, connections: 10, duration: 5 });
  const l = result.latency;
  // autocannon reports p90 and p97.5, not p95: both are printed, p95 lies between them.
  console.log(
    `GET /api/v1/health: ${Math.round(result.requests.average)} req/s (10 connections, 5 s), latency p50 ${l.p50} ms, p90 ${l.p90} ms, p97.5 ${l.p97_5} ms, p99 ${l.p99} ms, ${result.non2xx} non-2xx`,
  );
  await stopServer(last!.child);
}

const noop = defineJob({ payload: z.object({}), handler: async () => undefined });

async function queueThroughput(url: string, jobs: number, concurrency: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  await runMigrations(pool);
  await pool.end();
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', databasePoolSize: 8 });
  const repository = new JobsRepository(database.db);
  const queue = new JobQueue({ noop }, repository, {
    connectionString: url,
    leaseSeconds: 60,
    timeoutSeconds: 600,
    pollingIntervalSeconds: 0.5,
  });
  await queue.start();
  const [owner] = await database.db
    .insert(users)
    .values({ email: `bench-${Date.now()}@example.com`, displayName: 'Bench' })
    .returning();
  await queue.work(concurrency);
  const started = performance.now();
  await Promise.all(Array.from({ length: jobs }, () => queue.enqueue(owner!.id, 'noop', {})));
  while (true) {
    const { rows } = await database.pool.query(
      `select count(*)::int as n from jobs where owner_id = $1 and status = 'completed'`,
      [owner!.id],
    );
    if (rows[0].n >= jobs) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const perSecond = jobs / ((performance.now() - started) / 1000);
  await queue.stop(1000);
  await database.close();
  return perSecond;
}

async function benchQueue(dir: string): Promise<void> {
  const jobs = 300;
  const concurrency = 4;
  const embedded = await startEmbeddedPostgres(path.join(dir, 'queue'));
  try {
    const rate = await queueThroughput(embedded.url, jobs, concurrency);
    console.log(
      `queue, embedded PostgreSQL: ${rate.toFixed(0)} jobs/s enqueued+completed (${jobs} no-op jobs, ${concurrency} workers)`,
    );
  } finally {
    await embedded.stop();
  }
  const external = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: external, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    console.log('queue, external PostgreSQL: not run (no server at TEST_DATABASE_URL or 127.0.0.1:5432)');
    return;
  }
  const name = `ibx_bench_${process.pid}`;
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  try {
    const u = new URL(external);
    u.pathname = `/${name}`;
    const rate = await queueThroughput(u.toString(), jobs, concurrency);
    console.log(
      `queue, external PostgreSQL: ${rate.toFixed(0)} jobs/s enqueued+completed (${jobs} no-op jobs, ${concurrency} workers)`,
    );
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
