import { InvoiceListQuerySchema } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { InvoicesService } from '../invoices/invoices.service';
import { PgBlobStore } from '../invoices/pg-blob.store';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { BankStatementsService, displayName, NOT_A_PDF_MESSAGE } from './bank.service';
import type { Reconciler } from './reconciler';
import type { StatementReadResult, StatementTransaction } from './statement.types';

const t = useTestDatabase();

function tx(date: string, amount: number, type: 'debit' | 'credit', description: string): StatementTransaction {
  return {
    date,
    valueDate: null,
    description,
    amountMinor: amount,
    type,
    currency: 'EUR',
    balanceAfterMinor: null,
    reference: null,
    counterpartyName: null,
    counterpartyIban: null,
  };
}

/** What the file holds, by its text: the service under test does not parse, the sandboxed readers do. */
const statements = new Map<string, StatementReadResult>();
const readFile = async (bytes: Uint8Array): Promise<StatementReadResult> =>
  statements.get(Buffer.from(bytes).toString('utf8')) ?? {
    ok: false,
    errors: [{ code: 'unsupported_format', message: 'not a bank statement this product can read' }],
  };

/** A transparent stand-in for the matcher: same amount pays the invoice, honouring the person's decisions. */
const reconcile: Reconciler = (transactions, invoices, decisions) => {
  const used = new Set(decisions.pinned.map((p) => p.invoiceId));
  const matches = decisions.pinned.map((p) => ({ ...p, score: 1, explanation: 'pinned' }));
  transactions.forEach((t, transactionIndex) => {
    if (t.type !== 'debit' || matches.some((m) => m.transactionIndex === transactionIndex)) return;
    const forbidden = decisions.forbidden.filter((f) => f.transactionIndex === transactionIndex);
    if (forbidden.some((f) => f.invoiceId === null)) return;
    const invoice = invoices.find(
      (i) => !used.has(i.id) && i.amountMinor === t.amountMinor && !forbidden.some((f) => f.invoiceId === i.id),
    );
    if (!invoice) return;
    used.add(invoice.id);
    matches.push({ transactionIndex, invoiceId: invoice.id, score: 0.9, explanation: 'amount equal' });
  });
  return matches;
};

