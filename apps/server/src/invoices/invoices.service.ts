import type { Readable } from 'node:stream';
import {
  type AccountInvoicesResponse,
  deriveFrequency,
  type Frequency,
  type Invoice,
  type InvoiceForwardedTo,
  type InvoiceListQuery,
  type InvoiceListResponse,
  type InvoiceStats,
  LOW_CONFIDENCE_FIELDS,
  type LowConfidenceField,
  minorUnitsToDecimal,
  storedStatusForFilter,
  UserIdsQuerySchema,
} from '@invoicebox/core';
import { type SQL, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import { uuidArray } from '../db/sql-arrays';
import { invoiceDocuments, suffixedName } from '../drive/drive-naming';
import { LOW_CONFIDENCE } from '../extraction/confidence';
import type { BlobStore } from './blob.store';

/** One line of GET /invoices/export: the card without the file bytes, file names joined. */
export type ExportRow = Omit<Invoice, 'attachments' | 'frequency' | 'drive_error'> & { attachments: string };

const MAX_EXPORT_ROWS = 100_000;
/** Invoice dates of a vendor that decide its frequency label (two years of a monthly rhythm). */
const FREQUENCY_DATES = 24;

interface AttachmentRow {
  message_row_id: string;
  position: number;
  sha256: string;
  filename: string;
  size: number;
  content_type: string;
  read_error: string | null;
}

/** A uuid[] parameter (ids come from the database or are validated uuids; the cast rejects anything else). */
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
    /** To whom each invoice was forwarded (the forwarding module); absent: the cards show no badge. */
    private readonly forwardedTo?: (
      ownerId: string,
      invoiceIds: string[],
    ) => Promise<Map<string, InvoiceForwardedTo[]>>,
  ) {}

  async list(ownerId: string, query: InvoiceListQuery): Promise<InvoiceListResponse> {
    const scope = await this.accounts.resolveAccountScope(ownerId, splitIds(query.user_ids));
    const accountIds = scope.ids;
    if (accountIds.length === 0) return { invoices: [], total: 0, total_emails: 0 };
    // Every account of the person in view (the usual case): owner_id alone scopes the rows, and the counts can
    // be answered from the owner indexes without testing each row's accounts.
    const where = this.filters(ownerId, scope.everyAccount ? null : accountIds, query);
    const offset = (query.page - 1) * query.limit;
    // Page, total and scanned emails in parallel (separate connections of the pool).
    const [page, total, emails] = await Promise.all([
      this.db.execute(sql`
        select i.id, i.vendor, i.email, i.amount, i.amount_minor, i.currency, i.invoice_date, i.invoice_number,
               i.document_type, i.status, i.drive_file_id, i.drive_error, i.category, i.details, i.message_row_id,
               i.extraction -> 'confidence' as confidence,
               p.statement_id as payment_statement_id, p.id as payment_transaction_id, p.date as payment_date,
               p.amount_minor as payment_amount_minor, p.currency as payment_currency,
               p.description as payment_description,
               exists (select 1 from mail_accounts a where a.id = any(i.account_ids) and a.is_sample) as sample
        from invoices i
        left join lateral (
          select t.statement_id, t.id, t.date, t.amount_minor, t.currency, t.description from bank_transactions t
          where t.owner_id = i.owner_id and t.matched_invoice_id = i.id limit 1
        ) p on true
        where ${where}
        order by i.invoice_date desc nulls last, i.created_at desc, i.id
        limit ${query.limit} offset ${offset}`),
      this.db.execute(sql`select count(*)::int as n from invoices i where ${where}`),
      this.db.execute(sql`
        select count(*)::int as n from mail_messages
        where owner_id = ${ownerId}${scope.everyAccount ? sql`` : sql` and account_id = any(${uuidArray(accountIds)})`}`),
    ]);
    const rows = page.rows as Array<Record<string, unknown>>;
    const [files, frequencies, forwarded] = await Promise.all([
      this.attachmentsOf(rows.map((r) => r.message_row_id as string)),
      this.frequencies(
        ownerId,
        rows.map((r) => r.vendor as string | null),
      ),
      this.forwardedTo?.(
        ownerId,
        rows.map((r) => r.id as string),
      ),
    ]);
    const invoices = rows.map((row) => ({
      ...this.toInvoice(row, files.get(row.message_row_id as string) ?? []),
      frequency: frequencies.get(row.vendor as string) ?? ('One-time' as const),
      ...(forwarded ? { forwarded_to: forwarded.get(row.id as string) ?? [] } : {}),
    }));
    return {
      invoices,
      total: (total.rows[0] as { n: number } | undefined)?.n ?? 0,
      total_emails: (emails.rows[0] as { n: number } | undefined)?.n ?? 0,
    };
  }

  /**
   * Spec §3 frequency of each vendor of a page: the rhythm of that vendor's last 24 invoice dates in all of the
   * person's mail (a vendor's rhythm does not depend on which mailbox is in view). One index range per vendor.
   */
  private async frequencies(ownerId: string, vendors: Array<string | null>): Promise<Map<string, Frequency>> {
    const distinct = [...new Set(vendors.filter((v): v is string => Boolean(v)))];
    const result = new Map<string, Frequency>();
    if (distinct.length === 0) return result;
    const rows = (
      await this.db.execute(sql`
        select v.vendor, array(
          select distinct i.invoice_date from invoices i
          where i.owner_id = ${ownerId} and i.vendor = v.vendor and i.invoice_date is not null
          order by i.invoice_date desc limit ${FREQUENCY_DATES}) as dates
        from unnest(${sql`array[${sql.join(
          distinct.map((v) => sql`${v}`),
          sql`, `,
        )}]::text[]`}) as v(vendor)`)
    ).rows as Array<{ vendor: string; dates: string[] }>;
    for (const row of rows) result.set(row.vendor, deriveFrequency(row.dates));
    return result;
  }

  /** The qualifying files of the messages of one page, in one query. */
  private async attachmentsOf(messageRowIds: string[]): Promise<Map<string, AttachmentRow[]>> {
    const byMessage = new Map<string, AttachmentRow[]>();
    if (messageRowIds.length === 0) return byMessage;
    const rows = (
      await this.db.execute(sql`
        select message_row_id, position, sha256, filename, size, content_type, read_error from message_attachments
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

  /**
   * GET /invoices/stats from invoice_totals, which triggers keep equal to the invoices (one row per account set,
   * currency and month, so a few rows where the invoices are many). An invoice seen through several accounts is one
   * row of one account set, so it counts once however many of its accounts are in scope, as before.
   */
  async stats(ownerId: string, userIds?: string): Promise<InvoiceStats> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, splitIds(userIds));
    const empty = { total_invoices: 0, total_amount: 0, this_month_amount: 0, last_month_amount: 0 };
    if (accountIds.length === 0) return { ...empty, currency: 'USD', by_currency: [], by_month: [] };
    const [rows, months] = await Promise.all([
      this.currencyTotals(ownerId, accountIds),
      this.monthTotals(ownerId, accountIds),
    ]);
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

  /** The month trend from invoice_totals: the last 12 months including this one, per currency. */
  private async monthTotals(ownerId: string, accountIds: string[]) {
    return (
      await this.db.execute(sql`
        select month, currency, sum(invoices)::int as invoices, sum(amount_minor)::bigint as total
        from invoice_totals
        where owner_id = ${ownerId} and account_ids && ${uuidArray(accountIds)}
          and month >= to_char(now() - interval '11 months', 'YYYY-MM') and month <= to_char(now(), 'YYYY-MM')
        group by month, currency
        having sum(invoices) > 0
        order by month, currency`)
    ).rows as Array<{ month: string; currency: string; invoices: number; total: string }>;
  }

  private async currencyTotals(ownerId: string, accountIds: string[]) {
    return (
      await this.db.execute(sql`
        select currency, sum(invoices)::int as invoices, sum(amount_minor)::bigint as total,
          coalesce(sum(amount_minor) filter (where month = to_char(now(), 'YYYY-MM')), 0)::bigint as this_month,
          coalesce(sum(amount_minor) filter (where month = to_char(now() - interval '1 month', 'YYYY-MM')), 0)::bigint
            as last_month
        from invoice_totals
        where owner_id = ${ownerId} and account_ids && ${uuidArray(accountIds)}
        group by currency
        having sum(invoices) > 0
        order by sum(invoices) desc, currency`)
    ).rows as Array<{ currency: string; invoices: number; total: string; this_month: string; last_month: string }>;
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

  /**
   * The documents of the filtered invoices for the ZIP export: each qualifying attachment once, named as the drive
   * names it (`YYYY/MM/<date vendor number>.ext`), names made unique within the archive.
   */
  async *exportDocuments(
    ownerId: string,
    query: Omit<InvoiceListQuery, 'page' | 'limit'>,
  ): AsyncGenerator<{ name: string; sha256: string }> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, splitIds(query.user_ids));
    if (accountIds.length === 0) return;
    const where = this.filters(ownerId, accountIds, { ...query, page: 1, limit: 1 });
    const used = new Set<string>();
    const pageSize = 500;
    for (let offset = 0; offset < MAX_EXPORT_ROWS; offset += pageSize) {
      const rows = (
        await this.db.execute(sql`
          select i.id, i.vendor, i.invoice_date, i.invoice_number, m.sent_at, i.created_at, i.dedupe_key,
                 (select json_agg(json_build_object('sha256', a.sha256, 'filename', a.filename) order by a.position)
                  from message_attachments a where a.message_row_id = i.message_row_id and a.qualifies) as files
          from invoices i join mail_messages m on m.id = i.message_row_id
          where ${where}
          order by i.invoice_date desc nulls last, i.created_at desc, i.id
          limit ${pageSize} offset ${offset}`)
      ).rows as Array<{
        vendor: string | null;
        invoice_date: string | null;
        invoice_number: string | null;
        sent_at: Date | string | null;
        created_at: Date | string;
        dedupe_key: string;
        files: Array<{ sha256: string; filename: string }> | null;
      }>;
      for (const r of rows) {
        const { folder, documents } = invoiceDocuments(
          {
            invoiceDate: r.invoice_date,
            vendor: r.vendor,
            invoiceNumber: r.invoice_number,
            mailDate: r.sent_at ?? r.created_at,
            mainSha256: r.dedupe_key,
          },
          r.files ?? [],
        );
        const dir = folder.slice(1).join('/'); // YYYY/MM (the archive's Invoices/ is added by the writer)
        for (const { file, name: base } of documents) {
          let name = `${dir}/${base}`;
          for (let n = 2; used.has(name.toLowerCase()); n++) name = `${dir}/${suffixedName(base, n)}`;
          used.add(name.toLowerCase());
          yield { name, sha256: file.sha256 };
        }
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

  /** A stored document by hash, opened only if present (the ZIP export lists missing ones instead of failing). */
  async documentStream(sha256: string): Promise<Readable | undefined> {
    return (await this.blobs.has(sha256)) ? this.blobs.stream(sha256) : undefined;
  }

  private accountFilter(accountIds: string[]): SQL {
    return sql`i.account_ids && ${uuidArray(accountIds)}`;
  }

  /** The WHERE of a list; `accountIds` null means every account of the owner (no account test needed). */
  private filters(ownerId: string, accountIds: string[] | null, q: InvoiceListQuery): SQL {
    const parts: SQL[] = [sql`i.owner_id = ${ownerId}`];
    if (accountIds) parts.push(this.accountFilter(accountIds));
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
    if (q.document_type === 'financial') parts.push(sql`invoice_counts(i.document_type)`);
    if (q.document_type === 'other') parts.push(sql`not invoice_counts(i.document_type)`);
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

  /** A card: fields and attachment metadata with each file's download link; never the bytes (light pages). */
  private toInvoice(row: Record<string, unknown>, attachments: AttachmentRow[]): Invoice {
    const id = row.id as string;
    return {
      id,
      vendor: (row.vendor as string | null) ?? null,
      email: (row.email as string | null) ?? null,
      amount: (row.amount as string | null) ?? null,
      amount_minor: row.amount_minor === null ? null : Number(row.amount_minor),
      currency: (row.currency as string | null) ?? null,
      invoice_date: (row.invoice_date as string | null) ?? null,
      invoice_number: (row.invoice_number as string | null) ?? null,
      ...(row.document_type === undefined
        ? {}
        : { document_type: (row.document_type as Invoice['document_type']) ?? null }),
      status: row.status as Invoice['status'],
      drive_file_id: (row.drive_file_id as string | null) ?? null,
      category: row.category as string,
      details: (row.details as string | null) ?? null,
      frequency: 'One-time',
      drive_error: (row.drive_error as string | null) ?? null,
      ...(row.confidence === undefined ? {} : { low_confidence_fields: lowConfidenceFields(row) }),
      ...(row.sample === undefined ? {} : { sample: row.sample === true }),
      ...(row.payment_transaction_id === undefined
        ? {}
        : {
            payment:
              row.payment_transaction_id === null
                ? null
                : {
                    statement_id: row.payment_statement_id as string,
                    transaction_id: row.payment_transaction_id as string,
                    date: row.payment_date as string,
                    amount: Number(
                      minorUnitsToDecimal(Number(row.payment_amount_minor), row.payment_currency as string),
                    ),
                    currency: row.payment_currency as string,
                    description: row.payment_description as string,
                  },
          }),
      attachments: attachments.map((a) => ({
        id: String(a.position),
        filename: a.filename,
        size: Number(a.size),
        mimeType: a.content_type,
        read_error: a.read_error ?? null,
        url: `/api/v1/invoices/${id}/attachments/${a.position}`,
      })),
    };
  }
}

/**
 * The fields with a value whose reading was below LOW_CONFIDENCE (stored per field in `extraction.confidence`); the
 * card marks them. Invoices read before confidences were stored have none.
 */
function lowConfidenceFields(row: Record<string, unknown>): LowConfidenceField[] {
  const confidence = (row.confidence ?? {}) as Partial<Record<LowConfidenceField, unknown>>;
  const value: Record<LowConfidenceField, unknown> = {
    vendor: row.vendor,
    amount: row.amount,
    currency: row.currency,
    invoice_date: row.invoice_date,
    invoice_number: row.invoice_number,
  };
  return LOW_CONFIDENCE_FIELDS.filter((f) => {
    const c = confidence[f];
    return value[f] !== null && value[f] !== undefined && typeof c === 'number' && c < LOW_CONFIDENCE;
  });
}
