import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DriveStatusResponseSchema } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { startWebDav } from '../../test/webdav-server';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { openDatabase } from '../db/client';
import { LocalBlobStore } from '../invoices/blob.store';
import { IngestService } from '../invoices/ingest.service';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';
import { driveRoutes } from './drive.routes';
import { type DriveFactory, DriveService, LOCAL_DRIVE_SHARED_WARNING } from './drive.service';
import { LocalDriveStore } from './local.drive';
import { WebDavDriveStore } from './webdav.drive';

const t = useTestDatabase();

const localFactory: DriveFactory = (target) => {
  if (target.kind !== 'local') throw new Error('only the local folder here');
  return new LocalDriveStore(target.root);
};

const MAILS = [
  { from: 'Acme GmbH <billing@acme.example>', date: '2024-01-05', number: 'A-1', files: ['invoice.pdf'] },
  {
    from: 'Acme GmbH <billing@acme.example>',
    date: '2024-02-05',
    number: 'A-2',
    files: ['invoice.pdf', 'receipt.pdf'],
  },
  { from: 'Evil <x@evil.example>', date: '2024-02-09', number: '../../../etc/passwd', files: ['..\\..\\boot.ini.pdf'] },
  { from: 'Shop <shop@shop.example>', date: null, number: null, files: ['receipt.pdf'] },
];

