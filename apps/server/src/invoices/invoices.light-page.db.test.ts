import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InvoiceListResponse } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../eval/eval.dataset';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

const realPdfs = path.resolve(repoRoot(), '..', 'shared', 'datasets', 'invoices-pdf');
const PAGE_BUDGET_BYTES = 50 * 1024;

/**
 * Light pages: GET /invoices carries the attachments' metadata and download links, never their bytes. A page of 20
 * invoices, each with a real invoice PDF (and one with two), stays under 50 KB of JSON; the bytes come from the
 * download route when a person opens View or Download.
 */
describe('a page of 20 invoices with real PDFs', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let dir: string;
  let token = '';
  let filesBytes = 0;
  const contents = new Map<string, Buffer>();

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-light-'));
    const blobs = new LocalBlobStore(dir);
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, { routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))] });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    const account = await accounts.connect(signup.userId, { provider: 'mbox', email: 'me@example.com' });
    const names = (await fs.readdir(realPdfs)).filter((n) => n.endsWith('.pdf')).sort();
    expect(names.length).toBeGreaterThan(3);
    const pdfs = await Promise.all(names.map((n) => fs.readFile(path.join(realPdfs, n))));
    const ingest = new IngestService(db, blobs, {
      extract: async ({ filename }) => {
        const n = Number(/(\d+)/.exec(filename)![1]);
        return {
          vendor: `Vendor ${n}`,
          amount: 1000 + n,
          currency: 'EUR',
          invoice_date: `2024-03-${String((n % 28) + 1).padStart(2, '0')}`,
          invoice_number: `INV-${n}`,
        };
      },
    });
    async function* mails() {
      for (let i = 0; i < 20; i++) {
        // A distinct file each (a comment after %%EOF leaves the PDF as it was), so none is stored once for two.
        const files = (i === 0 ? [0, 1] : [0]).map((k) => {
          const bytes = Buffer.concat([pdfs[(i + k) % pdfs.length]!, Buffer.from(`\n% copy ${i}-${k}\n`)]);
          const filename = `invoice-${i}${k ? '-annex' : ''}.pdf`;
          contents.set(filename, bytes);
          filesBytes += bytes.length;
          return { filename, content: bytes, contentType: 'application/pdf' };
        });
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({
            from: `Vendor ${i} <billing${i}@vendor.example>`,
            subject: `Invoice INV-${i}`,
            messageId: `<light-${i}@x>`,
            attachments: files,
          }),
        };
      }
    }
    await ingest.ingest(signup.userId, account.userId, mails());
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('answers under 50 KB with metadata and a download link per file, and the link serves the bytes', async () => {
    const response = await harness.app.inject({ url: '/api/v1/invoices?page=1&limit=20', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const page = response.json() as InvoiceListResponse;
    expect(page.invoices).toHaveLength(20);
    // Real-size files: inline as base64 they alone would weigh over a megabyte and a third.
    expect(filesBytes).toBeGreaterThan(1024 * 1024);
    const size = Buffer.byteLength(response.body);
    expect(size).toBeLessThan(PAGE_BUDGET_BYTES);
    console.info(`GET /invoices, 20 invoices with ${(filesBytes / 1024).toFixed(0)} KB of PDFs: ${size} bytes of JSON`);

    const attachments = page.invoices.flatMap((i) => i.attachments.map((a) => ({ invoice: i, a })));
    expect(attachments).toHaveLength(21);
    for (const { invoice, a } of attachments) {
      expect(a).not.toHaveProperty('data');
      expect(a.url).toBe(`/api/v1/invoices/${invoice.id}/attachments/${a.id}`);
      expect(a.size).toBe(contents.get(a.filename)!.length);
    }
    const { invoice, a } = attachments.find((x) => x.a.filename === 'invoice-0-annex.pdf')!;
    const file = await harness.app.inject({ url: a.url, headers: bearer(token) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(contents.get('invoice-0-annex.pdf')!)).toBe(true);
    expect(invoice.invoice_number).toBe('INV-0');
    // Owner-scoped: without the owner's token the link gives nothing.
    expect((await harness.app.inject({ url: a.url })).statusCode).toBe(401);
  });
});
