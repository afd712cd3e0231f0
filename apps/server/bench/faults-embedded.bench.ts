/**
 * Fault trials on the embedded PostgreSQL with real `invoicebox start` processes (long versions of
 * test/embedded-supervision.test.ts): a mail import runs while (1) the postmaster is killed, or (2) `start` itself is
 * killed with -9 and started again. Each trial then waits for the import job to end and compares the stored
 * invoices and attachment rows with what the generated mailbox must give: more is a duplicate, fewer a loss. A crash
 * is a `start` that exited by itself (it is started again so the job can finish) or a postgres left running after the
 * final SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isAlive } from '../src/db/data-dir-lock';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { assertBuiltCliIsCurrent } from '../test/cli-processes';
import { type EmbeddedStart, postmasterPid, spawnEmbeddedStart } from '../test/embedded-processes';
import { buildMbox } from '../test/mail/mail-builder';
import { generateMailbox } from '../test/mail/mailbox-generator';

export interface FaultTrialResult {
  name: string;
  trials: number;
  duplicates: number;
  losses: number;
  crashes: number;
}

const MAILS = 150;
const ENV = { JOB_LEASE_SECONDS: '5', LOG_LEVEL: 'warn' };

export async function runEmbeddedFaultTrials(trials: number): Promise<FaultTrialResult[]> {
  await assertBuiltCliIsCurrent();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-faults-embedded-'));
  await fs.chmod(dir, 0o755); // as root, the `postgres` user must reach the data dirs below
  const template = path.join(dir, 'template');
  await (await startEmbeddedPostgres(template)).stop(); // initdb once; each trial copies the cluster
  const mailbox = generateMailbox(MAILS, 7);
  const mbox = buildMbox(mailbox.messages.map((m) => m.source));
  const expected = { invoices: mailbox.expectedInvoices, attachments: mailbox.expectedAttachmentRows };

  const kinds: Array<{ name: string; fault: Fault }> = [
    { name: 'embedded postmaster killed (-9) during an import', fault: killPostmaster },
    { name: 'kill -9 of start during an import, then start', fault: killStart },
  ];
  const results: FaultTrialResult[] = [];
  let n = 0;
  try {
    for (const { name, fault } of kinds) {
      const result: FaultTrialResult = { name, trials, duplicates: 0, losses: 0, crashes: 0 };
      for (let i = 0; i < trials; i++) {
        const dataDir = path.join(dir, `trial-${++n}`);
        await fs.mkdir(dataDir);
        execFileSync('cp', ['-a', path.join(template, 'pg'), path.join(template, 'secrets'), dataDir]);
        const outcome = await runTrial(dataDir, mbox, expected, fault).catch((error: Error) => {
          console.log(`  ${name}, trial ${i + 1}: ${error.message.slice(0, 300)}`);
          return { duplicate: false, loss: true, crashes: 1 };
        });
        if (outcome.duplicate) result.duplicates += 1;
        if (outcome.loss) result.losses += 1;
        result.crashes += outcome.crashes;
        await fs.rm(dataDir, { recursive: true, force: true });
      }
      results.push(result);
    }
  } finally {
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const pid = await postmasterPid(path.join(dir, name));
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    await fs.rm(dir, { recursive: true, force: true });
  }
  return results;
}

/** Does the harm once the import is under way; returns the `start` that runs afterwards. */
type Fault = (dataDir: string, app: EmbeddedStart) => Promise<EmbeddedStart>;

const killPostmaster: Fault = async (dataDir, app) => {
  const pid = await postmasterPid(dataDir);
  if (pid) process.kill(pid, 'SIGKILL');
  return app;
};

const killStart: Fault = async (dataDir, app) => {
  app.child.kill('SIGKILL');
  await app.exited;
  const next = spawnEmbeddedStart(dataDir, ENV);
  await next.ready;
  return next;
};

