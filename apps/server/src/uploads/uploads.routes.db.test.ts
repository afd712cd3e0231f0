import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { UploadResponse } from '@invoicebox/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUpThroughApi, TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { hostileCorpus, hostileSample, prepareCorpus } from '../../test/hostile/corpus';
import { isClearMessage } from '../../test/hostile/harness';
import { buildMail, mailDatasets } from '../../test/mail/mail-builder';
import { multipartBody } from '../../test/multipart';
import { loadConfig } from '../config';
import { buildApp } from '../http/app';
import { invoices } from '../invoices/invoices.tables';
import { createLogger } from '../logger';
import { createRuntime, type Runtime } from '../runtime';

const t = useTestDatabase();
const pdfs = path.resolve(mailDatasets, '../invoices-pdf');
/** A receipt photo saved as HEIC (made with ImageMagick's libheif encoder; see test/fixtures/README.md). */
const heicFixture = fileURLToPath(new URL('../../test/fixtures/receipt.heic', import.meta.url));

/** `POST /invoices/upload` on the real runtime: documents read in the document sandbox, stored by the mail ingest. */
describe('POST /invoices/upload', () => {
  let runtime: Runtime;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let token = '';
  let ownerId = '';
  let azure: Buffer;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-upload-'));
    const config = loadConfig({
      DATABASE_URL: t().url,
      INVOICEBOX_DATA_DIR: dataDir,
      INVOICEBOX_SECRET: TEST_SECRET,
      INVOICEBOX_WORKERS: 'false',
      DOCUMENT_MAX_MB: '1',
      UPLOAD_MAX_FILES: '12',
    });
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    runtime = await createRuntime(config, logger);
    app = await buildApp({
      config,
      logger,
      health: runtime.health,
      jobs: runtime.jobs,
      authenticate: runtime.authenticate,
      auth: runtime.auth,
      routes: runtime.routes,
    });
    const session = await signUpThroughApi(app, 'owner@example.com', 'correct horse battery staple');
    token = session.token;
    ownerId = session.userId;
    azure = await fs.readFile(path.join(pdfs, 'AzureInterior.pdf'));
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const upload = async (files: Parameters<typeof multipartBody>[0]) => {
    const body = multipartBody(files);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/invoices/upload',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    return { status: res.statusCode, body: res.json() as UploadResponse };
  };

  it('adds several files at once, each with its own result, and a bad one does not stop the rest', async () => {
    const mail = buildMail({
      from: 'Acme Billing <billing@acme.example>',
      subject: 'Your invoice 77',
      messageId: '<upload-eml-77@example.com>',
      attachments: [{ filename: 'invoice-77.pdf', content: Buffer.from('%PDF-1.4 acme invoice 77 unreadable') }],
    });
    const { status, body } = await upload([
      { name: 'AzureInterior.pdf', content: azure, type: 'application/pdf' },
      { name: 'copy of azure.pdf', content: azure, type: 'application/pdf' },
      { name: 'notes.txt', content: Buffer.from('just some notes, no invoice'), type: 'text/plain' },
      { name: 'huge.pdf', content: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1_200_000, 32)]) },
      { name: 'empty.pdf', content: Buffer.alloc(0) },
      { name: 'IMG_0001.HEIC', content: await fs.readFile(heicFixture) },
      { name: 'broken.heic', content: Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic', 'latin1') },
      { name: 'photo.avif', content: Buffer.from('\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf', 'latin1') },
      { name: 'forwarded.eml', content: mail, type: 'message/rfc822' },
      { name: '../../../etc/broken.pdf', content: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog') },
    ]);
    expect(status).toBe(200);
    expect(body.files.map((f) => [f.name, f.status, f.code])).toEqual([
      ['AzureInterior.pdf', 'added', null],
      ['copy of azure.pdf', 'duplicate', null],
      ['notes.txt', 'failed', 'not_a_document'],
      ['huge.pdf', 'failed', 'too_large'],
      ['empty.pdf', 'failed', 'empty'],
      ['IMG_0001.HEIC', 'added', null],
      ['broken.heic', 'unreadable', 'unreadable'],
      ['photo.avif', 'failed', 'unsupported_format'],
      ['forwarded.eml', 'unreadable', 'unreadable'],
      ['broken.pdf', 'unreadable', 'unreadable'],
    ]);
    expect(body.files[3]!.message).toBe('The file is larger than 1 MB');
    expect(body.files[2]!.message).toMatch(/not a document/);
    expect(body.files[6]!.message).toMatch(/The HEIC photo cannot be read/);
    expect(body.files[7]!.message).toMatch(/AVIF images cannot be read/);
    const azureSha = createHash('sha256').update(azure).digest('hex');
    expect(body.files[0]).toMatchObject({ sha256: azureSha, invoice_id: expect.any(String) });

    // Read in the sandbox for real: the invoice's fields come from the PDF.
    const { db } = t().database;
    const [row] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.dedupeKey, azureSha)));
    expect(row!.id).toBe(body.files[0]!.invoice_id);
    expect(row!.amountMinor).not.toBeNull();
    expect(row!.accountIds).toEqual([body.account_id]);
    // A phone photo in HEIC, decoded and read by OCR in the sandbox.
    const [photo] = await db.select().from(invoices).where(eq(invoices.id, body.files[5]!.invoice_id!));
    expect(photo).toMatchObject({ invoiceNumber: 'INV-2024-0042', amountMinor: 24990, currency: 'EUR' });

    // The Uploads source: a source of the scope (the current one, being the only one), never the primary.
    const accounts = (await app.inject({ url: '/api/v1/gmail/accounts', headers: bearer(token) })).json() as {
      accounts: Array<{ userId: string; provider: string; displayName: string; isPrimary: boolean }>;
    };
    expect(accounts.accounts).toEqual([
      expect.objectContaining({
        userId: body.account_id,
        provider: 'upload',
        displayName: 'Uploads',
        isPrimary: false,
      }),
    ]);
    const listed = (await app.inject({ url: '/api/v1/invoices?limit=50', headers: bearer(token) })).json() as {
      invoices: Array<{ id: string }>;
    };
    expect(listed.invoices.map((i) => i.id)).toContain(body.files[0]!.invoice_id);

    // The job history has the upload, and the drive filing of the Uploads source is queued.
    const jobs = (await app.inject({ url: '/api/v1/jobs', headers: bearer(token) })).json() as {
      jobs: Array<{ id: string; type: string; status: string; message: string }>;
    };
    expect(jobs.jobs.find((j) => j.id === body.job_id)).toMatchObject({
      type: 'document_upload',
      status: 'completed',
      message: expect.stringContaining('10 file(s) uploaded: 2 added, 1 already there, 3 unreadable, 4 refused'),
    });
    expect(jobs.jobs.some((j) => j.type === 'drive_upload')).toBe(true);
  });

  it('the same file again, whichever way it came, is the same document', async () => {
    const again = await upload([{ name: 'renamed.pdf', content: azure }]);
    expect(again.body.files[0]).toMatchObject({ status: 'duplicate', message: expect.stringMatching(/Already/) });
    const azureSha = createHash('sha256').update(azure).digest('hex');
    // The same PDF from a mailbox: linked to the existing invoice, not a second one.
    const mailbox = await runtime.accounts.connect(ownerId, { provider: 'imap', email: 'me@mail.example' });
    async function* oneMail() {
      yield {
        ok: true as const,
        origin: 'INBOX:1:1',
        source: buildMail({
          from: 'Azure Interior <billing@azure.example>',
          subject: 'Invoice',
          messageId: '<azure-1@example.com>',
          attachments: [{ filename: 'invoice.pdf', content: azure }],
        }),
      };
    }
    await runtime.ingest.ingest(ownerId, mailbox.userId, oneMail());
    const { db } = t().database;
    const rows = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.dedupeKey, azureSha)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(again.body.files[0]!.invoice_id);
    expect(new Set(rows[0]!.accountIds)).toEqual(new Set([again.body.account_id, mailbox.userId]));
    // A mailbox connected after the Uploads source becomes the primary (and the account looked at).
    const list = await runtime.accounts.list(ownerId);
    expect(list.session.primaryUserId).toBe(mailbox.userId);
    expect(list.session.activeUserId).toBe(mailbox.userId);
  });

  it('with the preference off, an .eml that is only an HTML receipt is added as an invoice with its body as document', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/api/v1/settings/preferences',
      headers: bearer(token),
      payload: { attachments_required: false },
    });
    expect(put.statusCode).toBe(200);
    const receipt = Buffer.from(
      [
        'From: Rides <receipts@rides.example>',
        'To: owner@example.com',
        'Subject: Your trip receipt',
        'Date: Tue, 04 Mar 2025 21:14:00 +0000',
        'Message-ID: <upload-trip-1@rides.example>',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<html><body><p>Thanks for riding</p><table><tr><td>Total</td><td>EUR 14.20</td></tr></table></body></html>',
        '',
      ].join('\r\n'),
    );
    try {
      const { body } = await upload([{ name: 'trip.eml', content: receipt, type: 'message/rfc822' }]);
      expect(body.files[0]).toMatchObject({ status: 'added', invoice_id: expect.any(String) });
      const [invoice] = await t()
        .database.db.select()
        .from(invoices)
        .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, body.files[0]!.invoice_id!)));
      expect(invoice).toMatchObject({
        dedupeKey: 'message:<upload-trip-1@rides.example>',
        amountMinor: 1420,
        currency: 'EUR',
        hasAttachments: false,
      });
      const { rows } = await t().database.pool.query(
        'select filename, content_type, qualifies from message_attachments where message_row_id = $1',
        [invoice!.messageRowId],
      );
      expect(rows).toEqual([{ filename: 'Your trip receipt.html', content_type: 'text/html', qualifies: true }]);
    } finally {
      await app.inject({
        method: 'PUT',
        url: '/api/v1/settings/preferences',
        headers: bearer(token),
        payload: { attachments_required: true },
      });
    }
  });

  it('takes hostile documents one by one: each gets its error, the valid ones around them are stored', async () => {
    await prepareCorpus();
    const documents = hostileCorpus().filter((i) => i.channel === 'document');
    const sample = hostileSample(
      documents,
      [
        'pdf/valid-control',
        'pdf/nesting-arrays',
        'pdf/bomb-double-flate',
        'pdf/loop-pages-kids-self',
        'image/valid-png-control',
        'image/png-header-30000',
        'xml/billion-laughs',
      ],
      1,
    ).slice(0, 11);
    const { status, body } = await upload(sample.map((i) => ({ name: i.filename, content: i.bytes() })));
    expect(status).toBe(200);
    expect(body.files).toHaveLength(sample.length);
    for (const [index, item] of sample.entries()) {
      const result = body.files[index]!;
      if (item.id.endsWith('valid-control')) {
        expect(result.status, item.id).toMatch(/^(added|duplicate)$/);
      } else if (result.status !== 'added' && result.status !== 'duplicate') {
        expect(isClearMessage(result.message), `${item.id}: ${result.message}`).toBe(true);
      }
    }
    // The server is still up and answers.
    expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
  }, 240_000);

  it('refuses a body that is not multipart, and more files than the limit', async () => {
    const json = await app.inject({
      method: 'POST',
      url: '/api/v1/invoices/upload',
      headers: bearer(token),
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.paths['/api/v1/invoices/upload']?.post).toBeDefined();
    const many = await upload(
      Array.from({ length: 13 }, (_, i) => ({ name: `n${i}.pdf`, content: Buffer.from(`%PDF-1.4 ${i}`) })),
    );
    expect(many.status).toBe(413);
  });
});