describe('bank statements service', () => {
  let service: BankStatementsService;
  let accounts: AccountsService;
  let alice = '';
  let bob = '';
  const aliceAccounts: string[] = [];
  const invoiceIds: Record<string, string> = {};

  const b64 = (text: string) => Buffer.from(text).toString('base64');
  async function invoice(owner: string, account: string, key: string, amountMinor: number) {
    const { pool } = t().database;
    const message = await pool.query(
      `insert into mail_messages (owner_id, account_id, origin, is_candidate) values ($1, $2, $3, true) returning id`,
      [owner, account, `m-${key}`],
    );
    const row = await pool.query(
      `insert into invoices (owner_id, dedupe_key, message_row_id, vendor, amount, amount_minor, currency, invoice_date,
         invoice_number, account_ids)
       values ($1, $2, $3, $4, $5, $6, 'EUR', '2026-03-01', $2, $7) returning id`,
      [owner, key, message.rows[0].id, `Vendor ${key}`, (amountMinor / 100).toFixed(2), amountMinor, [account]],
    );
    invoiceIds[key] = row.rows[0].id;
  }

  beforeAll(async () => {
    const { db } = t().database;
    const users = new UsersService(new UsersRepository(db));
    accounts = new AccountsService(new AccountsRepository(db));
    alice = (await users.create({ email: 'alice@bank.example', displayName: 'Alice' })).id;
    bob = (await users.create({ email: 'bob@bank.example', displayName: 'Bob' })).id;
    for (const email of ['alice.work@example.com', 'alice.home@example.com']) {
      aliceAccounts.push((await accounts.connect(alice, { provider: 'imap', email })).userId);
    }
    const bobAccount = (await accounts.connect(bob, { provider: 'imap', email: 'bob@example.com' })).userId;
    await invoice(alice, aliceAccounts[0]!, 'A-100', 12_000);
    await invoice(alice, aliceAccounts[1]!, 'A-200', 4_550);
    await invoice(bob, bobAccount, 'B-100', 12_000);
    service = new BankStatementsService(db, accounts, new PgBlobStore(db, 'documents'), readFile, reconcile, 4096);

    statements.set('march.csv', {
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
          closingBalanceMinor: 100_000 - 12_000 - 4_550 + 50_000,
          transactions: [
            tx('2026-03-03', 12_000, 'debit', 'ACME A-100'),
            tx('2026-03-05', 50_000, 'credit', 'Customer payment'),
            tx('2026-03-09', 4_550, 'debit', 'Card payment'),
          ],
          warnings: [],
        },
      ],
    });
  });
  afterAll(() => statements.clear());

  it('stores an upload as pending, analyses it, and shows the matches (spec §3)', async () => {
    const id = await service.receive(alice, { filename: 'march.csv', file_data: b64('march.csv') });
    expect((await service.list(alice, 20, 0)).statements[0]).toMatchObject({ id, status: 'pending' });
    const message = await service.analyze(alice, id);
    expect(message).toMatch(/3 transaction\(s\) read from march\.csv, 2 matched/);
    const analysis = await service.get(alice, id);
    expect(analysis).toMatchObject({
      status: 'processed',
      bank_name: 'Test Bank',
      account_number: 'DE89370400440532013000',
      start_date: '2026-03-01',
      end_date: '2026-03-31',
      opening_balance: '1000.00',
      reconciliation_result: { total_transactions: 3, matched_transactions: 2, unmatched_transactions: 1 },
    });
    expect(analysis.transactions.map((x) => [x.date, x.amount, x.type, x.matched_invoice_id])).toEqual([
      ['2026-03-03', 120, 'debit', invoiceIds['A-100']],
      ['2026-03-05', 500, 'credit', null],
      ['2026-03-09', 45.5, 'debit', invoiceIds['A-200']],
    ]);
    expect(analysis.transactions[0]!.matched_invoice).toMatchObject({ vendor: 'Vendor A-100', amount: '120.00' });
    // The invoice list says which transaction paid each invoice (the card shows it).
    const listed = await new InvoicesService(
      t().database.db,
      accounts,
      new PgBlobStore(t().database.db, 'documents'),
    ).list(alice, InvoiceListQuerySchema.parse({ user_ids: aliceAccounts.join(','), has_attachments: 'false' }));
    const byNumber = new Map(listed.invoices.map((i) => [i.invoice_number, i.payment]));
    expect(byNumber.get('A-100')).toEqual({
      statement_id: id,
      transaction_id: analysis.transactions[0]!.id,
      date: '2026-03-03',
      amount: 120,
      currency: 'EUR',
      description: 'ACME A-100',
    });
    // Running it again (a retried job) stores the same, nothing twice.
    await service.analyze(alice, id);
    expect((await service.get(alice, id)).transactions).toHaveLength(3);
    await service.clearAll(alice);
  });

  it('never matches another person’s invoice, and upload-multi narrows to the caller’s accounts', async () => {
    const id = await service.receive(alice, {
      filename: 'march.csv',
      file_data: b64('march.csv'),
      user_ids: [aliceAccounts[1]!],
    });
    await service.analyze(alice, id);
    const matched = (await service.get(alice, id)).transactions.map((x) => x.matched_invoice_id);
    // Only the home account's invoice is in scope; Bob's 120.00 invoice is never a candidate.
    expect(matched).toEqual([null, null, invoiceIds['A-200']]);
    await expect(
      service.receive(alice, { filename: 'march.csv', file_data: b64('march.csv'), user_ids: [bob] }),
    ).rejects.toThrow('Account not found');
    await expect(service.get(bob, id)).rejects.toThrow('Bank statement not found');
    expect((await service.list(bob, 20, 0)).total).toBe(0);
    await service.clearAll(alice);
  });

  it('keeps manual matches and unmatches through re-analysis', async () => {
    const id = await service.receive(alice, { filename: 'march.csv', file_data: b64('march.csv') });
    await service.analyze(alice, id);
    const [first, , third] = (await service.get(alice, id)).transactions;
    await service.unmatchManually(alice, id, first!.id);
    // A-100 now paid by the third row, by hand (it leaves nothing else matched to it).
    const manual = await service.matchManually(alice, id, third!.id, invoiceIds['A-100']!);
    expect(manual).toMatchObject({ matched_invoice_id: invoiceIds['A-100'], match_source: 'manual' });
    await expect(service.matchManually(bob, id, third!.id, invoiceIds['A-100']!)).rejects.toThrow(
      'Transaction not found',
    );
    await expect(service.matchManually(alice, id, third!.id, invoiceIds['B-100']!)).rejects.toThrow(
      'Invoice not found',
    );

    await service.prepareRetry(alice, id);
    await service.analyze(alice, id);
    const after = (await service.get(alice, id)).transactions;
    expect(after.map((x) => [x.matched_invoice_id, x.match_source])).toEqual([
      [null, 'manual'],
      [null, null],
      [invoiceIds['A-100'], 'manual'],
    ]);
    await service.clearAll(alice);
  });

  it('refuses what is not a statement file, and marks an unreadable one failed with the reason', async () => {
    await expect(service.receive(alice, { filename: 'photo.png', file_data: b64('png') })).rejects.toThrow(
      NOT_A_PDF_MESSAGE,
    );
    await expect(service.receive(alice, { filename: 'fake.pdf', file_data: b64('not a pdf') })).rejects.toThrow(
      NOT_A_PDF_MESSAGE,
    );
    await expect(service.receive(alice, { filename: 'a.csv', file_data: '!!not base64!!' })).rejects.toThrow(
      'file_data is not base64',
    );
    await expect(
      service.receive(alice, { filename: 'big.csv', file_data: Buffer.alloc(5000).toString('base64') }),
    ).rejects.toThrow('larger than');

    const id = await service.receive(alice, { filename: 'other.csv', file_data: b64('other.csv') });
    await expect(service.analyze(alice, id)).rejects.toThrow('not a bank statement this product can read');
    expect(await service.get(alice, id)).toMatchObject({
      status: 'failed',
      error: 'not a bank statement this product can read',
      transactions: [],
    });
    expect(await service.summary(alice)).toMatchObject({ total_statements: 1, failed: 1, processed: 0, pending: 0 });
    expect(await service.clearAll(alice)).toBe(1);
  });

  it('shows a file name without paths, control or direction characters', () => {
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('C:\\Users\\me\\stmt.pdf')).toBe('stmt.pdf');
    expect(displayName('inv\u202eoice\u0000.pdf')).toBe('invoice.pdf');
    expect(displayName('\u0000')).toBe('statement');
  });
});
