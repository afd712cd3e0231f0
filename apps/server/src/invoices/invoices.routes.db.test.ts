import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { contentDisposition } from '../http/file-headers';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

const fields: Record<string, { amount: number; currency: string; invoice_date: string; invoice_number: string }> = {
  'acme-invoice.pdf': { amount: 120, currency: 'EUR', invoice_date: '2024-03-05', invoice_number: 'AC-1' },
  'globex-receipt.pdf': { amount: 30.5, currency: 'EUR', invoice_date: '2024-02-10', invoice_number: 'GX-9' },
  'initech-invoice.pdf': { amount: 99.99, currency: 'USD', invoice_date: '2024-03-20', invoice_number: 'IN-7' },
};

describe('invoice routes', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let token = '';
  let dir: string;
  let blobs: LocalBlobStore;

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-inv-'));
    blobs = new LocalBlobStore(dir);
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, { routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))] });
    const signup = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'me@example.com', password: 'a long password' },
    });
    token = signup.json().token;
    const ownerId = signup.json().user.id;
    const account = await accounts.connect(ownerId, { provider: 'mbox', email: 'me@example.com' });
    const ingest = new IngestService(db, blobs, {
      extract: async ({ filename }) => ({ vendor: null, ...fields[filename]! }),
    });
    async function* mails() {
      const specs = [
        ['Acme GmbH <billing@acme.example>', 'Your invoice March', 'acme-invoice.pdf'],
        ['Globex <noreply@globex.example>', 'Receipt for your order', 'globex-receipt.pdf'],
        ['Initech <ar@initech.example>', 'Invoice IN-7', 'initech-invoice.pdf'],
        ['News <news@shop.example>', 'Our newsletter', 'newsletter.pdf'],
      ];
      for (const [i, [from, subject, filename]] of specs.entries()) {
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({
            from: from!,
            subject: subject!,
            messageId: `<m${i}@example.com>`,
            attachments: [{ filename: filename!, content: Buffer.from(`%PDF-1.4 ${filename}`) }],
          }),
        };
      }
    }
    await ingest.ingest(ownerId, account.userId, mails());
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const list = (query = '') =>
    harness.app.inject({ url: `/api/v1/invoices${query}`, headers: bearer(token) }).then((r) => r.json());

  it('lists the accepted emails newest first, counting every scanned email', async () => {
    const all = await list();
    expect(all.total).toBe(3);
    expect(all.total_emails).toBe(4);
    expect(all.invoices.map((i: { invoice_number: string }) => i.invoice_number)).toEqual(['IN-7', 'AC-1', 'GX-9']);
    expect(all.invoices[1]).toMatchObject({
      vendor: 'Acme GmbH',
      email: 'billing@acme.example',
      amount: '€120.00',
      currency: 'EUR',
      status: 'pending',
      category: 'Invoice',
      details: 'Your invoice March',
    });
    expect(all.invoices[1].attachments[0]).toMatchObject({ filename: 'acme-invoice.pdf', mimeType: 'application/pdf' });
    // Metadata and the download link only: the bytes come from that link (light pages).
    expect(all.invoices[1].attachments[0]).not.toHaveProperty('data');
    const file = await harness.app.inject({ url: all.invoices[1].attachments[0].url, headers: bearer(token) });
    expect(file.body).toBe('%PDF-1.4 acme-invoice.pdf');
  });

  it('filters by month, vendor, search (literal), category, display status and pages', async () => {
    expect((await list('?month=2024-03')).total).toBe(2);
    expect((await list('?vendor=Globex')).invoices[0].invoice_number).toBe('GX-9');
    expect((await list('?search=initech-invoice')).total).toBe(1);
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?category=Receipt')).total).toBe(1);
    expect((await list('?status=needs_action')).total).toBe(3);
    expect((await list('?status=ready_to_process')).total).toBe(0);
    const page2 = await list('?limit=2&page=2');
    expect(page2.invoices).toHaveLength(1);
    expect(page2.total).toBe(3);
    const bad = await harness.app.inject({ url: '/api/v1/invoices?month=2024-13', headers: bearer(token) });
    expect(bad.statusCode).toBe(400);
  });

  it('sums per currency with the most used first', async () => {
    const stats = await harness.app.inject({ url: '/api/v1/invoices/stats', headers: bearer(token) });
    expect(stats.json()).toMatchObject({ total_invoices: 3, currency: 'EUR', total_amount: 150.5 });
    expect(stats.json().by_currency).toHaveLength(2);
  });

  it('downloads an attachment with a safe Content-Disposition', async () => {
    const { invoices } = await list('?vendor=Acme%20GmbH');
    const res = await harness.app.inject({
      url: `/api/v1/invoices/${invoices[0].id}/attachments/0`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.body).toBe('%PDF-1.4 acme-invoice.pdf');
    const header = contentDisposition('evil"\r\nSet-Cookie: x=1/../ü.pdf');
    expect(header).toBe(
      `attachment; filename="evil_Set-Cookie: x=1_..__.pdf"; filename*=UTF-8''${encodeURIComponent('evil_Set-Cookie: x=1_.._ü.pdf')}`,
    );
    expect(header).not.toMatch(/[\r\n]/);
  });

  it('serves a hostile HTML or SVG attachment only as a sandboxed download, and personal answers are never cached', async () => {
    const { invoices } = await list('?vendor=Acme%20GmbH');
    expect(
      (await harness.app.inject({ url: '/api/v1/invoices?vendor=Acme%20GmbH', headers: bearer(token) })).headers[
        'cache-control'
      ],
    ).toBe('no-store');
    const { pool } = t().database;
    const [{ message_row_id }] = (
      await pool.query('select message_row_id from invoices where id = $1', [invoices[0].id])
    ).rows;
    const hostile = [
      { name: 'invoice.html', type: 'text/html', body: '<script>fetch("/api/v1/me")</script>' },
      { name: 'logo.svg', type: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' },
      { name: 'x', type: 'text/html;charset=utf-8"><script>', body: '<script>alert(1)</script>' },
    ];
    for (const [i, file] of hostile.entries()) {
      const sha = createHash('sha256').update(file.body).digest('hex');
      await blobs.put(sha, Buffer.from(file.body));
      await pool.query(
        `insert into message_attachments (message_row_id, position, sha256, filename, size, content_type, qualifies)
         values ($1, $2, $3, $4, $5, $6, false)`,
        [message_row_id, 10 + i, sha, file.name, file.body.length, file.type],
      );
      const res = await harness.app.inject({
        url: `/api/v1/invoices/${invoices[0].id}/attachments/${10 + i}`,
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(file.body);
      expect(res.headers['content-type']).toBe(i === 2 ? 'application/octet-stream' : file.type);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