/** Every file under a folder, as paths relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe('drive upload (local folder and WebDAV)', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let drive: DriveService;
  let dataDir: string;
  let blobs: LocalBlobStore;
  let ownerId = '';
  let token = '';
  const enqueued: Array<{ name: string; payload: unknown }> = [];

  beforeAll(async () => {
    const { db } = t().database;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-drive-'));
    blobs = new LocalBlobStore(path.join(dataDir, 'blobs'));
    const accounts = new AccountsService(new AccountsRepository(db));
    const factory: DriveFactory = (target) => {
      if (target.kind === 'local') return localFactory(target);
      if (target.kind === 'webdav') {
        return new WebDavDriveStore({
          url: target.url,
          username: target.username,
          password: target.password,
          backoffMs: 5,
          // The test server is on loopback.
          outbound: { allowPrivate: true },
        });
      }
      throw new Error('Google Drive is tested in google.drive.test.ts');
    };
    // Only the enqueue of the starter is used here; the job itself is the service call below.
    const queue = {
      enqueue: async (_owner: string, name: string, payload: unknown) => {
        enqueued.push({ name, payload });
        return '00000000-0000-4000-8000-000000000001';
      },
    } as unknown as JobQueue<AppJobRegistry>;
    harness = await buildAuthTestApp(db, { routes: [] });
    drive = new DriveService(db, accounts, blobs, harness.auth.box, dataDir, factory);
    await harness.app.close();
    harness = await buildAuthTestApp(db, {
      routes: [driveRoutes(drive, queue, accounts)],
      auth: { allowSignup: true },
    });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
    const account = await accounts.connect(ownerId, { provider: 'mbox', email: 'me@example.com' });
    const byContent = new Map<string, (typeof MAILS)[number]>();
    const ingest = new IngestService(db, blobs, {
      extract: async ({ bytes }) => {
        const mail = byContent.get(Buffer.from(bytes).toString())!;
        return { vendor: null, amount: 10, currency: 'EUR', invoice_date: mail.date, invoice_number: mail.number };
      },
    });
    async function* mails() {
      for (const [i, m] of MAILS.entries()) {
        const attachments = m.files.map((filename) => {
          const content = `%PDF-1.4 ${m.number} ${filename}`;
          byContent.set(content, m);
          return { filename, content: Buffer.from(content) };
        });
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({
            from: m.from,
            subject: `Invoice ${m.number ?? ''}`,
            messageId: `<m${i}@x>`,
            date: 'Sun, 24 Dec 2023 10:00:00 +0000',
            attachments,
          }),
        };
      }
    }
    await ingest.ingest(ownerId, account.userId, mails());
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const driveRoot = () => path.join(dataDir, 'drive');
  const statuses = async () =>
    (
      await t().database.pool.query(
        'select invoice_number, status, drive_file_id, drive_target, drive_error from invoices order by invoice_number',
      )
    ).rows;

  it('files every invoice in Invoices/YYYY/MM of the local folder, named by date, vendor and number', async () => {
    const first = await drive.upload(ownerId);
    expect(first).toMatchObject({ uploaded: 5, linked: 0, failed: 0, invoices: 4 });
    const files = await filesUnder(driveRoot());
    expect(files).toHaveLength(5);
    expect(files).toContain(path.join('Invoices', '2024', '01', '2024-01-05 Acme GmbH A-1.pdf'));
    expect(files).toContain(path.join('Invoices', '2024', '02', '2024-02-05 Acme GmbH A-2 receipt.pdf'));
    // No invoice date: the mail's date decides the folder.
    expect(files.filter((f) => f.startsWith(path.join('Invoices', '2023', '12')))).toHaveLength(1);
    // The hostile number and file name stay inside their month folder.
    const evil = files.filter((f) => f.startsWith(path.join('Invoices', '2024', '02')) && !f.includes('Acme'));
    expect(evil).toHaveLength(1);
    expect(evil[0]!.split(path.sep)).toHaveLength(4);
    for (const row of await statuses()) {
      expect(row).toMatchObject({ status: 'uploaded', drive_target: 'local', drive_error: null });
      expect(row.drive_file_id).toBeTruthy();
    }
    const bytes = await fs.readFile(path.join(driveRoot(), 'Invoices', '2024', '01', '2024-01-05 Acme GmbH A-1.pdf'));
    expect(bytes.toString()).toBe('%PDF-1.4 A-1 invoice.pdf');
  });

  it('uploads nothing on a second run', async () => {
    expect(await drive.upload(ownerId)).toMatchObject({ uploaded: 0, linked: 0, invoices: 0 });
    expect(await filesUnder(driveRoot())).toHaveLength(5);
  });

  it('links what the folder already has after the database forgot it (database wiped, folder kept)', async () => {
    await t().database.pool.query(`update invoices set status = 'pending', drive_file_id = null, drive_target = null`);
    const again = await drive.upload(ownerId);
    expect(again).toMatchObject({ uploaded: 0, linked: 5, failed: 0, invoices: 4 });
    expect(await filesUnder(driveRoot())).toHaveLength(5);
    expect((await statuses()).every((r) => r.status === 'uploaded')).toBe(true);
  });

  it('resumes a run that was stopped midway without a second copy of anything', async () => {
    await t().database.pool.query(`update invoices set status = 'pending', drive_file_id = null, drive_target = null`);
    await fs.rm(driveRoot(), { recursive: true });
    const controller = new AbortController();
    await expect(
      drive.upload(ownerId, {
        signal: controller.signal,
        progress: async (_percent, message) => {
          if (message.startsWith('Filed 1 ')) controller.abort();
        },
      }),
    ).rejects.toThrow();
    expect((await filesUnder(driveRoot())).length).toBeLessThan(5);
    const rest = await drive.upload(ownerId);
    expect(rest.invoices).toBe(3);
    expect(await filesUnder(driveRoot())).toHaveLength(5);
  });

  it('fails only the invoice whose document is gone from storage, with the reason', async () => {
    await t().database.pool.query(
      `update invoices set status = 'pending', drive_file_id = null where invoice_number = 'A-1'`,
    );
    await fs.rm(path.join(driveRoot(), 'Invoices', '2024', '01', '2024-01-05 Acme GmbH A-1.pdf'));
    const sha = createHash('sha256').update('%PDF-1.4 A-1 invoice.pdf').digest('hex');
    const kept = await fs.readFile(blobs.pathOf(sha));
    await fs.rm(blobs.pathOf(sha));
    const run = await drive.upload(ownerId);
    expect(run).toMatchObject({ failed: 1, invoices: 1 });
    const a1 = (await statuses()).find((r) => r.invoice_number === 'A-1');
    expect(a1).toMatchObject({ status: 'failed', drive_error: 'The file is missing from storage' });
    await blobs.put(sha, kept);
    expect(await drive.upload(ownerId)).toMatchObject({ uploaded: 1, failed: 0, invoices: 1 });
  });

  it('opens a filed invoice through a one-minute link; forged links and other people get nothing', async () => {
    const [row] = (await t().database.pool.query(`select id from invoices where invoice_number = 'A-1'`)).rows;
    const link = await harness.app.inject({
      method: 'POST',
      url: `/api/v1/invoices/${row.id}/drive-link`,
      headers: bearer(token),
    });
    expect(link.statusCode).toBe(200);
    const { url } = link.json() as { url: string };
    expect(url).toMatch(/^\/api\/v1\/drive\/open\?link=v1\./);
    const opened = await harness.app.inject({ url });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('application/pdf');
    expect(opened.headers['content-disposition']).toMatch(/^inline; filename="2024-01-05 Acme GmbH A-1.pdf"/);
    expect(opened.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect(opened.body).toBe('%PDF-1.4 A-1 invoice.pdf');
    const forged = await harness.app.inject({ url: `${url.slice(0, -4)}AAAA` });
    expect(forged.statusCode).toBe(404);
    // Opened once, the link is spent.
    const again = await harness.app.inject({ url });
    expect(again.statusCode).toBe(404);

    const other = await signUpThroughApi(harness.app, 'other@example.com', 'another long password');
    const theirs = await harness.app.inject({
      method: 'POST',
      url: `/api/v1/invoices/${row.id}/drive-link`,
      headers: bearer(other.token),
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('opens a link once even when it is opened at once several times, also through another API process', async () => {
    const [row] = (await t().database.pool.query(`select id from invoices where invoice_number = 'A-1'`)).rows;
    // A second API process: its own service and pool on the same database, with the same secret.
    const other = await openDatabase({ databaseUrl: t().url, dataDir: '/nonexistent', databasePoolSize: 4 });
    const accounts = new AccountsService(new AccountsRepository(other.db));
    const otherDrive = new DriveService(other.db, accounts, blobs, harness.auth.box, dataDir, localFactory);
    const queue = {} as JobQueue<AppJobRegistry>;
    const otherApp = await buildAuthTestApp(other.db, { routes: [driveRoutes(otherDrive, queue, accounts)] });
    try {
      for (let round = 0; round < 5; round++) {
        const link = await harness.app.inject({
          method: 'POST',
          url: `/api/v1/invoices/${row.id}/drive-link`,
          headers: bearer(token),
        });
        const { url } = link.json() as { url: string };
        const opens = await Promise.all(
          [harness.app, otherApp.app, harness.app, otherApp.app].map((app) => app.inject({ url })),
        );
        const statuses = opens.map((o) => o.statusCode).sort();
        expect(statuses).toEqual([200, 404, 404, 404]);
        expect(opens.find((o) => o.statusCode === 200)!.body).toBe('%PDF-1.4 A-1 invoice.pdf');
      }
    } finally {
      await otherApp.app.close();
      await other.close();
    }
  });

  it('keeps the link out of the log', async () => {
    const [row] = (await t().database.pool.query(`select id from invoices where invoice_number = 'A-1'`)).rows;
    const link = await harness.app.inject({
      method: 'POST',
      url: `/api/v1/invoices/${row.id}/drive-link`,
      headers: bearer(token),
    });
    const { url } = link.json() as { url: string };
    const secret = new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('link')!;
    harness.logLines.length = 0;
    expect((await harness.app.inject({ url })).statusCode).toBe(200);
    expect((await harness.app.inject({ url })).statusCode).toBe(404);
    const log = harness.logLines.join('\n');
    expect(log).toContain('/api/v1/drive/open?link=%5Bredacted%5D');
    for (const piece of [secret, encodeURIComponent(secret), secret.slice(0, 40), secret.slice(-40)]) {
      expect(log).not.toContain(piece);
    }
  });

  it('reports the drive, whether it answers, and counts per account', async () => {
    const status = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/sync/drive/status',
      headers: bearer(token),
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      drive: { kind: 'local', root: driveRoot(), reachable: true, error: null, warning: null },
      accounts: [{ email: 'me@example.com', is_primary: true, uploaded: 4, pending: 0, failed: 0 }],
      totals: { uploaded: 4, pending: 0, failed: 0 },
    });
  });

  it('limits drive checks per person: a session cannot make it a stream of requests to its drive', async () => {
    const { db } = t().database;
    const accounts = new AccountsService(new AccountsRepository(db));
    const queue = {} as JobQueue<AppJobRegistry>;
    // A connect limit of 1 a minute: three drive checks a minute.
    const limited = await buildAuthTestApp(db, {
      routes: [driveRoutes(drive, queue, accounts, { connectRateLimitPerMinute: 1 })],
      auth: { allowSignup: true },
    });
    try {
      const first = await signUpThroughApi(limited.app, 'checker-1@example.com');
      const second = await signUpThroughApi(limited.app, 'checker-2@example.com');
      const check = (who: string) =>
        limited.app.inject({ method: 'POST', url: '/api/v1/sync/drive/status', headers: bearer(who) });
      for (let i = 0; i < 3; i++) expect((await check(first.token)).statusCode).toBe(200);
      const refused = await check(first.token);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'Too many drive checks; try again in a minute' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another person's checks are their own.
      expect((await check(second.token)).statusCode).toBe(200);
    } finally {
      await limited.app.close();
    }
  });

  it('warns that a local folder is one machine’s when the database is shared by several machines', async () => {
    // The service as runtime.ts builds it with an external DATABASE_URL.
    const accounts = new AccountsService(new AccountsRepository(t().database.db));
    const shared = new DriveService(t().database.db, accounts, blobs, harness.auth.box, dataDir, localFactory, {
      sharedDatabase: true,
    });
    const status = await shared.status(ownerId);
    expect(status.drive).toMatchObject({ kind: 'local', reachable: true, error: null });
    expect(status.drive.warning).toBe(LOCAL_DRIVE_SHARED_WARNING);
    expect(status.drive.warning).toMatch(/^A folder on this machine: workers on other machines cannot write to it\./);
    // The response schema lets the warning through to the web app.
    expect(DriveStatusResponseSchema.parse(status).drive.warning).toBe(LOCAL_DRIVE_SHARED_WARNING);
  });

  it('starts a drive_upload job with only your accounts, and refuses a target account that is not yours', async () => {
    const started = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/sync/drive/upload',
      headers: bearer(token),
      payload: { user_ids: ['00000000-0000-4000-8000-00000000dead'] },
    });
    expect(started.statusCode).toBe(200);
    expect(enqueued.at(-1)).toEqual({ name: 'drive_upload', payload: { account_ids: [] } });
    const foreign = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/sync/drive/upload',
      headers: bearer(token),
      payload: { target_user_id: '00000000-0000-4000-8000-00000000dead' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  describe('on a WebDAV server (Apache mod_dav)', () => {
    let dav: Awaited<ReturnType<typeof startWebDav>>;
    beforeAll(async () => {
      dav = await startWebDav();
    });
    afterAll(async () => {
      await dav?.stop();
    });

    it('refuses a wrong password before saving it, then files everything there with the right one', async () => {
      const wrong = await harness.app.inject({
        method: 'PUT',
        url: '/api/v1/drive/connection',
        headers: bearer(token),
        payload: { kind: 'webdav', url: dav.url, username: dav.username, password: 'wrong' },
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().error).toMatch(/^Could not reach the drive/);
      const saved = await harness.app.inject({
        method: 'PUT',
        url: '/api/v1/drive/connection',
        headers: bearer(token),
        payload: { kind: 'webdav', url: dav.url, username: dav.username, password: dav.password },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({
        kind: 'webdav',
        root: dav.url,
        google_account: null,
        webdav: { url: dav.url, username: dav.username },
      });
      expect(saved.body).not.toContain(dav.password);
      const stored = (await t().database.pool.query('select webdav_password_encrypted from drive_connections')).rows;
      expect(stored[0].webdav_password_encrypted).not.toContain(dav.password);

      // The invoices are in the local folder, not in this drive: they are filed again, here.
      const run = await drive.upload(ownerId);
      expect(run).toMatchObject({ uploaded: 5, failed: 0, invoices: 4 });
      expect(await filesUnder(path.join(dav.dir, 'Invoices'))).toHaveLength(5);
      expect(await drive.upload(ownerId)).toMatchObject({ invoices: 0 });
      expect((await statuses()).every((r) => r.drive_target === `webdav:${dav.url}`)).toBe(true);
    });
  });
});
