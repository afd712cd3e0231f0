/**
 * `npm run bench -- faults`: the long versions of the fault tests (test/faults/), each trial kind run
 * BENCH_FAULTS_TRIALS times (default 50), and a table of trials, duplicates, losses and crashes per kind. The goal is
 * 0, 0, 0. Every trial runs the built CLI on a PostgreSQL of its own, never the shared one.
 *
 * More kinds join by adding to `faultTrialKinds` (a function from a trial count to a row).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { TEST_SECRET } from '../test/auth-app';
import { assertBuiltCliIsCurrent, startApi } from '../test/cli-processes';
import { databaseOutageTrial } from '../test/faults/outage-trial';
import { refusedCharactersMail } from '../test/faults/refused-characters-mail';
import { runEmbeddedFaultTrials } from './faults-embedded.bench';

export interface FaultTrialRow {
  name: string;
  trials: number;
  duplicates: number;
  losses: number;
  crashes: number;
}

const TRIALS = Number(process.env.BENCH_FAULTS_TRIALS ?? 50);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The database stopped at a different point of an import each time, for 1 to 10 s, then started again. */
async function databaseStoppedDuringImport(trials: number): Promise<FaultTrialRow> {
  const row: FaultTrialRow = {
    name: 'database stopped during an import',
    trials: 0,
    duplicates: 0,
    losses: 0,
    crashes: 0,
  };
  for (let i = 0; i < trials; i++) {
    const outcome = await databaseOutageTrial({
      messages: 150,
      outageMs: 1000 + ((i * 7919) % 9000),
      stopAfterStored: [1, 50, 100][i % 3],
    });
    row.trials += 1;
    row.duplicates += outcome.duplicates;
    row.losses += outcome.losses;
    row.crashes += outcome.crashed ? 1 : 0;
    if (outcome.crashed || outcome.duplicates || outcome.losses || !outcome.detail.startsWith('job completed')) {
      console.log(`  trial ${i + 1}: ${outcome.detail.slice(0, 600)}`);
    }
  }
  return row;
}

/**
 * Mail with NUL and lone surrogates in every header and name, uploaded to one running `start` (each trial a new
 * mbox of 3 such mails and 2 ordinary ones): each import must complete with exactly its 5 messages stored, clean,
 * and the process must stay up.
 */
async function refusedCharacterMail(trials: number): Promise<FaultTrialRow> {
  const row: FaultTrialRow = {
    name: 'mail with NUL and refused characters',
    trials: 0,
    duplicates: 0,
    losses: 0,
    crashes: 0,
  };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-fault-nul-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(dir);
  let api = await startApi({
    DATABASE_URL: server.url,
    INVOICEBOX_DATA_DIR: path.join(dir, 'data'),
    INVOICEBOX_SECRET: TEST_SECRET,
    LOG_LEVEL: 'warn',
  });
  const probe = new pg.Pool({ connectionString: server.url, max: 1 });
  try {
    const signup = await fetch(`${api.url}/api/v1/auth/local/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
    });
    const auth = { authorization: `Bearer ${((await signup.json()) as { token: string }).token}` };
    const count = async () => Number((await probe.query('select count(*)::int as n from mail_messages')).rows[0].n);
    for (let i = 0; i < trials; i++) {
      row.trials += 1;
      const before = await count();
      const mails = [0, 1, 2, 3, 4].map((k) => {
        const n = i * 10 + k;
        const mail = refusedCharactersMail(n);
        // Two of the five are ordinary mails (the refused characters only where k < 3).
        return k < 3
          ? mail
          : Buffer.from(
              mail
                .toString('latin1')
                .replace(/=00|%00/g, '')
                .replaceAll('\u0000', ''),
              'latin1',
            );
      });
      const mbox = Buffer.concat(
        mails.flatMap((m) => [Buffer.from('From x@vendor.example Mon Jan  1 00:00:00 2024\n'), m, Buffer.from('\n')]),
      );
      const upload = await fetch(`${api.url}/api/v1/imports/mail`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/mbox' },
        body: mbox,
      }).catch(() => null);
      let status = 'not started';
      if (upload?.status === 200) {
        const { job_id: jobId } = (await upload.json()) as { job_id: string };
        for (let w = 0; w < 240 && api.child.exitCode === null && api.child.signalCode === null; w++) {
          const job = await fetch(`${api.url}/api/v1/jobs/${jobId}`, { headers: auth }).catch(() => null);
          status = job?.status === 200 ? ((await job.json()) as { status: string }).status : status;
          if (status === 'completed' || status === 'failed') break;
          await sleep(250);
        }
      }
      const added = (await count()) - before;
      row.duplicates += Math.max(0, added - 5);
      row.losses += Math.max(0, 5 - added);
      const unclean = await probe.query(
        `select count(*)::int as n from message_attachments where filename <> 'invoice.pdf' and filename <> 'A\uFFFDB.pdf'`,
      );
      if (api.child.exitCode !== null || api.child.signalCode !== null) {
        row.crashes += 1;
        console.log(`  trial ${i + 1}: the process ended: ${api.output().slice(-600)}`);
        api = await startApi({
          DATABASE_URL: server.url,
          INVOICEBOX_DATA_DIR: path.join(dir, 'data'),
          INVOICEBOX_SECRET: TEST_SECRET,
          LOG_LEVEL: 'warn',
        });
      } else if (status !== 'completed' || added !== 5 || unclean.rows[0].n !== 0) {
        console.log(`  trial ${i + 1}: job ${status}, ${added} stored, ${unclean.rows[0].n} unclean file names`);
      }
    }
  } finally {
    await probe.end();
    await api.stop(10_000);
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
  return row;
}

/** The kinds of fault trial; the lead adds more (the embedded PostgreSQL's) here. */
export const faultTrialKinds: Array<(trials: number) => Promise<FaultTrialRow>> = [
  databaseStoppedDuringImport,
  refusedCharacterMail,
];

export function printFaultTable(rows: FaultTrialRow[]): void {
  const width = Math.max(10, ...rows.map((r) => r.name.length));
  console.log(`${'trial kind'.padEnd(width)}  trials  duplicates  losses  crashes`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(width)}  ${String(r.trials).padStart(6)}  ${String(r.duplicates).padStart(10)}  ${String(r.losses).padStart(6)}  ${String(r.crashes).padStart(7)}`,
    );
  }
}

export async function runFaultsBench(): Promise<void> {
  try {
    await assertBuiltCliIsCurrent();
  } catch (error) {
    console.log(`not run: ${(error as Error).message}`);
    return;
  }
  console.log(`${TRIALS} trials of each kind (BENCH_FAULTS_TRIALS)`);
  const rows: FaultTrialRow[] = [];
  for (const kind of faultTrialKinds) {
    const started = Date.now();
    const row = await kind(TRIALS);
    console.log(`  ${row.name}: ${Math.round((Date.now() - started) / 1000)} s`);
    rows.push(row);
  }
  // The embedded engine's own faults (bench/faults-embedded.bench.ts): its postmaster killed during an import, and
  // kill -9 of `start` then `start` again.
  const started = Date.now();
  rows.push(...(await runEmbeddedFaultTrials(TRIALS)));
  console.log(`  embedded PostgreSQL faults: ${Math.round((Date.now() - started) / 1000)} s`);
  printFaultTable(rows);
}
