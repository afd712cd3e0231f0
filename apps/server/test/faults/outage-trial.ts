import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { TEST_SECRET } from '../auth-app';
import { type CliProcess, startApi } from '../cli-processes';
import { refusedCharactersMail } from './refused-characters-mail';

/** What one fault trial found; the bench adds these up per kind of trial. */
export interface TrialOutcome {
  duplicates: number;
  losses: number;
  crashed: boolean;
  /** The job's end state and message, and the last lines of the process, for a failure message. */
  detail: string;
}

/** An mbox of `count` invoice mails (a small PDF each); every `refusedEvery`-th one carries refused characters. */
export function invoiceMbox(count: number, refusedEvery = 0): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(Buffer.from(`From billing@vendor${i}.example Mon Jan  1 00:00:00 2024\n`));
    if (refusedEvery > 0 && i % refusedEvery === 0) {
      parts.push(refusedCharactersMail(i));
    } else {
      const pdf = Buffer.from(`%PDF-1.4\n% invoice ${i}\n`).toString('base64');
      parts.push(
        Buffer.from(
          [
            `From: Vendor ${i} <billing@vendor${i}.example>`,
            'To: me@example.com',
            `Subject: Invoice ${i}`,
            `Message-ID: <outage-${i}@vendor${i}.example>`,
            'Date: Mon, 1 Jan 2024 10:00:00 +0000',
            'MIME-Version: 1.0',
            'Content-Type: multipart/mixed; boundary="part"',
            '',
            '--part',
            'Content-Type: text/plain',
            '',
            `Invoice ${i} attached.`,
            '--part',
            `Content-Type: application/pdf; name="invoice-${i}.pdf"`,
            `Content-Disposition: attachment; filename="invoice-${i}.pdf"`,
            'Content-Transfer-Encoding: base64',
            '',
            pdf,
            '--part--',
            '',
          ].join('\r\n'),
        ),
      );
    }
    parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One trial: a real `invoicebox start` (the built CLI) on a PostgreSQL of the trial's own, an mbox of `messages`
 * invoice mails uploaded through the API; once the import has stored its first messages the database is stopped
 * for `outageMs`, then started again on the same port. The job must complete with every message and invoice stored
 * exactly once, and the process must still run.
 */
export async function databaseOutageTrial(options: {
  messages: number;
  outageMs: number;
  /** Stop the database when this many messages are stored (default: the first commit). */
  stopAfterStored?: number;
  jobTimeoutMs?: number;
}): Promise<TrialOutcome> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-fault-'));
  await fs.chmod(dir, 0o755);
  let server: EmbeddedDatabase | undefined;
  let api: (CliProcess & { url: string }) | undefined;
  let probe: pg.Pool | undefined;
  try {
    server = await startEmbeddedPostgres(dir);
    const port = Number(new URL(server.url).port);
    api = await startApi({
      DATABASE_URL: server.url,
      INVOICEBOX_DATA_DIR: path.join(dir, 'data'),
      INVOICEBOX_SECRET: TEST_SECRET,
      JOB_LEASE_SECONDS: '2',
      LOG_LEVEL: 'warn',
    });
    const signup = await fetch(`${api.url}/api/v1/auth/local/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
    });
    const { token } = (await signup.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const upload = await fetch(`${api.url}/api/v1/imports/mail`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/mbox' },
      body: invoiceMbox(options.messages),
    });
    if (upload.status !== 200) throw new Error(`upload refused: ${upload.status} ${await upload.text()}`);
    const { job_id: jobId } = (await upload.json()) as { job_id: string };

    probe = new pg.Pool({ connectionString: server.url, max: 1 });
    probe.on('error', () => {});
    const stored = async () =>
      Number((await probe!.query('select count(*)::int as n from mail_messages')).rows[0].n) as number;
    const threshold = options.stopAfterStored ?? 1;
    for (let i = 0; i < 600 && (await stored()) < threshold; i++) await sleep(50);
    await probe.end();
    probe = undefined;

    await server.stop();
    await sleep(options.outageMs);
    server = await startEmbeddedPostgres(dir, () => {}, { port });

    const deadline = Date.now() + (options.jobTimeoutMs ?? 120_000);
    let job: { status: string; message: string | null } = { status: 'unknown', message: null };
    while (Date.now() < deadline && api.child.exitCode === null && api.child.signalCode === null) {
      const answer = await fetch(`${api.url}/api/v1/jobs/${jobId}`, { headers: auth }).catch(() => null);
      if (answer?.status === 200) {
        job = (await answer.json()) as typeof job;
        if (job.status === 'completed' || job.status === 'failed') break;
      }
      await sleep(250);
    }
    const crashed = api.child.exitCode !== null || api.child.signalCode !== null;

    probe = new pg.Pool({ connectionString: server.url, max: 1 });
    const counts = (
      await probe.query<{ messages: number; distinct_messages: number; invoices: number; attachments: number }>(
        `select (select count(*)::int from mail_messages) as messages,
                (select count(distinct origin)::int from mail_messages) as distinct_messages,
                (select count(*)::int from invoices) as invoices,
                (select count(*)::int from message_attachments) as attachments`,
      )
    ).rows[0]!;
    const n = options.messages;
    const duplicates =
      counts.messages -
      counts.distinct_messages +
      Math.max(0, counts.distinct_messages - n) +
      Math.max(0, counts.invoices - n) +
      Math.max(0, counts.attachments - n);
    const losses =
      Math.max(0, n - counts.distinct_messages) +
      Math.max(0, n - counts.invoices) +
      Math.max(0, n - counts.attachments);
    return {
      duplicates,
      losses,
      crashed,
      detail: `job ${job.status}: ${job.message}; counts ${JSON.stringify(counts)}; output: ${api.output().slice(-2000)}`,
    };
  } finally {
    await probe?.end().catch(() => undefined);
    await api?.stop(10_000);
    await server?.stop().catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
  }
}
