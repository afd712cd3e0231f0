import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession, TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import { FORWARDING_USERS, invoiceMail, RECIPIENTS } from '../../test/forwarding-harness';
import { readMailbox, startSmtpRelay, type TestSmtpRelay } from '../../test/smtp-relay';
import { waitFor } from '../../test/wait-for';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createRuntime, type Runtime } from '../runtime';
import { forwardingMessageId } from './forward-message';

const t = useTestDatabase();

/**
 * Forwarding end to end on the real runtime and queue: a Dovecot mailbox synced by the gmail_sync job, the
 * server's SMTP relay (SMTP_*) delivering into Dovecot, read back over IMAP. Invoices found before forwarding was
 * enabled wait for Forward Now; those a later sync finds go out on their own, each once per recipient.
 */
describe('forwarding after a mail sync, on the real runtime', () => {
  let runtime: Runtime;
  let dovecot: TestDovecot;
  let relay: TestSmtpRelay;
  let dataDir: string;
  let ownerId = '';
  const users = { ...FORWARDING_USERS, fay: 'pw' };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-fwd-sync-'));
    dovecot = await startDovecot(users);
    relay = await startSmtpRelay(dovecot, users);
    runtime = await createRuntime(
      loadConfig({
        DATABASE_URL: t().url,
        INVOICEBOX_DATA_DIR: dataDir,
        INVOICEBOX_SECRET: TEST_SECRET,
        ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
        JOB_LEASE_SECONDS: '10',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(relay.port),
        SMTP_TLS: 'none',
        SMTP_USER: 'relay',
        SMTP_PASSWORD: FORWARDING_USERS.relay,
        SMTP_FROM: 'relay@localhost',
        SMTP_SENT_IMAP_URL: `imap://relay:${FORWARDING_USERS.relay}@127.0.0.1:${dovecot.imapPort}/Sent`,
      }),
      createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
    );
    ownerId = ownerSession(
      await runtime.auth.local.signUp({ email: 'fay@example.com', password: 'a long password' }, {}),
    ).user.id;
    await runtime.imapAccounts.connect(ownerId, {
      email: 'fay@mail.test',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'fay',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    await runtime.startWorkers(1);
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await relay?.close();
    await dovecot?.dispose();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const finished = (id: string) =>
    waitFor(async () => {
      const job = await runtime.jobs.get(ownerId, id);
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    });
  const sync = async () => finished(await runtime.queue.enqueue(ownerId, 'gmail_sync', {}));
  const forwardedIn = async (recipient: string) => {
    const user = recipient.split('@')[0] as keyof typeof FORWARDING_USERS;
    return (await readMailbox(dovecot, user, FORWARDING_USERS[user])).map((m) => m.messageId);
  };
  const invoiceIds = async (origins: string[]) => {
    const rows = await runtime.database.pool.query(
      `select i.id from invoices i join mail_messages m on m.id = i.message_row_id
       where i.owner_id = $1 and m.message_id = any($2::text[])`,
      [ownerId, origins],
    );
    return rows.rows.map((r: { id: string }) => r.id);
  };

  it('forwards what a sync finds after enabling, once per recipient; Forward Now sends the earlier ones', async () => {
    await dovecot.deliver('fay', [invoiceMail(1, 'sync'), invoiceMail(2, 'sync')]);
    expect((await sync()).status).toBe('completed');

    const config = await runtime.forwarding.updateConfig(ownerId, { enabled: true, target_emails: RECIPIENTS });
    expect(config).toMatchObject({ backlog: 2, sender: { configured: true, kind: 'smtp_server' } });

    await dovecot.deliver('fay', [invoiceMail(3, 'sync'), invoiceMail(4, 'sync'), invoiceMail(5, 'sync')]);
    const synced = await sync();
    expect(synced.message).toContain('Forwarding: 9 mail(s) queued');
    await waitFor(async () => ((await runtime.forwarding.stats(ownerId)).total_forwarded === 9 ? true : undefined));
    const fresh = await invoiceIds([3, 4, 5].map((n) => `<sync-invoice-${n}@vendor.example>`));
    for (const recipient of RECIPIENTS) {
      const ids = await forwardedIn(recipient);
      expect(ids.sort()).toEqual(fresh.map((id) => forwardingMessageId(id, recipient)).sort());
    }
    const jobs = await runtime.jobs.list(ownerId, 20);
    const job = jobs.find((j) => j.type === 'invoice_forwarding');
    expect(job).toMatchObject({ status: 'completed', progress: 100, message: '9 invoice mail(s) forwarded' });

    // A sync that finds nothing new sends nothing again.
    expect((await sync()).message).not.toContain('Forwarding:');

    const started = await runtime.forwarding.start(ownerId);
    expect(started.queued).toBe(6);
    await finished(started.job_id);
    const all = await invoiceIds([1, 2, 3, 4, 5].map((n) => `<sync-invoice-${n}@vendor.example>`));
    for (const recipient of RECIPIENTS) {
      const ids = await forwardedIn(recipient);
      expect(ids.sort()).toEqual(all.map((id) => forwardingMessageId(id, recipient)).sort());
    }
    expect(await runtime.forwarding.stats(ownerId)).toMatchObject({
      total_forwarded: 15,
      total_failed: 0,
      total_pending: 0,
      success_rate: 100,
    });
    const listed = await runtime.invoices.list(ownerId, { page: 1, limit: 20, has_attachments: true });
    expect(listed.invoices).toHaveLength(5);
    for (const invoice of listed.invoices) {
      expect(invoice.forwarded_to?.map((f) => [f.recipient, f.status])).toEqual(
        [...RECIPIENTS].sort().map((r) => [r, 'sent']),
      );
    }
  });
});
