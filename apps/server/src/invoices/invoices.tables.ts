import { type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { mailAccounts } from '../accounts/accounts.tables';
import { users } from '../users/users.tables';

/**
 * Every message a sync or import has seen (so the screens can say how many emails were scanned), keyed by where it
 * came from within its account: a second pass over the same mailbox finds it and does nothing.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => mailAccounts.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    messageId: text('message_id'),
    senderName: text('sender_name'),
    senderEmail: text('sender_email'),
    subject: text('subject'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    snippet: text('snippet'),
    isCandidate: boolean('is_candidate').notNull(),
    /** The message's raw bytes in the blob store (invoice emails only): what forwarding sends, unchanged. */
    rawSha256: text('raw_sha256'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mail_messages_account_origin_uq').on(t.accountId, t.origin),
    index('mail_messages_owner_idx').on(t.ownerId),
  ],
);

/** A file of a message. The bytes live once per content hash in the blob store, never in a row. */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    messageRowId: uuid('message_row_id')
      .notNull()
      .references(() => mailMessages.id, { onDelete: 'cascade' }),
    position: bigint('position', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    filename: text('filename').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    contentType: text('content_type').notNull(),
    qualifies: boolean('qualifies').notNull(),
    /** Why the file could not be read (a damaged PDF, a document that crashed or exhausted its reader); null if read. */
    readError: text('read_error'),
  },
  (t) => [primaryKey({ columns: [t.messageRowId, t.position] }), index('message_attachments_sha_idx').on(t.sha256)],
);

/**
 * An invoice found in mail (spec §3). One per document: `dedupe_key` is the content hash of its main document (or the
 * Message-ID when it has none), so the same invoice reached through two accounts or two syncs is one row.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dedupeKey: text('dedupe_key').notNull(),
    messageRowId: uuid('message_row_id')
      .notNull()
      .references(() => mailMessages.id, { onDelete: 'cascade' }),
    vendor: text('vendor'),
    email: text('email'),
    /** The display string of spec §3 ("€1,234.50"); sums use amount_minor + currency. */
    amount: text('amount'),
    amountMinor: bigint('amount_minor', { mode: 'number' }),
    currency: text('currency'),
    invoiceDate: text('invoice_date'),
    invoiceNumber: text('invoice_number'),
    /**
     * What the document is, read from its content (extraction/rules/document-type.rules.ts): invoice, credit_note,
     * receipt, order_confirmation, delivery_note, payment_reminder, statement, contract, other; null when unknown
     * (nothing read yet). Stats, drive filing and reconciliation count only invoices, credit notes, receipts and null.
     */
    documentType: text('document_type'),
    status: text('status', { enum: ['pending', 'uploaded', 'failed'] })
      .notNull()
      .default('pending'),
    driveFileId: text('drive_file_id'),
    /** Which drive holds drive_file_id (`local`, `webdav:<url>`, `google:<account id>`): links keep working after a switch. */
    driveTarget: text('drive_target'),
    /** Why the last drive upload of this invoice failed (status failed). */
    driveError: text('drive_error'),
    category: text('category').notNull().default('Invoice'),
    details: text('details'),
    extraction: jsonb('extraction'),
    /** Lower-cased vendor, sender, subject, details, invoice number and file names: the search of spec §5, one index. */
    searchText: text('search_text').notNull().default(''),
    /** The accounts it was seen through, copied from invoice_accounts so the list filters one row, not a join. */
    /** Whether its message has a qualifying file (the list's default `has_attachments` filter, without a join). */
    hasAttachments: boolean('has_attachments').notNull().default(false),
    accountIds: uuid('account_ids').array().notNull().default(sql`'{}'::uuid[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_owner_dedupe_uq').on(t.ownerId, t.dedupeKey),
    index('invoices_owner_date_idx').on(t.ownerId, sql`${t.invoiceDate} desc nulls last`),
    // Also serves the frequency label: a vendor's latest dates in index order.
    index('invoices_owner_vendor_date_idx').on(t.ownerId, t.vendor, sql`${t.invoiceDate} desc nulls last`),
    index('invoices_owner_status_date_idx').on(t.ownerId, t.status, sql`${t.invoiceDate} desc nulls last`),
    // The list's default view (has_attachments, newest first) and its count, without visiting other rows.
    index('invoices_owner_attached_date_idx')
      .on(t.ownerId, sql`${t.invoiceDate} desc nulls last`)
      .where(sql`${t.hasAttachments}`),
    index('invoices_owner_category_date_idx').on(t.ownerId, t.category, sql`${t.invoiceDate} desc nulls last`),
    index('invoices_message_idx').on(t.messageRowId),
    index('invoices_account_ids_idx').using('gin', t.accountIds),
    index('invoices_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/**
 * Whether invoice `i` has a document to file, show or read again: a qualifying attachment (has_attachments), or the
 * kept body of an invoice that exists only as a mail (a qualifying row of its message that is no attachment, so
 * has_attachments, the list's 'Has Attachments' filter, stays false for it).
 */
export function invoiceHasDocument(): SQL {
  return sql`(i.has_attachments or exists (select 1 from message_attachments d
    where d.message_row_id = i.message_row_id and d.qualifies))`;
}

/**
 * Documents whose reading ended their sandbox process (a crash, out of memory, out of time), by content hash per
 * person: later syncs and retries of a job do not feed them to a reader again while the extraction rules are those
 * that failed on them. A newer rules version tries once more.
 */
export const documentReadFailures = pgTable(
  'document_read_failures',
  {
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    code: text('code').notNull(),
    message: text('message').notNull(),
    rulesVersion: bigint('rules_version', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.sha256] })],
);

/** Which accounts an invoice was seen through (the `user_ids` filter). */
export const invoiceAccounts = pgTable(
  'invoice_accounts',
  {
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => mailAccounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.accountId] }), index('invoice_accounts_account_idx').on(t.accountId)],
);

/**
 * The invoice counts and sums behind GET /invoices/stats, kept by triggers on `invoices` (the hand-written
 * migration `*_invoice_totals_triggers.sql`) so that the stats read a few rows instead of every invoice: one row per owner,
 * set of accounts an invoice was seen through, currency (`USD` when none was read, as the stats count it) and month
 * (`YYYY-MM` of invoice_date, '' when the date does not start with one). No foreign key on owner_id: when a person is
 * deleted their invoices go first or last in the cascade, and the triggers' updates must not depend on that order;
 * a row whose count reaches zero is deleted.
 */
export const invoiceTotals = pgTable(
  'invoice_totals',
  {
    ownerId: uuid('owner_id').notNull(),
    accountIds: uuid('account_ids').array().notNull(),
    currency: text('currency').notNull(),
    month: text('month').notNull(),
    invoices: integer('invoices').notNull(),
    amountMinor: numeric('amount_minor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.accountIds, t.currency, t.month] })],
);

export type InvoiceRow = typeof invoices.$inferSelect;
