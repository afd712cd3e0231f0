import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { users } from '../db/schema';
import { DriveService } from '../drive/drive.service';
import { LocalDriveStore } from '../drive/local.drive';
import type { FieldExtractInput } from '../mail/field-extractor';
import { LocalBlobStore } from './blob.store';
import { FieldsRefreshService } from './fields-refresh.service';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

/** A mail whose only part is its HTML body (a ride's receipt): no attachment at all. */
function htmlMail(subject: string, messageId: string, total: string): Buffer {
  return Buffer.from(
    [
      'From: Rides <receipts@rides.example>',
      'To: me@example.com',
      `Subject: =?utf-8?B?${Buffer.from(subject).toString('base64')}?=`,
      'Date: Tue, 04 Mar 2025 21:14:00 +0000',
      `Message-ID: ${messageId}`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<html><body><p>Thanks for riding</p><table><tr><td>Total</td><td>&euro;${total}</td></tr></table></body></html>`,
      '',
    ].join('\r\n'),
  );
}

const RECEIPT = htmlMail('Your Tuesday evening trip receipt', '<trip-1@rides.example>', '14.20');
const HOSTILE_SUBJECT = `../../etc/passwd\u0000${'x'.repeat(500)}`;
const HOSTILE = htmlMail(HOSTILE_SUBJECT, '<trip-2@rides.example>', '7.00');

async function* mails(...sources: Buffer[]) {
  for (const [i, source] of sources.entries()) yield { ok: true as const, origin: `trip-${i + 1}`, source };
}

/** Every file under a folder, as paths relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe('an invoice that exists only as an HTML mail body keeps the body as its document', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let dataDir: string;
  let blobs: LocalBlobStore;
  let drive: DriveService;
  let ingest: IngestService;
  let token = '';
  let ownerId = '';
  let accountA = '';
  let accountB = '';
  /** What the extractor was given, and the number it answers (a "newer rules" answer for the refresh). */
  const seen: Array<{ filename: string; mimeType: string | undefined; text: string }> = [];
  let numberPrefix = 'T';
  // Reads the total from the bytes it is given: the fields can only come from the body.
  const extractor = {
    extract: async ({ bytes, filename, mimeType }: FieldExtractInput) => {
      const text = Buffer.from(bytes).toString('utf8');
      seen.push({ filename, mimeType, text });
      const total = /<td>Total<\/td><td>&euro;([\d.]+)</.exec(text)?.[1];
      if (!total) return null;
      return {
        vendor: 'Thanks for riding',
        amount: Number(total),
        currency: 'EUR',
        invoice_date: '2025-03-04',
        invoice_number: `${numberPrefix}-${total}`,
      };
    },
  };

  const list = (query: string) =>
    harness.app.inject({ url: `/api/v1/invoices?${query}`, headers: bearer(token) }).then((r) => r.json());
  const counts = async () =>
    (
      await t().database.pool.query(`select
        (select count(*)::int from mail_messages) as messages,
        (select count(*)::int from invoices) as invoices,
        (select count(*)::int from message_attachments) as files`)
    ).rows[0];

  beforeAll(async () => {
    const { db } = t().database;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-body-'));
    blobs = new LocalBlobStore(path.join(dataDir, 'blobs'));
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, {
      routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))],
      auth: { allowSignup: true },
    });
    drive = new DriveService(db, accounts, blobs, harness.auth.box, dataDir, (target) => {
      if (target.kind !== 'local') throw new Error('only the local folder here');
      return new LocalDriveStore(target.root);
    });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
    accountA = (await accounts.connect(ownerId, { provider: 'mbox', email: 'a@example.com' })).userId;
    accountB = (await accounts.connect(ownerId, { provider: 'mbox', email: 'b@example.com' })).userId;
    ingest = new IngestService(db, blobs, extractor);
    // The preference 'Only emails with a document attached' off.
    await ingest.ingest(ownerId, accountA, mails(RECEIPT, HOSTILE), { attachmentsRequired: false });
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('lists it with the fields read from the body, the sender as vendor, and the body as its one file', async () => {
    const { invoices, total } = await list('has_attachments=false&search=tuesday');
    expect(total).toBe(1);
    const [invoice] = invoices;
    expect(invoice).toMatchObject({
      vendor: 'Rides',
      email: 'receipts@rides.example',
      amount: '€14.20',
      currency: 'EUR',
      invoice_date: '2025-03-04',
      invoice_number: 'T-14.20',
      attachments: [
        {
          id: '0',
          filename: 'Your Tuesday evening trip receipt.html',
          mimeType: 'text/html',
          read_error: null,
          url: `/api/v1/invoices/${invoice.id}/attachments/0`,
        },
      ],
    });
    expect(seen[0]).toMatchObject({ filename: 'Your Tuesday evening trip receipt.html', mimeType: 'text/html' });
    // A body is no attachment: the 'Has Attachments' filter (spec §2) still leaves it out.
    expect((await list('has_attachments=true')).total).toBe(0);
  });

  it('downloads the body as a sandboxed HTML file, never inline', async () => {
    const { invoices } = await list('has_attachments=false&search=tuesday');
    const response = await harness.app.inject({ url: invoices[0].attachments[0].url, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="Your Tuesday evening trip receipt\.html"/,
    );
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body).toContain('<td>Total</td><td>&euro;14.20</td>');
    expect(response.body).toContain('http-equiv="Content-Security-Policy"');
  });

  it('names the body of a hostile subject safely', async () => {
    const { invoices } = await list('has_attachments=false&search=passwd');
    expect(invoices).toHaveLength(1);
    const [file] = invoices[0].attachments;
    // No path, no NUL (dropped with the subject's other control characters), cut to 120 bytes with its extension.
    expect(file.filename).toBe(`-..-etc-passwd${'x'.repeat(101)}.html`);
    expect(Buffer.byteLength(file.filename)).toBe(120);
    expect(invoices[0].amount).toBe('€7.00');
  });

  it('adds nothing when run again, nor through a second account (one invoice per message id)', async () => {
    const before = await counts();
    expect(before).toEqual({ messages: 2, invoices: 2, files: 2 });
    const again = await ingest.ingest(ownerId, accountA, mails(RECEIPT, HOSTILE), { attachmentsRequired: false });
    expect(again).toMatchObject({ seen: 2, added: 0, invoices: 0 });
    expect(await counts()).toEqual(before);
    await ingest.ingest(ownerId, accountB, mails(RECEIPT), { attachmentsRequired: false });
    expect(await counts()).toEqual({ messages: 3, invoices: 2, files: 3 });
    const { rows } = await t().database.pool.query(
      `select dedupe_key, account_ids, has_attachments from invoices order by dedupe_key`,
    );
    expect(rows).toEqual([
      { dedupe_key: 'message:<trip-1@rides.example>', account_ids: [accountA, accountB], has_attachments: false },
      { dedupe_key: 'message:<trip-2@rides.example>', account_ids: [accountA], has_attachments: false },
    ]);
  });

  it('files the body in the drive once, in the folder of its date, under a safe name', async () => {
    expect(await drive.upload(ownerId)).toMatchObject({ uploaded: 2, linked: 0, failed: 0, invoices: 2 });
    const root = path.join(dataDir, 'drive');
    const files = await filesUnder(root);
    expect(files).toHaveLength(2);
    expect(files).toContain(path.join('Invoices', '2025', '03', '2025-03-04 Rides T-14.20.html'));
    // Every file stays inside its month folder, whatever the subject held.
    for (const file of files) expect(file.split(path.sep).slice(0, 3)).toEqual(['Invoices', '2025', '03']);
    const filed = await fs.readFile(path.join(root, 'Invoices', '2025', '03', '2025-03-04 Rides T-14.20.html'), 'utf8');
    expect(filed).toContain('<td>Total</td><td>&euro;14.20</td>');
    expect(await drive.upload(ownerId)).toMatchObject({ uploaded: 0, linked: 0, invoices: 0 });
    expect(await filesUnder(root)).toHaveLength(2);
    const status = await drive.status(ownerId);
    expect(status.totals).toEqual({ uploaded: 2, pending: 0, failed: 0 });
  });

  it('the full sync reads the fields again from the stored body, the sender staying the vendor', async () => {
    await t().database.pool.query(`update invoices set extraction = extraction - 'version'`);
    seen.length = 0;
    numberPrefix = 'NEW';
    const refresh = new FieldsRefreshService(t().database.db, blobs, extractor);
    expect(await refresh.refresh(ownerId, [accountA, accountB])).toEqual({ read: 2, changed: 2, failed: 0 });
    expect(seen.map((s) => s.mimeType)).toEqual(['text/html', 'text/html']);
    expect(seen.every((s) => s.text.includes('<td>Total</td>'))).toBe(true);
    const { invoices } = await list('has_attachments=false&search=tuesday');
    expect(invoices[0]).toMatchObject({ vendor: 'Rides', amount: '€14.20', invoice_number: 'NEW-14.20' });
    expect(await refresh.refresh(ownerId, [accountA, accountB])).toEqual({ read: 0, changed: 0, failed: 0 });
  });

  it('with the preference on, the same mail is no invoice and keeps no document', async () => {
    const { db } = t().database;
    const [other] = await db.insert(users).values({ email: 'strict@example.com', displayName: 'S' }).returning();
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = (await accounts.connect(other!.id, { provider: 'mbox', email: 'strict@example.com' })).userId;
    const stored = await ingest.ingest(other!.id, account, mails(RECEIPT), { attachmentsRequired: true });
    expect(stored).toMatchObject({ added: 1, invoices: 0 });
    const { rows } = await t().database.pool.query(
      `select m.is_candidate, m.raw_sha256, (select count(*)::int from message_attachments a where a.message_row_id = m.id) as files
       from mail_messages m where m.owner_id = $1`,
      [other!.id],
    );
    expect(rows).toEqual([{ is_candidate: false, raw_sha256: null, files: 0 }]);
  });
});
