/**
 * The scaled-out deployment under load: two `invoicebox start` processes (INVOICEBOX_WORKERS=false) on the external
 * PostgreSQL with 100,000 invoices of one owner, 50 concurrent clients (25 on each process, as a round-robin load
 * balancer spreads them) for 30 s on the invoice list, then on the stats; then the same again while an
 * `invoicebox worker` syncs a large generated mailbox from a local Dovecot into the same store. Prints requests/s,
 * p50/p95/p99 latency and errors of each run; never fails on time. Load, servers and database share this machine.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { AccountsRepository } from '../src/accounts/accounts.repository';
import { AccountsService } from '../src/accounts/accounts.service';
import { openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { assertBuiltCliIsCurrent, type CliProcess, startApi, startWorker } from '../test/cli-processes';
import { startDovecot } from '../test/dovecot';
import { generateMailbox } from '../test/mail/mailbox-generator';
import { seed } from './invoices.bench';

const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 30);
const TIMEOUT_SECONDS = 20;
const SYNC_MESSAGES = Number(process.env.BENCH_SCALE_MESSAGES ?? 20_000);
const SECRET = 'a-bench-secret-of-at-least-32-characters!';
const TARGETS = [
  ['invoice list', '/api/v1/invoices?page=1&limit=20&has_attachments=false'],
  ['invoice stats', '/api/v1/invoices/stats'],
] as const;

export async function runScaleBench(): Promise<void> {
  try {
    await assertBuiltCliIsCurrent();
  } catch (error) {
    console.log(`not run: ${(error as Error).message}`);
    return;
  }
  const external = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: external, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    console.log('not run: no PostgreSQL at TEST_DATABASE_URL or 127.0.0.1:5432');
    return;
  }
  const name = `ibx_bench_scale_${process.pid}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-scale-'));
  const processes: CliProcess[] = [];
  const dovecot = await startDovecot({ bench: 'pw' });
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  try {
    const u = new URL(external);
    u.pathname = `/${name}`;
    await benchScale(u.toString(), dataDir, processes, dovecot);
  } finally {
    await Promise.all(processes.map((p) => p.stop(10_000)));
    await dovecot.dispose();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function benchScale(
  url: string,
  dataDir: string,
  processes: CliProcess[],
  dovecot: Awaited<ReturnType<typeof startDovecot>>,
): Promise<void> {
  const env = {
    DATABASE_URL: url,
    INVOICEBOX_SECRET: SECRET,
    INVOICEBOX_DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
  };
  const apiEnv = { ...env, INVOICEBOX_WORKERS: 'false', LOG_LEVEL: 'warn' };
  // One first: it makes the queue's schema, which processes starting at the same moment can deadlock on.
  const apis = [await startApi(apiEnv)];
  processes.push(apis[0]!);
  apis.push(await startApi(apiEnv));
  processes.push(apis[1]!);

  const signUp = await fetch(`${apis[0]!.url}/api/v1/auth/local/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'a long bench password' }),
  });
  const { token, user } = (await signUp.json()) as { token: string; user: { id: string } };

  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', databasePoolSize: 2 });
  try {
    await runMigrations(database.pool);
    const accounts = new AccountsService(new AccountsRepository(database.db));
    const account = await accounts.connect(user.id, { provider: 'mbox', email: 'bench@example.com' });
    const seeding = performance.now();
    await seed(database.db, user.id, account.userId);
    // What autovacuum does soon after a bulk insert: index-only counts need the visibility map.
    await database.pool.query('vacuum (analyze) invoices, mail_messages, message_attachments, invoice_accounts');
    console.log(
      `${os.cpus().length} cores shared by the load generator, 2 API processes, PostgreSQL and (second part) a worker and Dovecot`,
    );
    console.log(
      `100,000 invoices seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ${CLIENTS} clients, ${SECONDS} s per run, 25 on each API process (LOG_LEVEL=warn)`,
    );

    for (const [label, target] of TARGETS) {
      const result = await load(apis, target, token);
      console.log(line(`${label}:`, result) + serverErrors(apis, result));
    }

    // A large mailbox to sync beside the same load: written straight into the Maildir, indexed by the first SELECT.
    const mailbox = generateMailbox(SYNC_MESSAGES, 7);
    await dovecot.writeMaildir(
      'bench',
      mailbox.messages.map((m) => m.source),
    );
    const call = async <T>(api: number, method: string, route: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${apis[api]!.url}/api/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    };
    type Job = { status: string; message: string | null };
    const imap = await call<{ userId: string }>(1, 'POST', '/gmail/accounts/imap', {
      email: 'bench-imap@example.com',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'bench',
      password: 'pw',
    });
    const worker = await startWorker(env, 2);
    processes.push(worker);
    const { job_id: jobId } = await call<{ job_id: string }>(0, 'POST', '/sync/gmail', { user_ids: [imap.userId] });
    const stored = async () =>
      Number(
        (await database.pool.query('select count(*)::int as n from mail_messages where account_id = $1', [imap.userId]))
          .rows[0].n,
      );
    // Measured once the sync is storing messages, not while the worker is still starting.
    while ((await stored()) === 0) {
      const job = await call<Job>(1, 'GET', `/jobs/${jobId}`);
      if (job.status === 'failed' || job.status === 'completed') throw new Error(`the sync ended: ${job.message}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`while a worker syncs ${SYNC_MESSAGES} messages from Dovecot (full sync with field extraction):`);
    for (const [label, target] of TARGETS) {
      const before = await stored();
      const started = performance.now();
      const result = await load(apis, target, token);
      const synced = (await stored()) - before;
      const job = await call<Job>(0, 'GET', `/jobs/${jobId}`);
      const rate = synced / ((performance.now() - started) / 1000);
      console.log(
        line(`${label}:`, result) +
          `; sync meanwhile ${synced} messages (${rate.toFixed(0)} msg/s)${job.status === 'running' ? '' : `, then ${job.status}`}` +
          serverErrors(apis, result),
      );
    }
  } finally {
    await database.close();
  }
}

interface LoadResult {
  /** Median latency of one client alone, before the load. */
  alone: number;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** Responses other than 2xx, and connection errors. */
  errors: number;
  errorKinds: string[];
  /** Requests unanswered after TIMEOUT_SECONDS (counted apart, not in the percentiles). */
  timeouts: number;
  /** The machine's 1-minute load average when the run ended (other work on the machine shows here). */
  load: number;
}

