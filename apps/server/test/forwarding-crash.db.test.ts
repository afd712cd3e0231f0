import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { forwardingMessageId } from '../src/forwarding/forward-message';
import { LocalBlobStore } from '../src/invoices/blob.store';
import { JobQueue } from '../src/jobs/job-queue';
import { defineJob } from '../src/jobs/job-registry';
import { JobsRepository } from '../src/jobs/jobs.repository';
import { useTestDatabase } from './db';
import { startDovecot, type TestDovecot } from './dovecot';
import { FORWARDING_USERS, forwardingService, RECIPIENTS, seedInvoices, smtpConfigFor } from './forwarding-harness';
import { readMailbox, startSmtpRelay, type TestSmtpRelay } from './smtp-relay';
import { waitFor } from './wait-for';

/**
 * Crash injection on the real queue: worker processes running the production invoice_forwarding job are killed with
 * SIGKILL at each step that matters (before the send, after the relay accepted the message but before the commit,
 * after the commit), trial after trial, over FORWARDING_CRASH_INVOICES invoices × 3 recipients. At the end every
 * recipient's mailbox, read over IMAP, holds every invoice exactly once.
 * FORWARDING_CRASH_TRIALS (default 9: 3 per crash point) and FORWARDING_CRASH_INVOICES (default 50) size it.
 */
const t = useTestDatabase();
const here = path.dirname(fileURLToPath(import.meta.url));
const TRIALS = Number(process.env.FORWARDING_CRASH_TRIALS ?? 9);
const INVOICES = Number(process.env.FORWARDING_CRASH_INVOICES ?? 50);
const POINTS = ['before_send', 'after_send', 'after_commit'] as const;

describe('forwarding with workers killed (kill -9) at every step', () => {
  let dovecot: TestDovecot;
  let relay: TestSmtpRelay;
  let dir: string;
  const children: ChildProcess[] = [];
  const registry = {
    invoice_forwarding: defineJob({ payload: z.object({}), handler: async () => undefined, retryLimit: 10 }),
  };
  let producer: JobQueue<typeof registry>;

  beforeAll(async () => {
    dovecot = await startDovecot(FORWARDING_USERS);
    relay = await startSmtpRelay(dovecot, FORWARDING_USERS);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-fwd-crash-'));
    producer = new JobQueue(registry, new JobsRepository(t().database.db), {
      connectionString: t().url,
      leaseSeconds: 2,
      timeoutSeconds: 300,
      retryDelaySeconds: 0,
    });
    await producer.start();
    // A delivery lost with its worker is retried at once (the queue may come from the template with a delay).
    await t().database.pool.query(
      "update pgboss.queue set retry_delay = 0, retry_backoff = false where name = 'invoicebox'",
    );
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await producer?.stop(1000);
    await relay?.close();
    await dovecot?.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  });

  function startWorker(crashAt?: string, crashAfter?: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/forwarding-worker.ts')], {
      cwd: path.resolve(here, '..'),
      env: {
        ...process.env,
        DATABASE_URL: t().url,
        BLOB_DIR: dir,
        RELAY_PORT: String(relay.port),
        IMAP_PORT: String(dovecot.imapPort),
        JOB_LEASE_SECONDS: '2',
        ...(crashAt ? { CRASH_AT: crashAt, CRASH_AFTER: String(crashAfter) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    return new Promise((resolve, reject) => {
      child.stdout?.on('data', (c: Buffer) => {
        if (c.toString().includes('ready')) resolve(child);
      });
      child.once('exit', (code, signal) => reject(new Error(`worker exited early (${code ?? signal}): ${stderr}`)));
    });
  }

  it(
    `delivers ${INVOICES} invoices × 3 recipients exactly once across ${TRIALS} kills`,
    async () => {
      const { db, pool } = t().database;
      const { ownerId } = await seedInvoices(db, new LocalBlobStore(dir), INVOICES, 'kill');
      const { forwarding } = forwardingService(
        db,
        new LocalBlobStore(dir),
        smtpConfigFor(relay.port, dovecot.imapPort),
      );
      forwarding.useQueue((owner) => producer.enqueue(owner, 'invoice_forwarding', {}));
      await forwarding.updateConfig(ownerId, { enabled: true, target_emails: RECIPIENTS });
      const started = await forwarding.start(ownerId);
      expect(started.queued).toBe(INVOICES * 3);

      const outstanding = async () =>
        Number(
          (
            await pool.query(
              "select count(*)::int as n from forwarding_outbox where owner_id = $1 and status in ('pending','sending')",
              [ownerId],
            )
          ).rows[0].n,
        );
      // A job that spent its deliveries is replaced, as the next sync or Forward Now would.
      const ensureJob = async () => {
        const active = await pool.query(
          "select 1 from jobs where owner_id = $1 and type = 'invoice_forwarding' and status in ('pending','running')",
          [ownerId],
        );
        if (active.rowCount === 0 && (await outstanding()) > 0) await forwarding.start(ownerId);
      };

      const kills = { before_send: 0, after_send: 0, after_commit: 0 };
      for (let trial = 0; trial < TRIALS; trial++) {
        const point = POINTS[trial % POINTS.length]!;
        await ensureJob();
        if ((await outstanding()) === 0) break;
        const worker = await startWorker(point, 1 + Math.floor(Math.random() * 4));
        const exited = await waitFor(async () => {
          if (worker.signalCode === 'SIGKILL') return 'killed';
          if ((await outstanding()) === 0) return 'done';
          await ensureJob();
          return undefined;
        }, 60_000);
        if (exited === 'killed') kills[point] += 1;
        else worker.kill('SIGKILL');
      }

      // A worker that is left alone finishes what is left.
      await ensureJob();
      const finisher = await startWorker();
      await waitFor(async () => {
        if ((await outstanding()) === 0) return true;
        await ensureJob();
        return undefined;
      }, 90_000);
      finisher.kill('SIGTERM');

      const rows = await pool.query(
        'select status, count(*)::int as n from forwarding_outbox where owner_id = $1 group by 1',
        [ownerId],
      );
      expect(rows.rows).toEqual([{ status: 'sent', n: INVOICES * 3 }]);
      const invoiceIds = (await db.execute(sql`select id from invoices where owner_id = ${ownerId}`)).rows.map(
        (r) => (r as { id: string }).id,
      );
      let duplicates = 0;
      let missing = 0;
      for (const recipient of RECIPIENTS) {
        const got = await readMailbox(
          dovecot,
          recipient.split('@')[0]!,
          FORWARDING_USERS[recipient.split('@')[0] as keyof typeof FORWARDING_USERS],
        );
        const counts = new Map<string, number>();
        for (const m of got) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
        for (const id of invoiceIds) {
          const n = counts.get(forwardingMessageId(id, recipient)) ?? 0;
          if (n === 0) missing += 1;
          if (n > 1) duplicates += n - 1;
        }
        expect(got).toHaveLength(INVOICES);
      }
      console.log(
        `forwarding crash test: ${TRIALS} trials, kills ${JSON.stringify(kills)}, ${INVOICES} invoices × 3 recipients, ` +
          `${duplicates} duplicates, ${missing} missing`,
      );
      expect(kills.before_send + kills.after_send + kills.after_commit).toBeGreaterThan(0);
      expect(duplicates).toBe(0);
      expect(missing).toBe(0);
      // Not one message handed to the relay twice: each kill after an accepted send was settled from the Sent folder.
      expect(relay.accepted).toBe(INVOICES * 3);
    },
    90_000 + TRIALS * 12_000,
  );
});
