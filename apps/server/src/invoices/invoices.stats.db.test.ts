import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type InvoiceStats, minorUnitsToDecimal } from '@invoicebox/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import { migrationsFolder } from '../db/migrate';
import { users } from '../db/schema';
import { uuidArray } from '../db/sql-arrays';
import type { ExtractedInvoiceFields } from '../mail/field-extractor';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

/** GET /invoices/stats as it was computed before invoice_totals: from every invoice in scope. */
async function statsFromInvoices(db: Db, ownerId: string, accountIds: string[]): Promise<InvoiceStats> {
  const empty = { total_invoices: 0, total_amount: 0, this_month_amount: 0, last_month_amount: 0 };
  if (accountIds.length === 0) return { ...empty, currency: 'USD', by_currency: [], by_month: [] };
  const rows = (
    await db.execute(sql`
      select coalesce(currency, 'USD') as currency, count(*)::int as invoices,
        coalesce(sum(amount_minor), 0)::bigint as total,
        coalesce(sum(amount_minor) filter (where invoice_date like to_char(now(), 'YYYY-MM') || '%'), 0)::bigint as this_month,
        coalesce(sum(amount_minor) filter (
          where invoice_date like to_char(now() - interval '1 month', 'YYYY-MM') || '%'), 0)::bigint as last_month
      from invoices i
      where i.owner_id = ${ownerId} and i.account_ids && ${uuidArray(accountIds)}
      group by 1
      order by count(*) desc, 1`)
  ).rows as Array<{ currency: string; invoices: number; total: string; this_month: string; last_month: string }>;
  const months = (
    await db.execute(sql`
      select left(invoice_date, 7) as month, coalesce(currency, 'USD') as currency, count(*)::int as invoices,
        coalesce(sum(amount_minor), 0)::bigint as total
      from invoices i
      where i.owner_id = ${ownerId} and i.account_ids && ${uuidArray(accountIds)}
        and invoice_date ~ '^[0-9]{4}-[0-9]{2}'
        and left(invoice_date, 7) between to_char(now() - interval '11 months', 'YYYY-MM') and to_char(now(), 'YYYY-MM')
      group by 1, 2
      order by 1, 2`)
  ).rows as Array<{ month: string; currency: string; invoices: number; total: string }>;
  const toNumber = (minor: string, currency: string) => Number(minorUnitsToDecimal(Number(minor), currency));
  const byCurrency = rows.map((r) => ({
    currency: r.currency,
    invoices: r.invoices,
    total_amount: toNumber(r.total, r.currency),
    this_month_amount: toNumber(r.this_month, r.currency),
    last_month_amount: toNumber(r.last_month, r.currency),
  }));
  const primary = byCurrency[0];
  return {
    total_invoices: byCurrency.reduce((n, c) => n + c.invoices, 0),
    total_amount: primary?.total_amount ?? 0,
    this_month_amount: primary?.this_month_amount ?? 0,
    last_month_amount: primary?.last_month_amount ?? 0,
    currency: primary?.currency ?? 'USD',
    by_currency: byCurrency,
    by_month: months.map((m) => ({
      month: m.month,
      currency: m.currency,
      invoices: m.invoices,
      total_amount: toNumber(m.total, m.currency),
    })),
  };
}

