import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { users } from '../db/schema';
import type { ExtractedInvoiceFields } from '../mail/field-extractor';
import { LocalBlobStore } from './blob.store';
import { FieldsRefreshService } from './fields-refresh.service';
import { IngestService } from './ingest.service';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

/** Fields an "older" extractor found: nothing but the amount. The current one finds everything. */
const older = async (): Promise<ExtractedInvoiceFields> => ({
  vendor: null,
  amount: 10,
  currency: 'EUR',
  invoice_date: null,
  invoice_number: null,
});
const current = async ({ bytes }: { bytes: Uint8Array }): Promise<ExtractedInvoiceFields> => {
  const n = Buffer.from(bytes).toString().slice(-1);
  return {
    vendor: 'Acme GmbH',
    amount: 120.5,
    currency: 'EUR',
    invoice_date: `2025-0${n}-15`,
    invoice_number: `R-${n}`,
    // The rules now tell the document's type: the second one is an order confirmation.
    document_type: n === '2' ? 'order_confirmation' : 'invoice',
  };
};

describe('reading the fields of found invoices again (full sync step)', () => {
  let dir: string;
  let blobs: LocalBlobStore;
  let invoices: InvoicesService;
  let ownerId = '';
  let accountId = '';

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-refresh-'));
    blobs = new LocalBlobStore(dir);
    const [owner] = await db.insert(users).values({ email: 'r@example.com', displayName: 'R' }).returning();
    ownerId = owner!.id;
    const accounts = new AccountsService(new AccountsRepository(db));
    accountId = (await accounts.connect(ownerId, { provider: 'mbox', email: 'r@example.com' })).userId;
    invoices = new InvoicesService(db, accounts, blobs);
    async function* mails() {
      for (const n of [1, 2, 3]) {
        yield {
          ok: true as const,
          origin: `r${n}`,
          source: buildMail({
            from: 'Billing <billing@acme.example>',
            subject: `Your invoice ${n}`,
            messageId: `<r${n}@example.com>`,
            attachments: [{ filename: `invoice-${n}.pdf`, content: Buffer.from(`%PDF-1.4 acme ${n}`) }],
          }),
        };
      }
    }
    await new IngestService(db, blobs, { extract: older }).ingest(ownerId, accountId, mails());
    // As if these were read by the rules before the current version.
    await t().database.pool.query(`update invoices set extraction = extraction - 'version'`);
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const cards = async () =>
    (await invoices.list(ownerId, { page: 1, limit: 10, has_attachments: true })).invoices
      .map((i) => `${i.vendor} | ${i.amount} | ${i.invoice_date} | ${i.invoice_number} | ${i.document_type}`)
      .sort();

  it('replaces the fields older rules read with what the current ones read, once', async () => {
    expect(await cards()).toEqual([
      'Billing | €10.00 | 2026-11-02 | null | null',
      'Billing | €10.00 | 2026-11-02 | null | null',
      'Billing | €10.00 | 2026-11-02 | null | null',
    ]);
    const refresh = new FieldsRefreshService(t().database.db, blobs, { extract: current });
    const progress: string[] = [];
    const first = await refresh.refresh(ownerId, [accountId], { progress: async (_p, m) => void progress.push(m) });
    expect(first).toEqual({ read: 3, changed: 3, failed: 0 });
    expect(progress.at(-1)).toBe('Read the fields of 3 of 3 invoice(s)');
    expect(await cards()).toEqual([
      'Acme GmbH | €120.50 | 2025-01-15 | R-1 | invoice',
      'Acme GmbH | €120.50 | 2025-02-15 | R-2 | order_confirmation',
      'Acme GmbH | €120.50 | 2025-03-15 | R-3 | invoice',
    ]);
    const search = await invoices.list(ownerId, { page: 1, limit: 10, has_attachments: true, search: 'r-2' });
    expect(search.total).toBe(1);
    expect(await refresh.refresh(ownerId, [accountId])).toEqual({ read: 0, changed: 0, failed: 0 });
  });

  it('resumes after a stop, and keeps the fields of an invoice whose document is gone', async () => {
    await t().database.pool.query(`update invoices set extraction = extraction - 'version'`);
    const { createHash } = await import('node:crypto');
    await fs.rm(blobs.pathOf(createHash('sha256').update('%PDF-1.4 acme 3').digest('hex')));
    const refresh = new FieldsRefreshService(t().database.db, blobs, { extract: current }, 3);
    const controller = new AbortController();
    await expect(
      refresh.refresh(ownerId, [accountId], {
        signal: controller.signal,
        progress: async (_p, message) => {
          if (message.startsWith('Read the fields of 1 ')) controller.abort();
        },
      }),
    ).rejects.toThrow();
    // One was read before the stop; the next run reads the other two, and nothing a third time.
    expect((await refresh.refresh(ownerId, [accountId])).read).toBe(2);
    expect((await refresh.refresh(ownerId, [accountId])).read).toBe(0);
    expect(await cards()).toContain('Acme GmbH | €120.50 | 2025-03-15 | R-3 | invoice');
    const { rows } = await t().database.pool.query(
      `select invoice_number, extraction->'version' as version, extraction->'errors' as errors from invoices
       order by invoice_number`,
    );
    expect(rows.map((r) => r.version)).toEqual([3, 3, 3]);
    expect(rows[2]).toMatchObject({
      invoice_number: 'R-3',
      errors: [{ filename: 'invoice-3.pdf', error: 'The file is missing from storage' }],
    });
  });
});
