import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatCurrency, formatInvoiceAmount, type Invoice, type InvoiceStats } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { readZip } from '../../test/zip-reader';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { DriveService } from '../drive/drive.service';
import { LocalDriveStore } from '../drive/local.drive';
import { findAmounts } from '../extraction/rules/money.parser';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');

/**
 * Invoices of 1,000 and more, each total printed in one number style and read by the extraction's money parser, as
 * an invoice's PDF text would be. Once they were shown a thousand times too small (€5,178.43 as €5.18).
 */
const PRINTED = [
  { number: 'EN-1', printed: 'Total 5,178.43 EUR', vendor: 'Comma Dot Ltd', shown: '€5,178.43' },
  { number: 'DE-1', printed: 'Gesamtbetrag 1.875,08 RON', vendor: 'Punkt Komma GmbH', shown: 'RON 1,875.08' },
  { number: 'FR-1', printed: 'Total TTC 2 345,60 €', vendor: 'Espace SARL', shown: '€2,345.60' },
  { number: 'CH-1', printed: "Total CHF 1'234.50", vendor: 'Apostroph AG', shown: 'CHF 1,234.50' },
  { number: 'IN-1', printed: 'Grand Total ₹1,23,456.78', vendor: 'Lakh Pvt Ltd', shown: '₹123,456.78' },
  { number: 'EN-2', printed: 'Total 752.70 EUR', vendor: 'Comma Dot Ltd', shown: '€752.70' },
  // No currency on the invoice: the amount without an exact minor amount, shown in the default USD.
  { number: 'NA-1', printed: 'Amount due 4,110.50', vendor: 'No Currency Inc', shown: '$4,110.50' },
];

describe('amounts of 1,000 and more on every surface (list, stats, exports, drive)', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let dir: string;
  let drive: DriveService;
  let token = '';
  let ownerId = '';

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-amounts-'));
    const blobs = new LocalBlobStore(path.join(dir, 'blobs'));
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, { routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))] });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
    drive = new DriveService(db, accounts, blobs, harness.auth.box, dir, (target) => {
      if (target.kind !== 'local') throw new Error('only the local folder here');
      return new LocalDriveStore(target.root);
    });
    const account = await accounts.connect(ownerId, { provider: 'mbox', email: 'me@example.com' });
    const ingest = new IngestService(db, blobs, {
      extract: async ({ bytes }) => {
        const one = PRINTED.find((p) => Buffer.from(bytes).toString().includes(p.number))!;
        const [found] = findAmounts(one.printed, { allowIntegers: true });
        return {
          vendor: one.vendor,
          amount: found!.minor / 10 ** found!.decimals,
          currency: found!.currency,
          invoice_date: '2024-03-05',
          invoice_number: one.number,
        };
      },
    });
    async function* mails() {
      for (const [i, p] of PRINTED.entries()) {
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({
            from: `${p.vendor} <billing${i}@vendor.example>`,
            subject: `Invoice ${p.number}`,
            messageId: `<amounts-${i}@x>`,
            attachments: [{ filename: 'invoice.pdf', content: Buffer.from(`%PDF-1.4 ${p.number}`) }],
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

  const get = async (url: string) => harness.app.inject({ url: `/api/v1${url}`, headers: bearer(token) });

  it('lists each invoice with its exact amount, as the cards and the dashboard show it', async () => {
    const { invoices } = (await get('/invoices?limit=50')).json() as { invoices: Invoice[] };
    const shown = Object.fromEntries(invoices.map((i) => [i.invoice_number, nbsp(formatInvoiceAmount(i))]));
    expect(shown).toEqual(Object.fromEntries(PRINTED.map((p) => [p.number, p.shown])));
    const byNumber = new Map(invoices.map((i) => [i.invoice_number, i]));
    expect(byNumber.get('EN-1')).toMatchObject({ amount: '€5,178.43', amount_minor: 517843, currency: 'EUR' });
    expect(byNumber.get('IN-1')).toMatchObject({ amount_minor: 12345678, currency: 'INR' });
    expect(byNumber.get('NA-1')).toMatchObject({ amount: '$4,110.50', amount_minor: null, currency: null });
  });

  it('sums each currency on its own in the stats, never across currencies', async () => {
    const stats = (await get('/invoices/stats')).json() as InvoiceStats;
    expect(stats.total_invoices).toBe(7);
    const totals = Object.fromEntries(
      stats.by_currency.map((c) => [c.currency, nbsp(formatCurrency(c.total_amount, c.currency))]),
    );
    expect(totals).toMatchObject({
      EUR: '€8,276.73',
      RON: 'RON 1,875.08',
      CHF: 'CHF 1,234.50',
      INR: '₹123,456.78',
    });
    expect(stats.currency).toBe('EUR');
    expect(stats.total_amount).toBe(8276.73);
  });

  it('exports the exact amounts in the CSV and names the ZIP documents as the drive does', async () => {
    const csv = nbsp((await get('/invoices/export?format=csv')).body);
    const lines = csv.split('\r\n');
    expect(lines.find((l) => l.includes('EN-1'))).toContain('"€5,178.43",517843,EUR');
    expect(lines.find((l) => l.includes('DE-1'))).toContain('"RON 1,875.08",187508,RON');
    expect(lines.find((l) => l.includes('IN-1'))).toContain('"₹123,456.78",12345678,INR');
    expect(lines.find((l) => l.includes('NA-1'))).toContain('"$4,110.50",,');
    const zip = readZip((await get('/invoices/export?format=zip')).rawPayload);
    const documents = [...zip.keys()].filter((n) => n.startsWith('Invoices/')).sort();
    expect(documents).toContain('Invoices/2024/03/2024-03-05 Comma Dot Ltd EN-1.pdf');
    expect(documents).toContain('Invoices/2024/03/2024-03-05 Lakh Pvt Ltd IN-1.pdf');
    expect(nbsp(zip.get('invoices.csv')!.toString())).toContain('"€5,178.43",517843,EUR');

    const result = await drive.upload(ownerId);
    expect(result).toMatchObject({ uploaded: 7, failed: 0 });
    const filed = (await fs.readdir(path.join(dir, 'drive', 'Invoices', '2024', '03'))).filter(
      (n) => !n.startsWith('.'),
    );
    expect(filed.map((n) => `Invoices/2024/03/${n}`).sort()).toEqual(documents);
  });
});
