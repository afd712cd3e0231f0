import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InvoiceListQuerySchema } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { createSecretBox } from '../auth/secret-box';
import { BankStatementsService } from '../bank/bank.service';
import type { Reconciler } from '../bank/reconciler';
import type { StatementReadResult } from '../bank/statement.types';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { DriveService } from '../drive/drive.service';
import { LocalDriveStore } from '../drive/local.drive';
import type { ExtractedInvoiceFields } from '../mail/field-extractor';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

/**
 * The document's type on a stored invoice (issue 15 item 7): every document the §5 rules list is listed, with its
 * type; only invoices, credit notes and receipts (and invoices whose type is not read yet) are summed in the stats,
 * filed in the drive and matched with bank transactions.
 */
describe('document type: listed, but counted only for invoices, credit notes and receipts', () => {
  let db: Db;
  let dir: string;
  let blobs: LocalBlobStore;
  let accounts: AccountsService;
  let service: InvoicesService;
  let owner = '';
  let account = '';

  const DOCS: Record<string, ExtractedInvoiceFields> = {
    'invoice-1.pdf': {
      vendor: 'Acme',
      amount: 100,
      currency: 'EUR',
      invoice_date: '2026-03-02',
      invoice_number: 'A-1',
      document_type: 'invoice',
    },
    'invoice-2.pdf': {
      vendor: 'Kontor',
      amount: 250,
      currency: 'EUR',
      invoice_date: '2026-03-03',
      invoice_number: 'AB-7',
      document_type: 'order_confirmation',
    },
    // Read by an extractor that does not tell the type: counted as before.
    'invoice-3.pdf': { vendor: 'Old', amount: 40, currency: 'EUR', invoice_date: '2026-03-04', invoice_number: 'O-1' },
    // A credit note's amount comes positive, as its XML states it: the sums take it off.
    'invoice-4.pdf': {
      vendor: 'Acme',
      amount: 20,
      currency: 'EUR',
      invoice_date: '2026-03-05',
      invoice_number: 'G-1',
      document_type: 'credit_note',
    },
  };

  beforeAll(async () => {
    db = t().database.db;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-doctype-'));
    blobs = new LocalBlobStore(path.join(dir, 'blobs'));
    accounts = new AccountsService(new AccountsRepository(db));
    service = new InvoicesService(db, accounts, blobs);
    const [user] = await db.insert(users).values({ email: 'doc@example.com', displayName: 'Doc' }).returning();
    owner = user!.id;
    account = (await accounts.connect(owner, { provider: 'mbox', email: 'doc@example.com' })).userId;
    const ingest = new IngestService(db, blobs, { extract: async ({ filename }) => DOCS[filename] ?? null });
    async function* mails() {
      for (const [i, filename] of Object.keys(DOCS).entries()) {
        yield {
          ok: true as const,
          origin: `m${i}`,
          source: buildMail({
            messageId: `<doc-${i}@x>`,
            from: 'Billing <billing@vendor.example>',
            subject: `Invoice ${i}`,
            attachments: [{ filename, contentType: 'application/pdf', content: `%PDF-1.4 ${filename}` }],
          }),
        };
      }
    }
    await ingest.ingest(owner, account, mails());
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const list = async (query: Record<string, string> = {}) =>
    (await service.list(owner, InvoiceListQuerySchema.parse(query))).invoices
      .map((i) => `${i.invoice_number}:${i.document_type}`)
      .sort();

  it('stores the type at ingest and lists every document with it; the type filter splits them', async () => {
    expect(await list()).toEqual(['A-1:invoice', 'AB-7:order_confirmation', 'G-1:credit_note', 'O-1:null']);
    expect(await list({ document_type: 'financial' })).toEqual(['A-1:invoice', 'G-1:credit_note', 'O-1:null']);
    expect(await list({ document_type: 'other' })).toEqual(['AB-7:order_confirmation']);
  });

  it('sums invoices, receipts and untyped invoices less credit notes, nothing else, also when a type changes', async () => {
    const stats = await service.stats(owner);
    expect(stats.total_invoices).toBe(3);
    // 100 + 40 - 20: the order confirmation's 250 is left out.
    expect(stats.total_amount).toBe(120);
    // A later reading (the fields refresh) finds that the untyped one is a delivery note: it leaves the sums.
    await t().database.pool.query(`update invoices set document_type = 'delivery_note' where invoice_number = 'O-1'`);
    expect(await service.stats(owner)).toMatchObject({ total_invoices: 2, total_amount: 80 });
    await t().database.pool.query(`update invoices set document_type = null where invoice_number = 'O-1'`);
    expect(await service.stats(owner)).toMatchObject({ total_invoices: 3, total_amount: 120 });
  });

  it('files only the financial documents in the drive', async () => {
    const drive = new DriveService(
      db,
      accounts,
      blobs,
      createSecretBox(Buffer.alloc(32, 7)),
      dir,
      (target) => new LocalDriveStore((target as { root: string }).root),
    );
    const summary = await drive.upload(owner);
    expect(summary).toMatchObject({ invoices: 3, failed: 0 });
    const rows = (
      await t().database.pool.query('select invoice_number, status from invoices order by invoice_number')
    ).rows.map((r) => `${r.invoice_number}:${r.status}`);
    expect(rows).toEqual(['A-1:uploaded', 'AB-7:pending', 'G-1:uploaded', 'O-1:uploaded']);
    expect(await drive.upload(owner)).toMatchObject({ invoices: 0 });
  });

  it('matches bank transactions with the documents a debit pays: invoices and receipts, not credit notes', async () => {
    const statement: StatementReadResult = {
      ok: true,
      format: 'csv',
      statements: [
        {
          bankName: 'Test Bank',
          accountNumber: 'DE89370400440532013000',
          startDate: '2026-03-01',
          endDate: '2026-03-31',
          currency: 'EUR',
          openingBalanceMinor: 100_000,
          closingBalanceMinor: 100_000 - 25_000 - 10_000,
          transactions: [25_000, 10_000].map((amountMinor, i) => ({
            date: `2026-03-1${i}`,
            valueDate: null,
            description: `Payment ${i}`,
            amountMinor,
            type: 'debit' as const,
            currency: 'EUR',
            balanceAfterMinor: null,
            reference: null,
            counterpartyName: null,
            counterpartyIban: null,
          })),
          warnings: [],
        },
      ],
    };
    const offered: string[] = [];
    // Same amount pays the invoice; records which invoices it was offered.
    const reconcile: Reconciler = (transactions, invoices) => {
      offered.push(...invoices.map((i) => i.invoiceNumber ?? ''));
      return transactions.flatMap((tx, transactionIndex) => {
        const invoice = invoices.find((i) => i.amountMinor === tx.amountMinor);
        return invoice ? [{ transactionIndex, invoiceId: invoice.id, score: 0.9, explanation: 'amount equal' }] : [];
      });
    };
    const bank = new BankStatementsService(db, accounts, blobs, async () => statement, reconcile, 4096);
    const id = await bank.receive(owner, { filename: 'march.csv', file_data: Buffer.from('x').toString('base64') });
    await bank.analyze(owner, id);
    // Neither the order confirmation nor the credit note (money coming back) is something a debit pays.
    expect(offered.sort()).toEqual(['A-1', 'O-1']);
    const analysis = await bank.get(owner, id);
    expect(analysis.reconciliation_result).toMatchObject({ total_transactions: 2, matched_transactions: 1 });
  });
});
