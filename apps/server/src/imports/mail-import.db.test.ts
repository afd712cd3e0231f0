import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { writeZip, zipBombEntry } from '../../test/hostile/bytes';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { LocalBlobStore } from '../invoices/blob.store';
import { IngestService } from '../invoices/ingest.service';
import { PgBlobStore } from '../invoices/pg-blob.store';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { mailImportRoutes } from './mail-import.routes';
import { MailImportService } from './mail-import.service';

const t = useTestDatabase();

function mbox(count: number, offset = 0): Buffer {
  const parts: Buffer[] = [];
  for (let i = offset; i < offset + count; i++) {
    parts.push(Buffer.from(`From sender${i}@vendor.example Mon Jan  1 00:00:00 2024\n`));
    parts.push(
      buildMail({
        from: `Vendor ${i} <billing@vendor${i}.example>`,
        subject: `Invoice ${i}`,
        messageId: `<upload-${i}@example.com>`,
        attachments: [{ filename: `invoice-${i}.pdf`, content: Buffer.from(`%PDF-1.4 invoice ${i}`) }],
      }),
    );
    parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

describe('mail upload and import', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let imports: MailImportService;
  let dataDir: string;
  let token = '';
  let ownerId = '';
  const enqueued: Array<{ upload_id: string; account_email?: string }> = [];

  beforeAll(async () => {
    const { db } = t().database;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-import-'));
    const accounts = new AccountsService(new AccountsRepository(db));
    const ingest = new IngestService(db, new LocalBlobStore(path.join(dataDir, 'blobs')), {
      extract: async () => null,
    });
    // Uploads in the database's document store: the request and the job may run on different machines.
    imports = new MailImportService(
      db,
      new PgBlobStore(db, 'uploads'),
      dataDir,
      64 * 1024,
      new UsersService(new UsersRepository(db)),
      accounts,
      ingest,
    );
    // The starter's enqueue is recorded; the job's work is `imports.run`, called below as the worker would.
    const queue = {
      enqueue: async (_owner: string, _name: string, payload: { upload_id: string }) => {
        enqueued.push(payload);
        return '00000000-0000-4000-8000-000000000002';
      },
    } as unknown as JobQueue<AppJobRegistry>;
    harness = await buildAuthTestApp(db, { routes: [mailImportRoutes(imports, queue)] });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const upload = (body: Buffer, query = '', type = 'application/mbox') =>
    harness.app.inject({
      method: 'POST',
      url: `/api/v1/imports/mail${query}`,
      headers: { ...bearer(token), 'content-type': type },
      payload: body,
    });
  /** The uploads still waiting, by id, and whether the store still holds bytes no upload row refers to. */
  const uploadsLeft = async () => {
    const { rows } = await t().database.pool.query<{ id: string }>(
      'select id from mail_uploads where owner_id = $1 order by created_at',
      [ownerId],
    );
    return rows.map((r) => r.id);
  };
  const orphanBlobs = async () =>
    (
      await t().database.pool.query(
        `select count(*)::int as n from document_blobs
           where namespace = 'uploads' and sha256 not in (select blob_key from mail_uploads)`,
      )
    ).rows[0].n as number;

  it('stores the upload under a name of its own and starts an import job that reads it', async () => {
    const response = await upload(mbox(3), '?account_email=takeout%40example.com');
    expect(response.statusCode).toBe(200);
    expect(response.json().job_id).toBeTruthy();
    const job = enqueued.at(-1)!;
    expect(job).toEqual({ upload_id: expect.stringMatching(/^[0-9a-f-]{36}$/), account_email: 'takeout@example.com' });
    expect(await uploadsLeft()).toEqual([job.upload_id]);

    const result = await imports.run(ownerId, job.upload_id, job.account_email);
    expect(result).toEqual({ account: 'takeout@example.com', read: 3, added: 3, invoices: 3, unreadable: 0 });
    expect(await uploadsLeft()).toEqual([]);
    expect(await orphanBlobs()).toBe(0);
    const { rows } = await t().database.pool.query('select count(*)::int as n from invoices where owner_id = $1', [
      ownerId,
    ]);
    expect(rows[0].n).toBe(3);
  });

  it('records nothing twice when an overlapping export is uploaded again', async () => {
    await upload(mbox(4));
    const again = await imports.run(ownerId, enqueued.at(-1)!.upload_id, 'takeout@example.com');
    expect(again).toMatchObject({ read: 4, added: 1, invoices: 1 });
  });

  it('refuses a file over the limit or an empty one, and keeps nothing of it', async () => {
    const big = await upload(Buffer.alloc(65 * 1024, 'a'));
    expect(big.statusCode).toBe(413);
    const empty = await upload(Buffer.alloc(0), '', 'application/octet-stream');
    expect(empty.statusCode).toBe(400);
    const json = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/imports/mail',
      headers: bearer(token),
      payload: { path: '/etc/passwd' },
    });
    expect(json.statusCode).toBe(415);
    expect(await uploadsLeft()).toEqual([]);
    expect(await orphanBlobs()).toBe(0);
  });

  it('never reads another person’s upload or a made-up one', async () => {
    await expect(imports.run(ownerId, '00000000-0000-4000-8000-000000000000', undefined)).rejects.toThrow(
      'The uploaded file is gone',
    );
    await expect(imports.run(ownerId, '../../etc/passwd', undefined)).rejects.toThrow('No such upload');
  });

  it('accepts one .eml file as well', async () => {
    const eml = buildMail({
      from: 'Single <one@single.example>',
      subject: 'Invoice single',
      messageId: '<single@example.com>',
      attachments: [{ filename: 'single.pdf', content: Buffer.from('%PDF-1.4 single') }],
    });
    await upload(eml, '', 'message/rfc822');
    const result = await imports.run(ownerId, enqueued.at(-1)!.upload_id, undefined);
    expect(result).toMatchObject({ account: 'me@example.com', read: 1, added: 1, invoices: 1 });
  });

  it('sweeps uploads that no job read for a week, and only those', async () => {
    await upload(mbox(1, 50));
    const kept = enqueued.at(-1)!.upload_id;
    await upload(mbox(1, 60));
    const stale = enqueued.at(-1)!.upload_id;
    await t().database.pool.query("update mail_uploads set created_at = now() - interval '8 days' where id = $1", [
      stale,
    ]);
    expect(await imports.sweep()).toBe(1);
    expect(await uploadsLeft()).toEqual([kept]);
    expect(await orphanBlobs()).toBe(0);
  });

  it('reads the mail files of a Google Takeout ZIP, and refuses what is not mail at the upload', async () => {
    const zip = new ZipArchive();
    const parts: Buffer[] = [];
    zip.on('data', (chunk: Buffer) => parts.push(chunk));
    const done = new Promise((resolve) => zip.on('end', resolve));
    zip.append(mbox(2, 100), { name: 'Takeout/Mail/All mail Including Spam and Trash.mbox' });
    zip.append('<html>archive_browser</html>', { name: 'Takeout/archive_browser.html' });
    await zip.finalize();
    await done;
    const response = await upload(Buffer.concat(parts), '', 'application/octet-stream');
    expect(response.statusCode).toBe(200);
    const result = await imports.run(ownerId, enqueued.at(-1)!.upload_id, 'takeout@example.com');
    expect(result).toMatchObject({ read: 2, added: 2, invoices: 2, unreadable: 0 });
    expect(await uploadsLeft()).not.toContain(enqueued.at(-1)!.upload_id);

    const pdf = await upload(Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj'), '', 'application/octet-stream');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().error).toBe('This is not a mail file: upload an mbox, an .eml file or a Google Takeout .zip');
  });

  it('reads the mail entries of a ZIP whatever the other entries are named, and never follows links', async () => {
    const entry = (tag: number) => mbox(1, tag);
    const zip = writeZip([
      { name: '../../../../tmp/invoicebox-escape.mbox', data: entry(200) },
      { name: '/tmp/invoicebox-absolute.mbox', data: entry(201) },
      { name: 'Takeout/Mail/link.mbox', symlinkTo: '/etc/passwd' },
      { name: Buffer.from('Takeout/Mail/\xff\xfe.mbox', 'latin1'), data: entry(202) },
    ]);
    const response = await upload(zip, '', 'application/zip');
    expect(response.statusCode).toBe(200);
    const result = await imports.run(ownerId, enqueued.at(-1)!.upload_id, 'takeout@example.com');
    expect(result).toMatchObject({ read: 3, added: 3, unreadable: 0 });
    await expect(fs.stat('/tmp/invoicebox-escape.mbox')).rejects.toThrow();
    await expect(fs.stat('/tmp/invoicebox-absolute.mbox')).rejects.toThrow();
  });

  it('refuses a ZIP bomb and a damaged ZIP for good, with a clear message', async () => {
    // A service with a large upload limit: the bomb is stopped by its ratio, not by that limit.
    const { db } = t().database;
    const roomy = new MailImportService(
      db,
      new PgBlobStore(db, 'uploads'),
      dataDir,
      1024 * 1024 * 1024,
      new UsersService(new UsersRepository(db)),
      new AccountsService(new AccountsRepository(db)),
      new IngestService(db, new LocalBlobStore(path.join(dataDir, 'blobs')), { extract: async () => null }),
    );
    const bomb = writeZip([{ name: 'Takeout/Mail/All mail.mbox', raw: zipBombEntry(300 * 1024 * 1024) }]);
    const id = await roomy.receive(ownerId, Readable.from([bomb]));
    const error = await roomy.run(ownerId, id, undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({
      message: 'The ZIP unpacks to more than 256 MB of mail (a ZIP bomb, or not a mail export)',
      retryable: false,
    });
    const broken = writeZip([{ name: 'Takeout/Mail/a.mbox', data: mbox(1, 300) }]).subarray(0, 120);
    const brokenId = await roomy.receive(ownerId, Readable.from([broken]));
    const damaged = await roomy.run(ownerId, brokenId, undefined).catch((e: unknown) => e);
    expect(damaged).toMatchObject({ retryable: false, message: expect.stringMatching(/^The ZIP is damaged/) });
  });
});
