import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { readZip } from '../../test/zip-reader';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

/** Three monthly invoices of one vendor, one yearly pair of another, one one-off; one with two documents. */
const MAILS = [
  { from: 'Acme <billing@acme.example>', date: '2024-01-05', number: 'A-1', files: ['invoice.pdf'] },
  { from: 'Acme <billing@acme.example>', date: '2024-02-05', number: 'A-2', files: ['invoice.pdf'] },
  { from: 'Acme <billing@acme.example>', date: '2024-03-05', number: 'A-3', files: ['invoice.pdf', 'receipt.pdf'] },
  { from: 'Hoster <ar@hoster.example>', date: '2022-06-01', number: 'H-1', files: ['../../evil/invoice.pdf'] },
  { from: 'Hoster <ar@hoster.example>', date: '2023-06-02', number: 'H-2', files: ['invoice.pdf'] },
  { from: 'Shop <shop@shop.example>', date: '2024-03-09', number: 'S/1', files: ['receipt.pdf'] },
];

describe('invoice export (ZIP) and frequency labels', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let token = '';
  let dir: string;
  let blobs: LocalBlobStore;

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-export-'));
    blobs = new LocalBlobStore(dir);
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, { routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))] });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    const ownerId = signup.userId;
    const account = await accounts.connect(ownerId, { provider: 'mbox', email: 'me@example.com' });
    const byFile = new Map<string, (typeof MAILS)[number]>();
    const ingest = new IngestService(db, blobs, {
      extract: async ({ bytes }) => {
        const mail = byFile.get(Buffer.from(bytes).toString())!;
        return { vendor: null, amount: 10, currency: 'EUR', invoice_date: mail.date, invoice_number: mail.number };
      },
    });
    async function* mails() {
      for (const [i, m] of MAILS.entries()) {
        const attachments = m.files.map((filename) => {
          const content = `%PDF-1.4 ${m.number} ${filename}`;
          byFile.set(content, m);
          return { filename, content: Buffer.from(content) };
        });
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({ from: m.from, subject: `Invoice ${m.number}`, messageId: `<m${i}@x>`, attachments }),
        };
      }
    }
    await ingest.ingest(ownerId, account.userId, mails());
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('labels each card with its vendor rhythm: Monthly, Yearly, One-time', async () => {
    const list = (await harness.app.inject({ url: '/api/v1/invoices?limit=50', headers: bearer(token) })).json() as {
      invoices: Array<{ invoice_number: string; frequency: string }>;
    };
    const frequency = Object.fromEntries(list.invoices.map((i) => [i.invoice_number, i.frequency]));
    expect(frequency).toEqual({
      'A-1': 'Monthly',
      'A-2': 'Monthly',
      'A-3': 'Monthly',
      'H-1': 'Yearly',
      'H-2': 'Yearly',
      'S/1': 'One-time',
    });
  });

  it('exports a ZIP with the CSV and every document in YYYY/MM folders, names sanitised', async () => {
    const response = await harness.app.inject({ url: '/api/v1/invoices/export?format=zip', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="invoices-\d{4}-\d{2}-\d{2}\.zip"/);
    const entries = readZip(response.rawPayload);
    const names = [...entries.keys()].sort();
    expect(names).toContain('invoices.csv');
    const documents = names.filter((n) => n.startsWith('Invoices/'));
    expect(documents).toHaveLength(7);
    for (const name of documents) {
      expect(name).toMatch(/^Invoices\/\d{4}\/\d{2}\/[^/\\]+\.pdf$/);
      expect(name).not.toContain('..');
    }
    expect(documents.filter((n) => n.startsWith('Invoices/2024/03/'))).toHaveLength(3);
    const terms = documents.find((n) => n.includes('A-3 receipt'))!;
    expect(entries.get(terms)!.toString()).toBe('%PDF-1.4 A-3 receipt.pdf');
    expect(entries.get('invoices.csv')!.toString().split('\r\n')[0]).toMatch(/^id,vendor,email,amount/);
  });

  it('lists documents that are gone from storage in missing.txt instead of failing', async () => {
    const receipt = Buffer.from('%PDF-1.4 S/1 receipt.pdf');
    const { createHash } = await import('node:crypto');
    await fs.rm(blobs.pathOf(createHash('sha256').update(receipt).digest('hex')));
    const response = await harness.app.inject({
      url: '/api/v1/invoices/export?format=zip&vendor=Shop',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    const entries = readZip(response.rawPayload);
    expect(entries.get('missing.txt')?.toString()).toMatch(/2024\/03\/.*S_1.*\.pdf|2024\/03\/.*S.1.*\.pdf/);
    expect([...entries.keys()].filter((n) => n.startsWith('Invoices/'))).toEqual([]);
  });
});
