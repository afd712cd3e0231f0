import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { invoices } from '../invoices/invoices.tables';
import { users } from '../users/users.tables';
import type { StatementIssue } from './statement.types';

/**
 * An uploaded bank statement (spec §3): the file's bytes are in the document store by hash; what the analysis read
 * (header, balances, warnings) is kept here, and its transactions in `bank_transactions`. `account_ids` is the scope
 * of invoices it is reconciled with (the caller's accounts, intersected with the upload's user_ids).
 */
export const bankStatements = pgTable(
  'bank_statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    accountIds: uuid('account_ids').array(),
    status: text('status', { enum: ['pending', 'processed', 'failed'] })
      .notNull()
      .default('pending'),
    jobId: uuid('job_id'),
    error: text('error'),
    format: text('format'),
    bankName: text('bank_name'),
    accountNumber: text('account_number'),
    startDate: text('start_date'),
    endDate: text('end_date'),
    currency: text('currency'),
    openingBalanceMinor: bigint('opening_balance_minor', { mode: 'number' }),
    closingBalanceMinor: bigint('closing_balance_minor', { mode: 'number' }),
    warnings: jsonb('warnings').$type<StatementIssue[]>().notNull().default([]),
    /** The statement of "Try it with sample data". */
    isSample: boolean('is_sample').notNull().default(false),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    analyzedAt: timestamp('analyzed_at', { withTimezone: true }),
  },
  (t) => [index('bank_statements_owner_uploaded_idx').on(t.ownerId, t.uploadedAt)],
);

/** The transactions of one statement in the file's order; replaced as a whole by each analysis. */
export const bankTransactions = pgTable(
  'bank_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => bankStatements.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** Which transaction this is across re-analyses: date, amount, type and description, hashed. */
    fingerprint: text('fingerprint').notNull(),
    date: text('date').notNull(),
    valueDate: text('value_date'),
    description: text('description').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    type: text('type', { enum: ['debit', 'credit'] }).notNull(),
    balanceAfterMinor: bigint('balance_after_minor', { mode: 'number' }),
    reference: text('reference'),
    counterpartyName: text('counterparty_name'),
    counterpartyIban: text('counterparty_iban'),
    matchedInvoiceId: uuid('matched_invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    matchScore: real('match_score'),
    matchExplanation: text('match_explanation'),
    matchSource: text('match_source', { enum: ['auto', 'manual'] }),
  },
  (t) => [
    uniqueIndex('bank_transactions_statement_position_idx').on(t.statementId, t.position),
    index('bank_transactions_owner_invoice_idx').on(t.ownerId, t.matchedInvoiceId),
  ],
);

/**
 * A person's own decisions, which outlive re-analysis and retries: this transaction (by fingerprint and occurrence)
 * pays that invoice, or (invoice null) pays none of them.
 */
export const bankMatchOverrides = pgTable(
  'bank_match_overrides',
  {
    statementId: uuid('statement_id')
      .notNull()
      .references(() => bankStatements.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.statementId, t.fingerprint] })],
);

export type BankStatementRow = typeof bankStatements.$inferSelect;
export type BankTransactionRow = typeof bankTransactions.$inferSelect;
