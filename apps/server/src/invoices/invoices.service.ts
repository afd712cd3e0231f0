import {
  type Invoice,
  type InvoiceListQuery,
  type InvoiceListResponse,
  type InvoiceStats,
  minorUnitsToDecimal,
  storedStatusForFilter,
} from '@invoicebox/core';
import { type SQL, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import type { BlobStore } from './blob.store';

/** Attachments up to this size travel in the card payload as base64 (spec §3); larger ones are downloaded. */
export const INLINE_ATTACHMENT_BYTES = 1024 * 1024;

const splitIds = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Reads of the invoice store: the list with the filters of spec §7 and the stats. Every query is scoped to the
 * caller, and to the accounts of their scope (or the `user_ids` they asked for, intersected with their own).
 */
export class InvoicesService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    private readonly blobs: BlobStore,
  ) {}

  async list(ownerId: string, query: InvoiceListQuery): Promise<InvoiceListResponse> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, splitIds(query.user_ids));
    if (accountIds.length === 0) return { invoices: [], total: 0, total_emails: 0 };
    const where = this.filters(ownerId, accountIds, query);
    const offset = (query.page - 1) * query.limit;
    const rows = (
      await this.db.execute(sql`
        select i.id, i.vendor, i.email, i.amount, i.amount_minor, i.currency, i.invoice_date, i.invoice_number,
               i.status, i.drive_file_id, i.category, i.details, i.message_row_id, count(*) over () as total
        from invoices i
        where ${where}
        order by i.invoice_date desc nulls last, i.created_at desc, i.id
        limit ${query.limit} offset ${offset}`)
    ).rows as Array<Record<string, unknown>>;
    const [emails] = (
      await this.db.execute(sql`
        select count(*)::int as n from mail_messages
        where owner_id = ${ownerId} and account_id in (${sql.join(
          accountIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`)
    ).rows as Array<{ n: number }>;
    const invoices = await Promise.all(rows.map((row) => this.toInvoice(row)));
    return {
      invoices,
      total: rows.length > 0 ? Number(rows[0]!.total) : 0,
      total_emails: emails?.n ?? 0,
    };
  }

  async stats(ownerId: string, userIds?: string): Promise<InvoiceStats> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, splitIds(userIds));
    const empty = { total_invoices: 0, total_amount: 0, this_month_amount: 0, last_month_amount: 0 };
    if (accountIds.length === 0) return { ...empty, currency: 'USD', by_currency: [] };
    const inScope = this.accountFilter(accountIds);
    const rows = (
      await this.db.execute(sql`
        select coalesce(currency, 'USD') as currency, count(*)::int as invoices,
          coalesce(sum(amount_minor), 0)::bigint as total,
          coalesce(sum(amount_minor) filter (where invoice_date like to_char(now(), 'YYYY-MM') || '%'), 0)::bigint as this_month,
          coalesce(sum(amount_minor) filter (
            where invoice_date like to_char(now() - interval '1 month', 'YYYY-MM') || '%'), 0)::bigint as last_month
        from invoices i
        where i.owner_id = ${ownerId} and ${inScope}
        group by 1
        order by count(*) desc, 1`)
    ).rows as Array<{ currency: string; invoices: number; total: string; this_month: string; last_month: string }>;
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
    };
  }

  /** The bytes of one attachment of one of the owner's invoices, for the download endpoint. */
  async attachment(ownerId: string, invoiceId: string, position: number) {
    const [row] = (
      await this.db.execute(sql`
        select a.sha256, a.filename, a.content_type
        from invoices i join message_attachments a on a.message_row_id = i.message_row_id
        where i.owner_id = ${ownerId} and i.id = ${invoiceId}::uuid and a.position = ${position}`)
    ).rows as Array<{ sha256: string; filename: string; content_type: string }>;
    if (!row) return undefined;
    return { filename: row.filename, contentType: row.content_type, bytes: await this.blobs.get(row.sha256) };
  }

  private accountFilter(accountIds: string[]): SQL {
    return sql`exists (select 1 from invoice_accounts ia where ia.invoice_id = i.id and ia.account_id in (${sql.join(
      accountIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}))`;
  }

  private filters(ownerId: string, accountIds: string[], q: InvoiceListQuery): SQL {
    const parts: SQL[] = [sql`i.owner_id = ${ownerId}`, this.accountFilter(accountIds)];
    if (q.vendor) parts.push(sql`i.vendor = ${q.vendor}`);
    if (q.month) parts.push(sql`i.invoice_date like ${`${q.month}%`}`);
    if (q.status) parts.push(sql`i.status = ${storedStatusForFilter(q.status)}`);
    if (q.category) parts.push(sql`i.category = ${q.category}`);
    if (q.has_attachments) {
      parts.push(
        sql`exists (select 1 from message_attachments a where a.message_row_id = i.message_row_id and a.qualifies)`,
      );
    }
    if (q.search?.trim()) {
      // Literal search: % and _ typed by a person are not wildcards.
      const needle = `%${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(sql`(
        i.vendor ilike ${needle} or i.email ilike ${needle} or i.details ilike ${needle} or i.invoice_number ilike ${needle}
        or exists (select 1 from mail_messages m where m.id = i.message_row_id
                   and (m.subject ilike ${needle} or m.sender_name ilike ${needle}))
        or exists (select 1 from message_attachments a where a.message_row_id = i.message_row_id
                   and a.filename ilike ${needle}))`);
    }
    return sql.join(parts, sql` and `);
  }

  private async toInvoice(row: Record<string, unknown>): Promise<Invoice> {
    const attachments = (
      await this.db.execute(sql`
        select position, sha256, filename, size, content_type from message_attachments
        where message_row_id = ${row.message_row_id as string}::uuid and qualifies
        order by position`)
    ).rows as Array<{ position: number; sha256: string; filename: string; size: number; content_type: string }>;
    return {
      id: row.id as string,
      vendor: (row.vendor as string | null) ?? null,
      email: (row.email as string | null) ?? null,
      amount: (row.amount as string | null) ?? null,
      amount_minor: row.amount_minor === null ? null : Number(row.amount_minor),
      currency: (row.currency as string | null) ?? null,
      invoice_date: (row.invoice_date as string | null) ?? null,
      invoice_number: (row.invoice_number as string | null) ?? null,
      status: row.status as Invoice['status'],
      drive_file_id: (row.drive_file_id as string | null) ?? null,
      category: row.category as string,
      details: (row.details as string | null) ?? null,
      attachments: await Promise.all(
        attachments.map(async (a) => ({
          id: String(a.position),
          filename: a.filename,
          size: Number(a.size),
          mimeType: a.content_type,
          ...(Number(a.size) <= INLINE_ATTACHMENT_BYTES
            ? { data: (await this.blobs.get(a.sha256)).toString('base64') }
            : {}),
        })),
      ),
    };
  }
}
