/**
 * Invoice forwarding on the embedded PostgreSQL through a local SMTP relay (smtp-server → Dovecot LMTP, a copy filed
 * in the relay account's Sent folder, as hosted providers do):
 * - throughput: the invoice_forwarding run over BENCH_FORWARDING_INVOICES invoices × 3 recipients, in mails/s;
 * - latency: BENCH_FORWARDING_ROUNDS times, one new invoice is stored by the ingest (what a sync does), the
 *   after-sync step queues it, the real queue's worker sends it, and the time until it is in the recipient's mailbox
 *   (IMAP SEARCH by its Message-ID) is taken.
 * Prints figures; never fails on time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { z } from 'zod';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { forwardingMessageId } from '../src/forwarding/forward-message';
import { LocalBlobStore } from '../src/invoices/blob.store';
import { JobQueue } from '../src/jobs/job-queue';
import { defineJob } from '../src/jobs/job-registry';
import { JobsRepository } from '../src/jobs/jobs.repository';
import { startDovecot } from '../test/dovecot';
import {
  addInvoices,
  FORWARDING_USERS,
  forwardingService,
  RECIPIENTS,
  seedInvoices,
  smtpConfigFor,
} from '../test/forwarding-harness';
import { startSmtpRelay } from '../test/smtp-relay';

const INVOICES = Number(process.env.BENCH_FORWARDING_INVOICES ?? 200);
const ROUNDS = Number(process.env.BENCH_FORWARDING_ROUNDS ?? 20);

export async function runForwardingBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-fwd-'));
  await fs.chmod(dir, 0o755);
  const dovecot = await startDovecot(FORWARDING_USERS);
  const relay = await startSmtpRelay(dovecot, FORWARDING_USERS);
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'));
  const database = await openDatabase({ databaseUrl: pg.url, dataDir: dir, databasePoolSize: 6 });
  let stopQueue: (() => Promise<void>) | undefined;
  try {
    await runMigrations(database.pool);
    const { db } = database;
    const blobs = new LocalBlobStore(path.join(dir, 'blobs'));
    const smtp = smtpConfigFor(relay.port, dovecot.imapPort);

    // Throughput.
    const seeded = await seedInvoices(db, blobs, INVOICES, 'bench');
    const { forwarding } = forwardingService(db, blobs, smtp);
    forwarding.useQueue(async () => crypto.randomUUID());
    await forwarding.updateConfig(seeded.ownerId, { enabled: true, target_emails: RECIPIENTS });
    const { queued } = await forwarding.start(seeded.ownerId);
    const started = performance.now();
    const result = await forwarding.run(seeded.ownerId, crypto.randomUUID());
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `throughput: ${result.sent} of ${queued} mails (${INVOICES} invoices × ${RECIPIENTS.length} recipients, ` +
        `original attached) to the local SMTP relay in ${seconds.toFixed(2)} s = ${(result.sent / seconds).toFixed(1)} mails/s ` +
        '(one connection, one mail at a time: each is committed before the next)',
    );

    // Latency from "the sync stored a new invoice" to "it is in the recipient's mailbox", through the real queue.
    const owner = await seedInvoices(db, blobs, 0, 'latency');
    const { forwarding: live } = forwardingService(db, blobs, smtp);
    const registry = {
      invoice_forwarding: defineJob({
        payload: z.object({}),
        async handler({ ownerId, jobId, signal, progress }) {
          const r = await live.run(ownerId, jobId, { signal, progress });
          return `${r.sent} sent`;
        },
      }),
    };
    const queue = new JobQueue(registry, new JobsRepository(db), {
      connectionString: pg.url,
      leaseSeconds: 60,
      timeoutSeconds: 600,
    });
    await queue.start();
    stopQueue = () => queue.stop(2000);
    await queue.work(1);
    live.useQueue((ownerId) => queue.enqueue(ownerId, 'invoice_forwarding', {}));
    await live.updateConfig(owner.ownerId, { enabled: true, target_emails: ['books@mailbox.test'] });
    const imap = new ImapFlow({
      host: '127.0.0.1',
      port: dovecot.imapPort,
      secure: false,
      auth: { user: 'books', pass: FORWARDING_USERS.books },
      logger: false,
      doSTARTTLS: false,
    });
    imap.on('error', () => {});
    await imap.connect();
    const latencies: number[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        await addInvoices(owner.ingest, owner.ownerId, owner.accountId, round, 1, 'latency');
        const found = performance.now();
        await live.afterSync(owner.ownerId);
        const invoice = await database.pool.query(
          'select i.id from invoices i join mail_messages m on m.id = i.message_row_id where i.owner_id = $1 and m.origin = $2',
          [owner.ownerId, `latency-${round}`],
        );
        const messageId = forwardingMessageId(invoice.rows[0].id, 'books@mailbox.test');
        for (;;) {
          await imap.mailboxOpen('INBOX', { readOnly: true });
          const hits = await imap.search({ header: { 'message-id': messageId } });
          if (Array.isArray(hits) && hits.length > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        latencies.push(performance.now() - found);
      }
    } finally {
      await imap.logout().catch(() => imap.close());
    }
    latencies.sort((a, b) => a - b);
    const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    console.log(
      `latency, sync stored the invoice → in the recipient's mailbox (queue polling 1 s, ${ROUNDS} rounds): ` +
        `median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
    );
  } finally {
    await stopQueue?.();
    await database.close();
    await pg.stop();
    await relay.close();
    await dovecot.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
