/**
 * The cost of each document store: put and get of BLOBS_BENCH_COUNT documents (default 1,000) of BLOBS_BENCH_KB
 * (default 200 KB), one at a time (latency p50/p95, documents/s, MB/s) and 8 at a time (throughput), on the local
 * folder, on PostgreSQL (an embedded server of its own) and on the S3 test server (moto_server on 127.0.0.1; a
 * stand-in that keeps objects in memory, so its figures say what the protocol costs, not what a real S3 does).
 * Prints figures; never fails on time.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { type BlobStore, LocalBlobStore } from '../src/invoices/blob.store';
import { PgBlobStore } from '../src/invoices/pg-blob.store';
import { createS3Client, S3BlobStore } from '../src/invoices/s3-blob.store';
import { startS3 } from '../test/s3-server';

const COUNT = Number(process.env.BLOBS_BENCH_COUNT ?? 1000);
const SIZE = Number(process.env.BLOBS_BENCH_KB ?? 200) * 1024;
const PARALLEL = 8;

export async function runBlobsBench(): Promise<void> {
  console.log(`${COUNT} documents of ${SIZE / 1024} KB (BLOBS_BENCH_COUNT, BLOBS_BENCH_KB), random bytes`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-blobs-'));
  await fs.chmod(dir, 0o755);
  try {
    await bench('local', new LocalBlobStore(path.join(dir, 'blobs')));
    const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
    try {
      const database = await openDatabase({ databaseUrl: embedded.url, dataDir: dir, databasePoolSize: PARALLEL });
      try {
        await runMigrations(database.pool);
        await bench('postgres (embedded)', new PgBlobStore(database.db, 'documents'));
      } finally {
        await database.close();
      }
    } finally {
      await embedded.stop();
    }
    const s3 = await startS3('invoicebox-bench');
    try {
      await bench('s3 (moto_server)', new S3BlobStore(createS3Client(s3.config), s3.config.bucket, 'documents/'));
    } finally {
      await s3.dispose();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function bench(name: string, store: BlobStore): Promise<void> {
  const documents = Array.from({ length: COUNT }, () => {
    const bytes = randomBytes(SIZE);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
  const half = Math.floor(COUNT / 2);
  const one = documents.slice(0, half);
  const many = documents.slice(half);

  const putOne = await sequential(one, (d) => store.put(d.sha256, d.bytes));
  report(name, 'put, 1 at a time', one.length, putOne);
  const putMany = await parallel(many, (d) => store.put(d.sha256, d.bytes));
  report(name, `put, ${PARALLEL} at a time`, many.length, putMany);

  const read = async (d: { sha256: string; bytes: Buffer }) => {
    const got = await buffer(store.stream(d.sha256));
    if (got.length !== d.bytes.length) throw new Error(`${name}: ${d.sha256} came back with ${got.length} bytes`);
  };
  const getOne = await sequential(documents, read);
  report(name, 'get (stream), 1 at a time', documents.length, getOne);
  const getMany = await parallel(documents, read);
  report(name, `get (stream), ${PARALLEL} at a time`, documents.length, getMany);
}

async function sequential<T>(items: T[], fn: (item: T) => Promise<void>) {
  const latencies: number[] = [];
  const start = performance.now();
  for (const item of items) {
    const t0 = performance.now();
    await fn(item);
    latencies.push(performance.now() - t0);
  }
  return { ms: performance.now() - start, latencies };
}

async function parallel<T>(items: T[], fn: (item: T) => Promise<void>) {
  const latencies: number[] = [];
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        const t0 = performance.now();
        await fn(item);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { ms: performance.now() - start, latencies };
}

function report(store: string, what: string, count: number, run: { ms: number; latencies: number[] }): void {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const seconds = run.ms / 1000;
  console.log(
    `${store}: ${what}: ${(count / seconds).toFixed(0)} documents/s, ${((count * SIZE) / 1e6 / seconds).toFixed(1)} MB/s, ` +
      `latency p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`,
  );
}
