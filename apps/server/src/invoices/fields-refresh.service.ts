import { decimalToMinorUnits, formatCurrency, formatMinorUnits, invoiceCategory } from '@invoicebox/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uuidArray } from '../db/sql-arrays';
import type { PartyHints } from '../extraction/extraction.types';
import { EXTRACTION_RULES_VERSION } from '../extraction/version';
import { senderDomain } from '../mail/email-record';
import type {
  ExtractedInvoiceFields,
  FieldConfidence,
  FieldExtractInput,
  FieldExtractor,
} from '../mail/field-extractor';
import type { MailAttachment } from '../mail/mail-message';
import { extractAttachmentFields, extractBodyFields, withoutVendor } from '../mail/scan.service';
import type { BlobStore } from './blob.store';
import { extractionErrorRecord, searchTextOf } from './ingest.service';
import { invoiceHasDocument } from './invoices.tables';
import { ownPartyHints } from './party-hints';

const PAGE = 50;

const NO_BODY_FIELDS = { amount: null, currency: null, invoice_date: null, invoice_number: null, confidence: {} };

interface RefreshRow {
  id: string;
  vendor: string | null;
  amount: string | null;
  invoice_date: string | null;
  invoice_number: string | null;
  document_type: string | null;
  sender_name: string | null;
  sender_email: string | null;
  subject: string | null;
  sent_at: Date | string | null;
  /** False when the document is the mail's kept body. */
  has_attachments: boolean;
  files: Array<{ sha256: string; filename: string; content_type: string; size: number }> | null;
  names: string[] | null;
}

export interface FieldsRefreshSummary {
  /** Invoices read again with the current rules. */
  read: number;
  /** Of those, invoices whose fields changed. */
  changed: number;
  /** Invoices whose documents could not be read (kept as they were, with the reason in `extraction.errors`). */
  failed: number;
}

/**
 * The field-extraction step of a full sync: invoices whose fields were read by older rules (extraction.version below
 * the current one) are read again from their stored documents, so a better extractor reaches the invoices already
 * found. Safe to run any number of times: it only replaces the fields the documents give, and marks each invoice
 * with the version that read it, so a killed run resumes where it stopped.
 */
