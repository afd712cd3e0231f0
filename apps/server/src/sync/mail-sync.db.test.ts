import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession, TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import { buildMail } from '../../test/mail/mail-builder';
import { waitFor } from '../../test/wait-for';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createRuntime, type Runtime } from '../runtime';

const t = useTestDatabase();

/** The mail sync job end to end: a real Dovecot mailbox, the real runtime and queue, the invoice store. */
describe('mail sync of an IMAP account', () => {
  let dovecot: TestDovecot;
  let runtime: Runtime;
  let dataDir: string;
  let ownerId: string;
  let accountId: string;

  async function append(from: number, count: number) {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      auth: { user: 'sam', pass: 'pw' },
      logger: false,
      doSTARTTLS: false,
    });
    await client.connect();
    for (let i = from; i < from + count; i++) {
      await client.append(
        'INBOX',
        buildMail({
          from: `Supplier ${i % 4} <billing@supplier${i % 4}.example>`,
          subject: i % 2 === 0 ? `Invoice ${i}` : `Hello ${i}`,
          messageId: `<sync-${i}@example.com>`,
          attachments: i % 2 === 0 ? [{ filename: `invoice-${i}.pdf`, content: Buffer.from(`%PDF-1.4 doc ${i}`) }] : [],
        }),
      );
    }
    await client.logout();
  }

  beforeAll(async () => {
    dovecot = await startDovecot({ sam: 'pw' });
    await append(0, 20);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-sync-'));
    runtime = await createRuntime(
      loadConfig({
        DATABASE_URL: t().url,
        INVOICEBOX_DATA_DIR: dataDir,
        INVOICEBOX_SECRET: TEST_SECRET,
        // The test's Dovecot is on loopback.
        ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
        JOB_LEASE_SECONDS: '5',
      }),
      createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
    );
    await runtime.startWorkers(1);
    const session = ownerSession(
      await runtime.auth.local.signUp({ email: 'sam@example.com', password: 'a long password' }, {}),
    );
    ownerId = session.user.id;
    const account = await runtime.imapAccounts.connect(ownerId, {
      email: 'sam@example.com',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'sam',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    accountId = account.userId;
  });
  afterAll(async () => {
    await runtime?.close();
    await dovecot?.dispose();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const invoicesNow = async () =>
    (await runtime.invoices.list(ownerId, { page: 1, limit: 200, has_attachments: true })).total;

  it('a gmail_sync job stores the mailbox, and the next one only what is new', async () => {
    const jobId = await runtime.queue.enqueue(ownerId, 'gmail_sync', {});
    const job = await waitFor(async () => {
      const j = await runtime.jobs.get(ownerId, jobId);
      return j.status === 'completed' || j.status === 'failed' ? j : undefined;
    });
    expect(job.status).toBe('completed');
    expect(job.message).toMatch(/20 new message\(s\), 10 new invoice\(s\)/);
    expect(await invoicesNow()).toBe(10);
    const list = await runtime.accounts.list(ownerId);
    expect(list.accounts[0]!.lastSync).not.toBeNull();

    await append(20, 4);
    const results = await runtime.mailSync.sync(ownerId, undefined);
    expect(results[0]).toMatchObject({ ok: true, messages: 4, invoices: 2 });
    expect(await invoicesNow()).toBe(12);
  });

  it('a sync stopped part-way resumes from its cursor with nothing lost or doubled', async () => {
    await append(24, 10);
    const ac = new AbortController();
    let seen = 0;
    const stopped = runtime.mailSync
      .sync(ownerId, [accountId], {
        signal: ac.signal,
        progress: async () => {},
      })
      .catch((e) => e);
    // Abort as soon as some messages of the new batch are stored.
    await waitFor(async () => {
      seen = (await runtime.invoices.list(ownerId, { page: 1, limit: 200, has_attachments: true })).total;
      return seen > 12 ? true : undefined;
    }).catch(() => undefined);
    ac.abort();
    await stopped;
    await runtime.mailSync.sync(ownerId, [accountId]);
    expect(await invoicesNow()).toBe(17);
    const again = await runtime.mailSync.sync(ownerId, [accountId]);
    expect(again[0]).toMatchObject({ ok: true, messages: 0, invoices: 0 });
  });

  it('reports an unreachable server as each account’s own result, never crashing the sync', async () => {
    await runtime.imapAccounts.connect(ownerId, {
      email: 'second@example.com',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'sam',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    await dovecot.stop();
    await runtime.accounts.updateScope(ownerId, 'all', []);
    const results = await runtime.mailSync.sync(ownerId, undefined);
    expect(results).toHaveLength(2);
    expect(results.every((r) => !r.ok && /could not be reached/.test(r.message))).toBe(true);
    await dovecot.start();
  });
});