async function runTrial(
  dataDir: string,
  mbox: Buffer,
  expected: { invoices: number; attachments: number },
  fault: Fault,
): Promise<{ duplicate: boolean; loss: boolean; crashes: number }> {
  let crashes = 0;
  let app = spawnEmbeddedStart(dataDir, ENV);
  let url = await app.ready;
  const signup = await fetch(`${url}/api/v1/auth/local/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery staple' }),
  });
  const { token } = (await signup.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const upload = await fetch(`${url}/api/v1/imports/mail`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/mbox' },
    body: mbox,
  });
  const { job_id: jobId } = (await upload.json()) as { job_id: string };

  // Under way: a few invoices stored, most not yet.
  await until(async () => ((await count(dataDir, 'invoices')) ?? 0) >= 2, 120_000);
  const postmaster = await postmasterPid(dataDir);
  const before = await count(dataDir, 'invoices');
  app = await fault(dataDir, app);
  if ((before ?? 0) >= expected.invoices) console.log('  (the import had ended before the fault: a weak trial)');
  url = await app.ready;

  let status = '';
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline && status !== 'completed' && status !== 'failed') {
    if (app.child.exitCode !== null || app.child.signalCode !== null) {
      crashes += 1; // died by itself: started again, as a supervisor would
      const output = app.output();
      const last = (output.match(/\b\w*Error: .*|code: '\w+'/g) ?? [output.trim().split('\n').at(-1)]).join(' ');
      console.log(`  start exited by itself (${app.child.exitCode ?? app.child.signalCode}): ${last.slice(0, 400)}`);
      app = spawnEmbeddedStart(dataDir, ENV);
      url = await app.ready;
    }
    const response = await fetch(`${url}/api/v1/jobs/${jobId}`, { headers: auth }).catch(() => undefined);
    if (response?.ok) status = ((await response.json()) as { status: string }).status;
    if (status !== 'completed' && status !== 'failed') await sleep(250);
  }
  const invoices = (await count(dataDir, 'invoices')) ?? -1;
  const attachments = (await count(dataDir, 'message_attachments')) ?? -1;

  if ((await app.stop()) === null) crashes += 1;
  const left = [postmaster, await postmasterPid(dataDir)].filter((pid): pid is number => !!pid && isAlive(pid));
  if (left.length > 0) {
    crashes += 1; // a postgres outlived its `start`
    for (const pid of left) process.kill(pid, 'SIGKILL');
  }
  const verdict = `job ${status || 'unknown'}, ${invoices}/${expected.invoices} invoices, ${attachments}/${expected.attachments} attachment rows, ${before} invoices at the fault`;
  if (status !== 'completed' || invoices !== expected.invoices || attachments !== expected.attachments) {
    console.log(`  ${verdict}\n  ${app.output().trim().split('\n').slice(-3).join('\n  ').slice(0, 600)}`);
  }
  return {
    duplicate: invoices > expected.invoices || attachments > expected.attachments,
    loss: status !== 'completed' || invoices < expected.invoices || attachments < expected.attachments,
    crashes,
  };
}

/** Rows of a table in the data dir's embedded database, or undefined while it does not answer. */
async function count(dataDir: string, table: string): Promise<number | undefined> {
  const pidFile = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '');
  const port = Number(pidFile.split('\n')[3]);
  const password = (await fs.readFile(path.join(dataDir, 'secrets', 'pg-password'), 'utf8')).trim();
  if (!port) return undefined;
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'invoicebox' });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    return rows[0]!.n;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await sleep(50);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `npm run bench -- faults-embedded` (FAULT_TRIALS, default 3). */
export async function runFaultsEmbeddedBench(): Promise<void> {
  const trials = Number(process.env.FAULT_TRIALS ?? 3);
  const started = Date.now();
  for (const r of await runEmbeddedFaultTrials(trials)) {
    console.log(`${r.name}: ${r.trials} trials, ${r.duplicates} duplicates, ${r.losses} losses, ${r.crashes} crashes`);
  }
  console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
}