/** CLIENTS connections split over the API processes for SECONDS, every response time kept for exact percentiles. */
async function load(apis: Array<{ url: string }>, target: string, token: string): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${token}` };
  // Warm-up (connection pools, query plans, the JIT), then one client alone for the latency without contention.
  const alone: number[] = [];
  for (const api of apis) {
    for (let i = 0; i < 20; i++) {
      const sent = performance.now();
      await (await fetch(`${api.url}${target}`, { headers })).text();
      if (i >= 10) alone.push(performance.now() - sent);
    }
  }
  alone.sort((a, b) => a - b);
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const results = await Promise.all(
    apis.map(
      (api) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${api.url}${target}`,
              headers,
              connections: CLIENTS / apis.length,
              duration: SECONDS,
              timeout: TIMEOUT_SECONDS,
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          );
          instance.on('response', (_client, statusCode, _bytes, responseTime) => {
            if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
            else statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
          });
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const timeouts = results.reduce((n, r) => n + r.timeouts, 0);
  const refused = results.reduce((n, r) => n + r.errors - r.timeouts, 0);
  const kinds = [...statuses].map(([code, n]) => `HTTP ${code} ×${n}`);
  if (refused > 0) kinds.push(`connection ×${refused}`);
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? Number.NaN;
  return {
    alone: alone[Math.floor(alone.length / 2)]!,
    requests: times.length,
    perSecond: times.length / seconds,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    errors: [...statuses.values()].reduce((a, b) => a + b, 0) + refused,
    errorKinds: kinds,
    timeouts,
    load: os.loadavg()[0]!,
  };
}

function line(label: string, r: LoadResult): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return `  ${label.padEnd(15)} ${r.perSecond.toFixed(0).padStart(5)} req/s (${r.requests} ok), p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}, ${r.errors} errors${r.errorKinds.length ? ` (${r.errorKinds.join(', ')})` : ''}, ${r.timeouts} timeouts (>${TIMEOUT_SECONDS} s); one client alone p50 ${ms(r.alone)}; load average ${r.load.toFixed(1)}`;
}

interface ErrorLog {
  message?: string;
  cause?: ErrorLog;
}

/** The last error the API processes logged, when a run had errors: what the server said about them. */
function serverErrors(apis: CliProcess[], result: LoadResult): string {
  if (result.errors === 0) return '';
  const logged = apis
    .flatMap((api) => api.output().split('\n'))
    .filter((l) => /"level":(50|60)/.test(l))
    .map((l) => {
      try {
        // The innermost cause says what failed (a query error wraps the driver's).
        let err = (JSON.parse(l) as { err?: ErrorLog }).err;
        while (err?.cause?.message) err = err.cause;
        return err?.message ?? l;
      } catch {
        return l; // the first line of the kept output may be cut
      }
    });
  const last = logged[logged.length - 1]?.replace(/\s+/g, ' ');
  return last ? `\n    last server error: ${last.slice(0, 200)}` : '';
}
