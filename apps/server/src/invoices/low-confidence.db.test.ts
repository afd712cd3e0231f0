import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Invoice } from '@invoicebox/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { EXTRACTION_RULES_VERSION } from '../extraction/version';
import type { ExtractedInvoiceFields } from '../mail/field-extractor';
import { LocalBlobStore } from './blob.store';
import { FieldsRefreshService } from './fields-refresh.service';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

/** What the reader states about each document: a sharp PDF, a blurred photo, and a photo that shows no total. */
const READINGS: Record<string, ExtractedInvoiceFields> = {
  'sharp.pdf': {
    vendor: 'Sharp GmbH',
    amount: 120,
    currency: 'EUR',
    invoice_date: '2024-03-05',
    invoice_number: 'S-1',
    fields: {
      vendor: { confidence: 0.92 },
      amount: { confidence: 0.97 },
      currency: { confidence: 0.9 },
      invoice_date: { confidence: 0.95 },
      invoice_number: { confidence: 0.9 },
    },
  },
  'blurred.jpg': {
    vendor: 'Blurry Bistro',
    amount: 18.4,
    currency: 'EUR',
    invoice_date: '2024-03-06',
    invoice_number: null,
    fields: {
      vendor: { confidence: 0.35 },
      amount: { confidence: 0.3 },
      currency: { confidence: 0.8 },
      invoice_date: { confidence: 0.45 },
      // A confidence without a value is never marked: there is nothing shown to check.
      invoice_number: { confidence: 0.1 },
    },
  },
};

describe('fields read with low confidence are marked on the card', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let dir: string;
  let token = '';
  let ownerId = '';
  let accountId = '';
  let blobs: LocalBlobStore;
  let extract: (filename: string) => ExtractedInvoiceFields | null = (filename) => READINGS[filename] ?? null;

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-confidence-'));
    blobs = new LocalBlobStore(path.join(dir, 'blobs'));
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, { routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))] });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
    const account = await accounts.connect(ownerId, { provider: 'mbox', email: 'me@example.com' });
    accountId = account.userId;
    const ingest = new IngestService(db, blobs, { extract: async ({ filename }) => extract(filename) });
    async function* mails() {
      for (const [i, filename] of Object.keys(READINGS).entries()) {
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({
            from: `Vendor ${i} <billing${i}@vendor.example>`,
            subject: `Invoice ${i}`,
            messageId: `<confidence-${i}@x>`,
            attachments: [{ filename, content: Buffer.from(`bytes of ${filename}`) }],
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

  const list = async () => {
    const res = await harness.app.inject({ url: '/api/v1/invoices?limit=50', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return new Map((res.json() as { invoices: Invoice[] }).invoices.map((i) => [i.vendor, i]));
  };

  it('lists the low-confidence fields that have a value, and none for a sharp reading', async () => {
    const byVendor = await list();
    expect(byVendor.get('Sharp GmbH')!.low_confidence_fields).toEqual([]);
    expect(byVendor.get('Blurry Bistro')!.low_confidence_fields).toEqual(['vendor', 'amount', 'invoice_date']);
  });

  it('keeps the confidences with the invoice, and a new reading by newer rules replaces them', async () => {
    const { db } = t().database;
    const stored = await db.execute(
      sql`select vendor, extraction -> 'confidence' as confidence from invoices where owner_id = ${ownerId}`,
    );
    const blurred = (stored.rows as Array<{ vendor: string; confidence: Record<string, number> }>).find(
      (r) => r.vendor === 'Blurry Bistro',
    )!;
    expect(blurred.confidence).toMatchObject({ vendor: 0.35, amount: 0.3, invoice_date: 0.45 });
    // Newer rules read the photo better: the mark goes.
    extract = (filename) => {
      const reading = READINGS[filename]!;
      return { ...reading, fields: { ...reading.fields, vendor: { confidence: 0.9 }, amount: { confidence: 0.85 } } };
    };
    const refresh = new FieldsRefreshService(
      db,
      blobs,
      { extract: async ({ filename }) => extract(filename) },
      EXTRACTION_RULES_VERSION + 1,
    );
    expect(await refresh.refresh(ownerId, [accountId])).toMatchObject({ read: 2, failed: 0 });
    expect((await list()).get('Blurry Bistro')!.low_confidence_fields).toEqual(['invoice_date']);
  });
});
