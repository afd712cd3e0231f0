import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
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

/**
 * The full_sync and drive_upload jobs end to end on the real runtime and queue: a Dovecot mailbox is synced, then
 * filed in the embedded default drive (`<data>/drive/Invoices/YYYY/MM`); a second run files nothing new.
 */
describe('full_sync and drive_upload jobs', () => {
  let runtime: Runtime;
  let dovecot: TestDovecot;
  let dataDir: string;
  let ownerId = '';

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-fullsync-'));
    dovecot = await startDovecot({ fay: 'pw' });
    await dovecot.deliver(
      'fay',
      ['2025-01-14', '2025-02-14', '2025-03-02'].map((date, i) =>
        buildMail({
          from: 'Hosting Co <billing@hosting.example>',
          subject: `Invoice H-${i + 1}`,
          messageId: `<fay-${i}@example.com>`,
          date: `${new Date(`${date}T09:00:00Z`).toUTCString()}`,
          attachments: [{ filename: `invoice-H-${i + 1}.pdf`, content: Buffer.from(`%PDF-1.4 hosting ${i + 1}`) }],
        }),
      ),
    );
    runtime = await createRuntime(
      loadConfig({
        DATABASE_URL: t().url,
        INVOICEBOX_DATA_DIR: dataDir,
        INVOICEBOX_SECRET: TEST_SECRET,
        // The test's Dovecot is on loopback.
        ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
        JOB_LEASE_SECONDS: '10',
      }),
      createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
    );
    const owner = ownerSession(
      await runtime.auth.local.signUp({ email: 'fay@example.com', password: 'a long password' }, {}),
    );
    ownerId = owner.user.id;
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
    await dovecot?.dispose();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const finished = (id: string) =>
    waitFor(async () => {
      const job = await runtime.jobs.get(ownerId, id);
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    });

  it('syncs the mailbox, then files every invoice by its mail date in the local drive', async () => {
    const job = await finished(await runtime.queue.enqueue(ownerId, 'full_sync', { initial_setup: true }));
    expect(job.status).toBe('completed');
    expect(job.progress).toBe(100);
    expect(job.message).toMatch(/fay@mail\.test: 3 new message\(s\), 3 new invoice\(s\)\. Drive: 3 file\(s\) uploaded/);
    const root = path.join(dataDir, 'drive', 'Invoices', '2025');
    const filed = (await fs.readdir(root, { recursive: true }))
      .map(String)
      .filter((f) => f.endsWith('.pdf'))
      .sort();
    expect(filed).toHaveLength(3);
    expect(filed.map((f) => f.split(path.sep)[0])).toEqual(['01', '02', '03']);
    const list = await runtime.invoices.list(ownerId, { page: 1, limit: 10, has_attachments: true });
    expect(list.invoices.map((i) => i.status)).toEqual(['uploaded', 'uploaded', 'uploaded']);
    expect(list.invoices.every((i) => i.frequency === 'Monthly')).toBe(true);
  });

  it('a drive_upload afterwards finds everything already filed', async () => {
    const job = await finished(await runtime.queue.enqueue(ownerId, 'drive_upload', {}));
    expect(job).toMatchObject({ status: 'completed' });
    expect(job.message).toMatch(/^Every invoice is already in .*drive$/);
  });
});
