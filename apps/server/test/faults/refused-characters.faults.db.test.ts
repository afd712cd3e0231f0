import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { buildApp } from '../../src/http/app';
import { createLogger } from '../../src/logger';
import { createRuntime, type Runtime } from '../../src/runtime';
import { bearer, TEST_SECRET } from '../auth-app';
import { useTestDatabase } from '../db';
import { startDovecot, type TestDovecot } from '../dovecot';
import { waitFor } from '../wait-for';
import { refusedCharactersMail } from './refused-characters-mail';

const t = useTestDatabase();

/**
 * Mail carrying NUL and lone surrogates in every header and file name, uploaded by a signed-in person and synced
 * from a mailbox, through the real runtime and queue: stored cleaned, shown cleaned, the jobs complete, nothing
 * crashes. It used to fail the attachment insert, then the storing of the job's error, and end the process.
 */
describe('mail with characters PostgreSQL refuses', () => {
  let runtime: Runtime;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dovecot: TestDovecot;
  let dataDir: string;
  let token: string;
  let ownerId: string;

  beforeAll(async () => {
    dovecot = await startDovecot({ sam: 'pw' });
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-refused-'));
    const config = loadConfig({
      DATABASE_URL: t().url,
      INVOICEBOX_DATA_DIR: dataDir,
      INVOICEBOX_SECRET: TEST_SECRET,
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true', // the test's Dovecot is on loopback
      JOB_LEASE_SECONDS: '5',
    });
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    runtime = await createRuntime(config, logger);
    await runtime.startWorkers(1);
    app = await buildApp({
      config,
      logger,
      health: runtime.health,
      jobs: runtime.jobs,
      authenticate: runtime.authenticate,
      auth: runtime.auth,
      routes: runtime.routes,
    });
    const signup = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'sam@example.com', password: 'correct horse battery' },
    });
    token = signup.json().token;
    ownerId = signup.json().user.id;
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await dovecot?.dispose();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const finished = (jobId: string) =>
    waitFor(async () => {
      const job = await runtime.jobs.get(ownerId, jobId);
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    });

  async function expectStoredClean(email: string, count: number) {
    const { rows } = await t().database.pool.query<{ subject: string; sender_name: string; filenames: string[] }>(
      `select m.subject, m.sender_name, array_agg(a.filename order by a.position) as filenames
         from mail_messages m join mail_accounts ac on ac.id = m.account_id
         join message_attachments a on a.message_row_id = m.id
        where m.owner_id = $1 and ac.email = $2 group by m.id order by m.subject`,
      [ownerId, email],
    );
    expect(rows).toHaveLength(count);
    for (const row of rows) {
      expect(row.subject).toMatch(/^Invoice \d+A\uFFFDB$/);
      expect(row.sender_name).toMatch(/^Evil Vendor \d+$/);
      expect(row.filenames).toEqual(['invoice.pdf', 'A\uFFFDB.pdf']);
    }
  }

  it('uploaded through the mail import: stored and shown cleaned, the job completes', async () => {
    const mbox = Buffer.concat(
      [1, 2, 3].flatMap((n) => [
        Buffer.from(`From x@vendor.example Mon Jan  1 00:00:00 2024\n`),
        refusedCharactersMail(n),
        Buffer.from('\n'),
      ]),
    );
    const upload = await app.inject({
      method: 'POST',
      url: '/api/v1/imports/mail',
      headers: { ...bearer(token), 'content-type': 'application/mbox' },
      payload: mbox,
    });
    expect(upload.statusCode).toBe(200);
    const job = await finished(upload.json().job_id);
    expect(job).toMatchObject({ status: 'completed' });
    expect(job.message).toMatch(/Imported 3 new message\(s\) of 3 .*: 3 new invoice\(s\)/);
    await expectStoredClean('sam@example.com', 3);

    const list = await app.inject({ url: '/api/v1/invoices?limit=50', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    const shown = JSON.stringify(list.json());
    expect(shown).toContain('Evil Vendor');
    expect(shown).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i);
  });

  it('synced from a mailbox: stored cleaned, the sync completes', async () => {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      auth: { user: 'sam', pass: 'pw' },
      logger: false,
      doSTARTTLS: false,
    });
    await client.connect();
    for (const n of [11, 12]) await client.append('INBOX', refusedCharactersMail(n));
    await client.logout();
    const account = await runtime.imapAccounts.connect(ownerId, {
      email: 'synced@example.com',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'sam',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    const job = await finished(await runtime.queue.enqueue(ownerId, 'gmail_sync', { account_ids: [account.userId] }));
    expect(job).toMatchObject({ status: 'completed' });
    expect(job.message).toMatch(/2 new message\(s\), 2 new invoice\(s\)/);
    await expectStoredClean('synced@example.com', 2);
  });

  it('a job whose error quotes such text still records its failure', async () => {
    const failing = await runtime.queue.enqueue(ownerId, 'mail_import', {
      upload_id: '00000000-0000-4000-8000-000000000000',
    });
    const job = await finished(failing);
    expect(job.status).toBe('failed');
    // And a message with NUL and lone surrogates, far too long, is stored bounded and clean.
    const { JobsRepository } = await import('../../src/jobs/jobs.repository');
    const repository = new JobsRepository(t().database.db);
    await t().database.pool.query(`update jobs set status = 'running', worker_id = 'w' where id = $1`, [failing]);
    await repository.markFailed(failing, `bad \u0000 text \uD800 ${'x'.repeat(50_000)}`, 'w');
    const stored = await runtime.jobs.get(ownerId, failing);
    expect(stored.error).toMatch(/^bad {2}text \uFFFD x+…$/);
    expect(stored.error!.length).toBeLessThanOrEqual(2000);
  });
});
