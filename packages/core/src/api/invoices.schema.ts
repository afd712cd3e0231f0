import { z } from 'zod';
import { INVOICE_CATEGORIES } from '../rules/category';
import { DOCUMENT_TYPES } from '../rules/document-type';
import { FREQUENCIES } from '../rules/frequency';
import { InvoiceForwardedToSchema } from './forwarding.schema';

/**
 * An attachment on an invoice card: its metadata and where to get its bytes. The spec's `data` (the file as base64,
 * inline in every list) is replaced by `url`: a page of 20 stays a few KB whatever the files weigh, and the bytes are
 * fetched only when a person opens View or Download (see docs/architecture.md, "Light pages").
 */
export const InvoiceAttachmentSchema = z.object({
  /** For GET /invoices/{id}/attachments/{attachmentId}. */
  id: z.string(),
  filename: z.string(),
  size: z.number().int(),
  mimeType: z.string(),
  /** Why the file could not be read ("document could not be read: out of memory at 1024 MB"); null when it was. */
  read_error: z.string().nullable().optional(),
  url: z
    .string()
    .describe(
      "The file's bytes, for the signed-in owner only (Bearer token): /api/v1/invoices/{id}/attachments/{attachmentId}",
    ),
});

/** The fields of an invoice that extraction reads, each with a confidence. */
export const LOW_CONFIDENCE_FIELDS = ['vendor', 'amount', 'currency', 'invoice_date', 'invoice_number'] as const;
export type LowConfidenceField = (typeof LOW_CONFIDENCE_FIELDS)[number];

/** The Invoice entity of spec §3, plus what the cards and sums need. */
export const InvoiceSchema = z.object({
  id: z.string(),
  vendor: z.string().nullable(),
  email: z.string().nullable(),
  amount: z.string().nullable(),
  amount_minor: z.number().int().nullable(),
  currency: z.string().nullable(),
  invoice_date: z.string().nullable(),
  invoice_number: z.string().nullable(),
  /**
   * What the document is, read from its content; null while it has not been read by rules that know the type. Only
   * invoice, credit_note and receipt (and null) count in the stats, drive filing and reconciliation.
   */
  document_type: z
    .enum(DOCUMENT_TYPES)
    .nullable()
    .optional()
    .describe(
      'invoice, credit_note, receipt, order_confirmation, delivery_note, payment_reminder, statement, contract or other',
    ),
  status: z.enum(['pending', 'uploaded', 'failed']),
  drive_file_id: z.string().nullable(),
  category: z.string(),
  details: z.string().nullable(),
  attachments: z.array(InvoiceAttachmentSchema),
  /** Spec §3 frequency label, from the dates of every invoice of the same vendor. */
  frequency: z.enum(FREQUENCIES),
  /** Why filing it in the drive failed (status failed); null otherwise. */
  drive_error: z.string().nullable(),
  /** The bank transaction that paid it, when a statement's reconciliation matched one (absent where not read). */
  payment: z
    .object({
      statement_id: z.string(),
      transaction_id: z.string(),
      date: z.string(),
      amount: z.number(),
      currency: z.string(),
      description: z.string(),
    })
    .nullable()
    .optional(),
  /** To whom the invoice's email was forwarded or is queued (absent where not read). */
  forwarded_to: z.array(InvoiceForwardedToSchema).optional(),
  /**
   * The fields read with low confidence (a blurred photo's total, a vendor guessed from the layout): the card marks
   * them for a person to check rather than showing them as certain (absent where not read).
   */
  low_confidence_fields: z.array(z.enum(LOW_CONFIDENCE_FIELDS)).optional(),
  /** Whether it came from the mailbox of "Try it with sample data" (its card shows 'Sample data'; absent: not read). */
  sample: z.boolean().optional(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/** GET /invoices: filters of spec §7; `status` is the DISPLAY status (ready_to_process, missing, needs_action). */
export const InvoiceListQuerySchema = z.object({
  vendor: z.string().max(300).optional(),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM')
    .optional(),
  search: z.string().max(300).optional(),
  status: z.enum(['ready_to_process', 'missing', 'needs_action']).optional(),
  category: z.enum(INVOICE_CATEGORIES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  /** Documents by type: invoices, credit notes and receipts (`financial`), or every other kind (`other`); absent: all. */
  document_type: z.enum(['financial', 'other']).optional(),
  has_attachments: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  user_ids: z.string().max(4000).optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuerySchema>;

export const InvoiceListResponseSchema = z.object({
  invoices: z.array(InvoiceSchema),
  total: z.number().int(),
  /** Every email scanned in the same accounts: 'Showing N likely invoices out of M total emails.' */
  total_emails: z.number().int(),
});
export type InvoiceListResponse = z.infer<typeof InvoiceListResponseSchema>;

/** GET /gmail/accounts/invoices: the list of GET /invoices per account in scope (same filters, paged per account). */
export const AccountInvoicesResponseSchema = z.object({
  accounts: z.array(
    InvoiceListResponseSchema.extend({
      user_id: z.string(),
      email: z.string(),
    }),
  ),
});
export type AccountInvoicesResponse = z.infer<typeof AccountInvoicesResponseSchema>;

/**
 * GET /invoices/export: the filters of the list (no paging), as a CSV or JSON file, or a ZIP of the documents filed in
 * folders by date with the CSV beside them; streamed.
 */
export const InvoiceExportQuerySchema = InvoiceListQuerySchema.omit({ page: true, limit: true }).extend({
  format: z.enum(['csv', 'json', 'zip']).default('csv'),
});
export type InvoiceExportQuery = z.infer<typeof InvoiceExportQuerySchema>;

/** GET /invoices/stats (spec §3), in the primary currency (the most used one), with every currency listed. */
export const InvoiceStatsSchema = z.object({
  total_invoices: z.number().int(),
  total_amount: z.number(),
  this_month_amount: z.number(),
  last_month_amount: z.number(),
  currency: z.string(),
  by_currency: z.array(
    z.object({
      currency: z.string(),
      total_amount: z.number(),
      this_month_amount: z.number(),
      last_month_amount: z.number(),
      invoices: z.number().int(),
    }),
  ),
  /**
   * The month trend: invoices and their amount per month and currency over the last 12 months including this one
   * (months by invoice date, YYYY-MM; a month without invoices is absent). Never summed across currencies.
   */
  by_month: z.array(
    z.object({
      month: z.string(),
      currency: z.string(),
      invoices: z.number().int(),
      total_amount: z.number(),
    }),
  ),
});
export type InvoiceStats = z.infer<typeof InvoiceStatsSchema>;

export const InvoiceStatsQuerySchema = z.object({ user_ids: z.string().max(4000).optional() });