export class FieldsRefreshService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly extractor: FieldExtractor,
    private readonly version = EXTRACTION_RULES_VERSION,
  ) {}

  async refresh(
    ownerId: string,
    accountIds: string[],
    options: { signal?: AbortSignal; progress?: (percent: number, message: string) => Promise<void> } = {},
  ): Promise<FieldsRefreshSummary> {
    const summary: FieldsRefreshSummary = { read: 0, changed: 0, failed: 0 };
    if (accountIds.length === 0) return summary;
    const scope = sql`i.owner_id = ${ownerId} and ${invoiceHasDocument()}
      and i.account_ids && ${uuidArray(accountIds)}
      and coalesce((i.extraction->>'version')::int, 0) < ${this.version}`;
    const [{ total } = { total: 0 }] = (
      await this.db.execute(sql`select count(*)::int as total from invoices i where ${scope}`)
    ).rows as Array<{ total: number }>;
    if (total === 0) return summary;
    const hints = await ownPartyHints(this.db, ownerId);
    await options.progress?.(0, `Reading the fields of ${total} invoice(s) again`);
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (
        await this.db.execute(sql`
          select i.id, i.vendor, i.amount, i.invoice_date, i.invoice_number, i.document_type, i.has_attachments, m.sender_name, m.sender_email, m.subject, m.sent_at,
                 (select json_agg(json_build_object('sha256', a.sha256, 'filename', a.filename,
                                                    'content_type', a.content_type, 'size', a.size)
                                  order by a.position)
                  from message_attachments a where a.message_row_id = i.message_row_id and a.qualifies) as files,
                 (select array_agg(a.filename order by a.position)
                  from message_attachments a where a.message_row_id = i.message_row_id) as names
          from invoices i join mail_messages m on m.id = i.message_row_id
          where ${scope} and i.id > ${after}::uuid
          order by i.id limit ${PAGE}`)
      ).rows as unknown as RefreshRow[];
      if (rows.length === 0) break;
      for (const row of rows) {
        options.signal?.throwIfAborted();
        after = row.id;
        await this.refreshOne(ownerId, row, summary, hints);
        summary.read += 1;
        await options.progress?.(
          Math.min(99, (summary.read / total) * 100),
          `Read the fields of ${summary.read} of ${total} invoice(s)`,
        );
      }
    }
    return summary;
  }

  private async refreshOne(
    ownerId: string,
    row: RefreshRow,
    summary: FieldsRefreshSummary,
    hints: PartyHints,
  ): Promise<void> {
    const errors: Array<{ filename: string; error: string; sha256?: string; code?: string }> = [];
    const attachments: MailAttachment[] = [];
    for (const file of row.files ?? []) {
      try {
        const content = await this.blobs.get(file.sha256);
        attachments.push({
          filename: file.filename,
          contentType: file.content_type,
          size: Number(file.size),
          sha256: file.sha256,
          content,
        });
      } catch {
        errors.push({ filename: file.filename, error: 'The file is missing from storage' });
      }
    }
    if (attachments.length === 0) {
      // Nothing to read: keep the fields, record why, and do not try again with these rules.
      summary.failed += 1;
      await this.db.execute(sql`
        update invoices set extraction = coalesce(extraction, '{}'::jsonb)
          || ${JSON.stringify({ version: this.version, errors })}::jsonb
        where owner_id = ${ownerId} and id = ${row.id}::uuid`);
      return;
    }
    const read = {
      extractor: { extract: (input: FieldExtractInput) => this.extractor.extract({ ...input, ownerId }) },
      hints: { ...hints, senderEmail: row.sender_email },
      onExtractionError: (_origin: string, filename: string, error: unknown, sha256: string) =>
        errors.push(extractionErrorRecord(filename, sha256, error)),
    };
    // A kept mail body is read as at ingest: its fields only with an amount, never its vendor (the sender stays).
    const body = row.has_attachments ? null : attachments[0]!;
    const fields: ExtractedInvoiceFields & { confidence: FieldConfidence } = body
      ? { vendor: null, ...((await extractBodyFields(row.id, body, read)) ?? NO_BODY_FIELDS) }
      : await extractAttachmentFields(row.id, attachments, read);
    // What this reading found about each file replaces what an older one recorded on the attachments.
    const readErrors = Object.fromEntries(errors.filter((e) => e.sha256).map((e) => [e.sha256 as string, e.error]));
    await this.db.execute(sql`
      update message_attachments a set read_error = ${JSON.stringify(readErrors)}::jsonb ->> a.sha256
      from invoices i
      where i.owner_id = ${ownerId} and i.id = ${row.id}::uuid and a.message_row_id = i.message_row_id
        and a.qualifies`);
    const vendor = fields.vendor ?? (row.sender_name || senderDomain(row.sender_email));
    const currency = fields.currency ?? null;
    const amountMinor =
      fields.amount !== null && currency ? decimalToMinorUnits(String(fields.amount), currency) : null;
    const amount =
      amountMinor !== null && currency
        ? formatMinorUnits(amountMinor, currency)
        : fields.amount !== null
          ? formatCurrency(fields.amount, currency ?? 'USD')
          : null;
    const sentDate = row.sent_at ? new Date(row.sent_at).toISOString().slice(0, 10) : null;
    const invoiceDate = fields.invoice_date ?? sentDate;
    const extraction = {
      version: this.version,
      ...(errors.length > 0 ? { errors } : {}),
      // The sender's name standing in for the vendor is not a reading: no confidence for it.
      confidence: fields.vendor ? fields.confidence : withoutVendor(fields.confidence),
      source_fields: {
        amount: fields.amount,
        currency: fields.currency,
        invoice_date: fields.invoice_date,
        invoice_number: fields.invoice_number,
        document_type: fields.document_type ?? null,
      },
    };
    await this.db.execute(sql`
      update invoices set
        vendor = ${vendor}, amount = ${amount}, amount_minor = ${amountMinor}, currency = ${currency},
        invoice_date = ${invoiceDate}, invoice_number = ${fields.invoice_number},
        document_type = ${fields.document_type ?? null},
        category = ${invoiceCategory([row.subject, ...(body ? [] : attachments).map((a) => a.filename)])},
        search_text = ${searchTextOf([vendor, row.sender_email, row.sender_name, row.subject, fields.invoice_number, ...(row.names ?? [])])},
        extraction = ${JSON.stringify(extraction)}::jsonb
      where owner_id = ${ownerId} and id = ${row.id}::uuid`);
    const before = [row.vendor, row.amount, row.invoice_date, row.invoice_number, row.document_type];
    const after = [vendor, amount, invoiceDate, fields.invoice_number, fields.document_type ?? null];
    if (before.some((value, i) => value !== after[i])) summary.changed += 1;
  }
}
