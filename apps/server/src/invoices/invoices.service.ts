import {
  type AccountInvoicesResponse,
  type Invoice,
  type InvoiceListQuery,
  type InvoiceListResponse,
  type InvoiceStats,
  minorUnitsToDecimal,
  storedStatusForFilter,
  UserIdsQuerySchema,
} from '@invoicebox/core';
import { type SQL, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import type { BlobStore } from './blob.store';

/** One line of GET /invoices/export: the card without the file bytes, file names joined. */
export type ExportRow = Omit<Invoice, 'attachments'> & { attachments: string };

/** Attachments up to this size travel in the card payload as base64 (spec §3); larger ones are downloaded. */
export const INLINE_ATTACHMENT_BYTES = 1024 * 1024;
/** At most this many attachment bytes inline per response; past it, cards carry the `id` for the download only. */
export const INLINE_RESPONSE_BYTES = 8 * 1024 * 1024;

/** A budget of inline bytes shared by the cards of one response. */
class InlineBudget {
  constructor(private left: number) {}
  take(size: number): boolean {
    if (size > INLINE_ATTACHMENT_BYTES || size > this.left) return false;
    this.left -= size;
    return true;
  }
}

const MAX_EXPORT_ROWS = 100_000;

interface AttachmentRow {
  message_row_id: string;
  position: number;
  sha256: string;
  filename: string;
  size: number;
  content_type: string;
}

/** A uuid[] parameter (ids come from the database or are validated uuids; the cast rejects anything else). */
const uuidArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** `user_ids` as a comma list, parsed by the one schema the API shares with the web app. */
const splitIds = (value: string | undefined) => (value === undefined ? undefined : UserIdsQuerySchema.parse(value));

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
    // Page, total and scanned emails in parallel (separate connections of the pool).
    const [page, total, emails] = await Promise.all([
      this.db.execute(sql`
        select i.id, i.vendor, i.email, i.amount, i.amount_minor, i.currency, i.invoice_date, i.invoice_number,
               i.status, i.drive_file_id, i.category, i.details, i.message_row_id
        from invoices i
        where ${where}
        order by i.invoice_date desc nulls last, i.created_at desc, i.id
        limit ${query.limit} offset ${offset}`),
      this.db.execute(sql`select count(*)::int as n from invoices i where ${where}`),
      this.db.execute(sql`
        select count(*)::int as n from mail_messages
        where owner_id = ${ownerId} and account_id = any(${uuidArray(accountIds)})`),
    ]);
    const rows = page.rows as Array<Record<string, unknown>>;
    const files = await this.attachmentsOf(rows.map((r) => r.message_row_id as string));
    const budget = new InlineBudget(INLINE_RESPONSE_BYTES);
    const invoices: Invoice[] = [];
    for (const row of rows)
      invoices.push(await this.toInvoice(row, files.get(row.message_row_id as string) ?? [], budget));
    return {
      invoices,
      total: (total.rows[0] as { n: number } | undefined)?.n ?? 0,
      total_emails: (emails.rows[0] as { n: number } | undefined)?.n ?? 0,
    };
  }

  /** The qualifying files of the messages of one page, in one query. */
  private async attachmentsOf(messageRowIds: string[]): Promise<Map<string, AttachmentRow[]>> {
    const byMessage = new Map<string, AttachmentRow[]>();
    if (messageRowIds.length === 0) return byMessage;
    const rows = (
      await this.db.execute(sql`
        select message_row_id, position, sha256, filename, size, content_type from message_attachments
        where message_row_id = any(${uuidArray(messageRowIds)}) and qualifies
        order by message_row_id, position`)
    ).rows as unknown as AttachmentRow[];
    for (const row of rows) {
      const list = byMessage.get(row.message_row_id) ?? [];
      list.push(row);
      byMessage.set(row.message_row_id, list);
    }
    return byMessage;
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

  /**
   * GET /gmail/accounts/invoices: the same list per account in scope (an invoice seen through two accounts is listed
   * under both), each with its own total and count of scanned emails.
   */
  async listByAccount(ownerId: string, query: InvoiceListQuery): Promise<AccountInvoicesResponse> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, splitIds(query.user_ids));
    const { accounts } = await this.accounts.list(ownerId);
    const groups: AccountInvoicesResponse['accounts'] = [];
    for (const account of accounts) {
      if (!accountIds.includes(account.userId)) continue;
      const one = await this.list(ownerId, { ...query, user_ids: account.userId });
      groups.push({ user_id: account.userId, email: account.email, ...one });
    }
    return { accounts: groups };
  }

  /** Rows for the export (same filters, same order), read in pages so memory stays flat. */
  async *exportRows(ownerId: string, query: Omit<InvoiceListQuery, 'page' | 'limit'>): AsyncGenerator<ExportRow> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, splitIds(query.user_ids));
    if (accountIds.length === 0) return;
    const where = this.filters(ownerId, accountIds, { ...query, page: 1, limit: 1 });
    const pageSize = 500;
    for (let offset = 0; offset < MAX_EXPORT_ROWS; offset += pageSize) {
      const rows = (
        await this.db.execute(sql`
          select i.id, i.vendor, i.email, i.amount, i.amount_minor, i.currency, i.invoice_date, i.invoice_number,
                 i.status, i.drive_file_id, i.category, i.details,
                 (select string_agg(a.filename, '; ' order by a.position) from message_attachments a
                   where a.message_row_id = i.message_row_id and a.qualifies) as attachments
          from invoices i
          where ${where}
          order by i.invoice_date desc nulls last, i.created_at desc, i.id
          limit ${pageSize} offset ${offset}`)
      ).rows as Array<Record<string, unknown>>;
      for (const r of rows) {
        yield {
          id: r.id as string,
          vendor: (r.vendor as string | null) ?? null,
          email: (r.email as string | null) ?? null,
          amount: (r.amount as string | null) ?? null,
          amount_minor: r.amount_minor === null ? null : Number(r.amount_minor),
          currency: (r.currency as string | null) ?? null,
          invoice_date: (r.invoice_date as string | null) ?? null,
          invoice_number: (r.invoice_number as string | null) ?? null,
          status: r.status as ExportRow['status'],
          drive_file_id: (r.drive_file_id as string | null) ?? null,
          category: r.category as string,
          details: (r.details as string | null) ?? null,
          attachments: (r.attachments as string | null) ?? '',
        };
      }
      if (rows.length < pageSize) return;
    }
  }

  /** One attachment of one of the owner's invoices, as a stream, for the download endpoint. */
  async attachmentStream(ownerId: string, invoiceId: string, position: number) {
    const [row] = (
      await this.db.execute(sql`
        select a.sha256, a.filename, a.content_type, a.size
        from invoices i join message_attachments a on a.message_row_id = i.message_row_id
        where i.owner_id = ${ownerId} and i.id = ${invoiceId}::uuid and a.position = ${position}`)
    ).rows as Array<{ sha256: string; filename: string; content_type: string; size: number }>;
    if (!row) return undefined;
    return {
      filename: row.filename,
      contentType: row.content_type,
      size: Number(row.size),
      stream: this.blobs.stream(row.sha256),
    };
  }

  /** A missing file (a blob store restored without it, say) leaves the card without data, not the list failing. */
  private async inlineData(sha256: string): Promise<{ data?: string }> {
    try {
      return { data: (await this.blobs.get(sha256)).toString('base64') };
    } catch {
      return {};
    }
  }

  private accountFilter(accountIds: string[]): SQL {
    return sql`i.account_ids && ${uuidArray(accountIds)}`;
  }

  private filters(ownerId: string, accountIds: string[], q: InvoiceListQuery): SQL {
    const parts: SQL[] = [sql`i.owner_id = ${ownerId}`, this.accountFilter(accountIds)];
    if (q.vendor) parts.push(sql`i.vendor = ${q.vendor}`);
    if (q.month) {
      // A range on the ISO date text (not LIKE): the (owner, date) index serves it.
      const [y, m] = q.month.split('-').map(Number) as [number, number];
      const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
      parts.push(sql`i.invoice_date >= ${`${q.month}-01`} and i.invoice_date < ${`${next}-01`}`);
    }
    if (q.status) parts.push(sql`i.status = ${storedStatusForFilter(q.status)}`);
    if (q.category) parts.push(sql`i.category = ${q.category}`);
    if (q.has_attachments) parts.push(sql`i.has_attachments`);
    if (q.search?.trim()) {
      // Literal search: % and _ typed by a person are not wildcards.
      const needle = `%${q.search
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(sql`i.search_text like ${needle}`);
    }
    return sql.join(parts, sql` and `);
  }

  private async toInvoice(
    row: Record<string, unknown>,
    attachments: AttachmentRow[],
    budget: InlineBudget,
  ): Promise<Invoice> {
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
          ...(budget.take(Number(a.size)) ? await this.inlineData(a.sha256) : {}),
        })),
      ),
    };
  }
}