describe('GET /invoices/stats from the maintained totals', () => {
  let dir: string;
  let db: Db;
  let accounts: AccountsService;
  let service: InvoicesService;
  const a = { id: '', one: '', two: '', three: '' };
  const b = { id: '', one: '' };
  let thisMonth = '';
  let lastMonth = '';

  /** Every `user_ids` the endpoint can be asked for (and none), compared with the old computation. */
  async function expectSameAsBefore(label: string): Promise<void> {
    const asks: Array<string | undefined> = [
      undefined,
      a.one,
      a.two,
      a.three,
      `${a.one},${a.two}`,
      `${a.two},${a.three}`,
      `${a.one},${a.two},${a.three}`,
      b.one,
      `${a.one},${b.one}`,
      'not-a-uuid',
    ];
    for (const owner of [a.id, b.id]) {
      for (const ask of asks) {
        const ids = await accounts.resolveAccountIds(owner, ask?.split(','));
        const expected = await statsFromInvoices(db, owner, ids);
        expect(await service.stats(owner, ask), `${label}: owner ${owner}, user_ids ${ask}`).toEqual(expected);
      }
    }
  }

  beforeAll(async () => {
    db = t().database.db;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-stats-'));
    const blobs = new LocalBlobStore(dir);
    accounts = new AccountsService(new AccountsRepository(db));
    service = new InvoicesService(db, accounts, blobs);
    const [owner, other] = await db
      .insert(users)
      .values([
        { email: 'a@example.com', displayName: 'A' },
        { email: 'b@example.com', displayName: 'B' },
      ])
      .returning();
    a.id = owner!.id;
    b.id = other!.id;
    for (const name of ['one', 'two', 'three'] as const) {
      a[name] = (await accounts.connect(a.id, { provider: 'mbox', email: `${name}@a.example` })).userId;
    }
    b.one = (await accounts.connect(b.id, { provider: 'mbox', email: 'one@b.example' })).userId;
    const months = (
      await db.execute(
        sql`select to_char(now(), 'YYYY-MM') as this, to_char(now() - interval '1 month', 'YYYY-MM') as last`,
      )
    ).rows[0] as { this: string; last: string };
    thisMonth = months.this;
    lastMonth = months.last;

    // Fields by file name: currencies with 0, 2 and 3 decimals and none, amounts and none, dates this month, last
    // month, long ago, none, and not ISO at all.
    const fields = new Map<string, ExtractedInvoiceFields>();
    const currencies = ['EUR', 'USD', 'JPY', 'KWD', null];
    const dates = [`${thisMonth}-03`, `${lastMonth}-28`, '2021-02-14', null, 'March 5, 2024', `${thisMonth}`, '2024'];
    for (let i = 0; i < 70; i++) {
      fields.set(`doc-${i}.pdf`, {
        vendor: `Vendor ${i % 4}`,
        amount: i % 9 === 0 ? null : (i * 37) % 1000,
        currency: currencies[i % currencies.length]!,
        invoice_date: dates[i % dates.length]!,
        invoice_number: `N-${i}`,
      });
    }
    const ingest = new IngestService(db, blobs, {
      extract: async ({ filename }) => fields.get(filename) ?? null,
    });
    const mails = async function* (prefix: string, docs: number[]) {
      for (const i of docs) {
        yield {
          ok: true as const,
          origin: `${prefix}-${i}`,
          source: buildMail({
            messageId: `<${prefix}-${i}@x>`,
            from: `Billing <billing${i % 4}@vendor.example>`,
            subject: `Invoice ${i}`,
            attachments: [{ filename: `doc-${i}.pdf`, contentType: 'application/pdf', content: `%PDF-1.4 doc ${i}` }],
          }),
        };
      }
    };
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    // Overlapping documents through A's accounts, two of the imports at once: invoices seen through one, two
    // and three accounts.
    await Promise.all([
      ingest.ingest(a.id, a.one, mails('one', range(0, 40))),
      ingest.ingest(a.id, a.two, mails('two', range(25, 60))),
    ]);
    await ingest.ingest(a.id, a.three, mails('three', range(35, 50)));
    await ingest.ingest(b.id, b.one, mails('b', range(10, 70)));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('equals the old computation for every scope, and reads no invoice to do it', async () => {
    const [{ n }] = (await db.execute(sql`select count(*)::int as n from invoices`)).rows as [{ n: number }];
    expect(n).toBe(120);
    const stats = await service.stats(a.id, `${a.one},${a.two},${a.three}`);
    expect(stats.total_invoices).toBe(60);
    expect(stats.by_currency.map((c) => c.currency).sort()).toEqual(['EUR', 'JPY', 'KWD', 'USD']);
    expect(stats.this_month_amount).toBeGreaterThan(0);
    // The month trend: this month and last month, per currency (the other dates are older or not dates).
    expect([...new Set(stats.by_month.map((m) => m.month))]).toEqual([lastMonth, thisMonth].sort());
    expect(stats.by_month.filter((m) => m.month === thisMonth).map((m) => m.currency)).toEqual([
      'EUR',
      'JPY',
      'KWD',
      'USD',
    ]);
    await expectSameAsBefore('after the imports');
    for (const scope of ['all', 'custom'] as const) {
      await accounts.updateScope(a.id, scope, [a.two, a.three]);
      await expectSameAsBefore(`scope ${scope}`);
    }

    // Counted on one connection within one transaction: the statistics views show this connection's reads that are
    // not flushed yet (flushing waits for the connection to be idle), so the difference is what `read` did.
    const scansOfInvoices = async (read: (tx: Db) => Promise<unknown>) =>
      db.transaction(async (tx) => {
        const scans = async () => {
          const [row] = (
            await tx.execute(sql`
              select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans
              from pg_stat_xact_user_tables where relname = 'invoices'`)
          ).rows as Array<{ scans: string }>;
          return Number(row?.scans ?? 0);
        };
        const before = await scans();
        await read(tx as unknown as Db);
        return (await scans()) - before;
      });
    const onTx = (tx: Db) =>
      new InvoicesService(tx, new AccountsService(new AccountsRepository(tx)), new LocalBlobStore(dir));
    expect(await scansOfInvoices((tx) => onTx(tx).stats(a.id))).toBe(0);
    expect(await scansOfInvoices((tx) => onTx(tx).stats(a.id, `${a.one},${a.three}`))).toBe(0);
    // The check itself sees a read of the invoices.
    expect(await scansOfInvoices((tx) => statsFromInvoices(tx, a.id, [a.one]))).toBeGreaterThan(0);
  });

  it('stays equal through field changes, status changes, deletions and removed accounts', async () => {
    await db.execute(sql`
      update invoices set amount_minor = amount_minor * 3 + 7, currency = case when currency = 'USD' then null else currency end
      where owner_id = ${a.id} and invoice_number like 'N-1%'`);
    await expectSameAsBefore('amounts and currencies changed');
    await db.execute(sql`
      update invoices set invoice_date = case when invoice_date is null then ${`${lastMonth}-01`} else null end
      where owner_id = ${a.id} and invoice_number like 'N-3%'`);
    await expectSameAsBefore('dates changed');
    const before = (await db.execute(sql`select * from invoice_totals order by 1, 2, 3, 4`)).rows;
    await db.execute(sql`update invoices set status = 'uploaded', drive_file_id = 'x' where owner_id = ${a.id}`);
    expect((await db.execute(sql`select * from invoice_totals order by 1, 2, 3, 4`)).rows).toEqual(before);
    await db.execute(sql`delete from invoices where owner_id = ${a.id} and invoice_number in ('N-2', 'N-27', 'N-45')`);
    await expectSameAsBefore('invoices deleted');
    await db.execute(sql`
      update invoices set account_ids = array_remove(account_ids, ${a.two}::uuid)
      where owner_id = ${a.id} and invoice_number like 'N-4%'`);
    await expectSameAsBefore('an account taken off some invoices');
    // Removing an account deletes its messages and, through them, their invoices.
    await accounts.setPrimary(a.id, a.three);
    await accounts.remove(a.id, a.one);
    await expectSameAsBefore('an account removed');
    await db.delete(users).where(sql`${users.id} = ${b.id}`);
    expect(
      (await db.execute(sql`select count(*)::int as n from invoice_totals where owner_id = ${b.id}`)).rows,
    ).toEqual([{ n: 0 }]);
    expect((await db.execute(sql`select count(*)::int as n from invoice_totals where invoices <= 0`)).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('fills the totals from the invoices when the migration runs on a database that has some', async () => {
    const file = (await fs.readdir(migrationsFolder())).find((name) => name.endsWith('_invoice_totals_triggers.sql'));
    const migration = await fs.readFile(path.join(migrationsFolder(), file!), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').at(-1)!;
    expect(backfill).toMatch(/^\s*INSERT INTO "invoice_totals"/);
    const kept = (await db.execute(sql`select * from invoice_totals order by 1, 2, 3, 4`)).rows;
    await db.execute(sql`delete from invoice_totals`);
    await db.execute(sql.raw(backfill));
    expect((await db.execute(sql`select * from invoice_totals order by 1, 2, 3, 4`)).rows).toEqual(kept);
  });
});
