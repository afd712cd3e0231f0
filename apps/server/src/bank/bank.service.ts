import { createHash } from 'node:crypto';
import {
  BANK_STATEMENT_MAX_BYTES,
  type BankStatement,
  type BankStatementAnalysis,
  type BankStatementSummary,
  type BankStatementUpload,
  type BankTransaction,
  minorUnitsToDecimal,
} from '@invoicebox/core';
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import { uuidArray } from '../db/sql-arrays';
import { AppError, NotFoundError, PayloadTooLargeError, ValidationError } from '../errors';
import type { BlobStore } from '../invoices/blob.store';
import { invoices } from '../invoices/invoices.tables';
import { jobs } from '../jobs/jobs.tables';
import {
  type BankStatementRow,
  type BankTransactionRow,
  bankMatchOverrides,
  bankStatements,
  bankTransactions,
} from './bank.tables';
import type { ReconcileDecisions, ReconcileInvoice, Reconciler } from './reconciler';
import type { ParsedStatement, StatementReadResult, StatementTransaction } from './statement.types';
import { mergeStatements } from './statement-merge';

/** The spec's message for a file that is not a statement we can read (§5). */
export const NOT_A_PDF_MESSAGE = 'Please select a PDF file.';

/** Names of structured statement exports, accepted beside PDFs; the reader decides by content. */
const STRUCTURED_NAME = /\.(csv|txt|tsv|ofx|qfx|xml|camt|camt053|053|sta|mt940|940|942|mt942)$/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export type ReadStatementFile = (bytes: Uint8Array, filename: string) => Promise<StatementReadResult>;

export interface AnalysisOptions {
  signal?: AbortSignal;
  progress?: (percent: number, message?: string) => Promise<void>;
}

/**
 * Bank statements (spec §1–§4): an upload is stored in the document store and analysed by a
 * `bank_statement_analysis` job — read in the document sandbox, balance-checked, its transactions stored and matched
 * one-to-one with the person's invoices. Every query is scoped to the owner; ids from a request are only looked up
 * together with it.
 */
export class BankStatementsService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    private readonly documents: BlobStore,
    private readonly readFile: ReadStatementFile,
    private readonly reconcile: Reconciler,
    private readonly maxBytes = BANK_STATEMENT_MAX_BYTES,
  ) {}

  /**
   * Checks and stores an upload (spec §3 payload), as a pending statement. `user_ids` (upload-multi) narrows the
   * invoices it is reconciled with to those accounts of the caller; none of theirs is a 404. Without them every
   * invoice of the person counts: one bank account pays the bills of every mailbox.
   */
  async receive(ownerId: string, upload: BankStatementUpload): Promise<string> {
    const filename = displayName(upload.filename);
    const bytes = decodeBase64(upload.file_data, this.maxBytes);
    const isPdf = bytes.subarray(0, 1024).includes(Buffer.from('%PDF-'));
    if (!isPdf && (/\.pdf$/i.test(filename) || !STRUCTURED_NAME.test(filename))) {
      throw new ValidationError(NOT_A_PDF_MESSAGE);
    }
    let accountIds: string[] | null = null;
    if (upload.user_ids?.length) {
      accountIds = await this.accounts.resolveAccountIds(ownerId, upload.user_ids);
      if (accountIds.length === 0) throw new NotFoundError('Account not found');
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await this.documents.put(sha256, bytes);
    const [row] = await this.db
      .insert(bankStatements)
      .values({ ownerId, filename, sha256, size: bytes.length, accountIds })
      .returning({ id: bankStatements.id });
    return row!.id;
  }

  async attachJob(ownerId: string, statementId: string, jobId: string): Promise<void> {
    await this.db
      .update(bankStatements)
      .set({ jobId })
      .where(and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId)));
  }

  /** Newest first. A statement whose job failed for good shows as failed even if its row says pending. */
  async list(ownerId: string, limit: number, offset: number): Promise<{ statements: BankStatement[]; total: number }> {
    const rows = await this.db
      .select({ statement: bankStatements, jobStatus: jobs.status, jobError: jobs.error })
      .from(bankStatements)
      .leftJoin(jobs, eq(jobs.id, bankStatements.jobId))
      .where(eq(bankStatements.ownerId, ownerId))
      .orderBy(desc(bankStatements.uploadedAt), desc(bankStatements.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db
      .select({ n: count() })
      .from(bankStatements)
      .where(eq(bankStatements.ownerId, ownerId));
    const counts = await this.transactionCounts(rows.map((r) => r.statement.id));
    return {
      statements: rows.map((r) => toApi(r.statement, r.jobStatus, r.jobError, counts.get(r.statement.id))),
      total: total?.n ?? 0,
    };
  }

  async summary(ownerId: string): Promise<BankStatementSummary> {
    const { statements } = await this.list(ownerId, 1, 0);
    const [byStatus] = (
      await this.db.execute(sql`
        select count(*)::int as total,
               count(*) filter (where s.status = 'processed')::int as processed,
               count(*) filter (where s.status = 'failed' or (s.status = 'pending' and j.status = 'failed'))::int as failed
        from bank_statements s left join jobs j on j.id = s.job_id
        where s.owner_id = ${ownerId}`)
    ).rows as Array<{ total: number; processed: number; failed: number }>;
    const [tx] = (
      await this.db.execute(sql`
        select count(*)::int as total, count(matched_invoice_id)::int as matched
        from bank_transactions where owner_id = ${ownerId}`)
    ).rows as Array<{ total: number; matched: number }>;
    const total = byStatus?.total ?? 0;
    const processed = byStatus?.processed ?? 0;
    const failed = byStatus?.failed ?? 0;
    return {
      total_statements: total,
      processed,
      pending: total - processed - failed,
      failed,
      total_transactions: tx?.total ?? 0,
      matched_transactions: tx?.matched ?? 0,
      unmatched_transactions: (tx?.total ?? 0) - (tx?.matched ?? 0),
      last_upload_date: statements[0]?.upload_date ?? null,
    };
  }

  /** The statement with its analysis: reconciliation_result and transactions in the file's order (spec §3). */
  async get(ownerId: string, statementId: string): Promise<BankStatementAnalysis> {
    const [found] = await this.db
      .select({ statement: bankStatements, jobStatus: jobs.status, jobError: jobs.error })
      .from(bankStatements)
      .leftJoin(jobs, eq(jobs.id, bankStatements.jobId))
      .where(and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId)));
    if (!found) throw new NotFoundError('Bank statement not found');
    const rows = await this.db
      .select({ tx: bankTransactions, invoice: invoices })
      .from(bankTransactions)
      .leftJoin(invoices, and(eq(invoices.id, bankTransactions.matchedInvoiceId), eq(invoices.ownerId, ownerId)))
      .where(and(eq(bankTransactions.statementId, statementId), eq(bankTransactions.ownerId, ownerId)))
      .orderBy(asc(bankTransactions.position));
    const transactions = rows.map((r) => transactionToApi(r.tx, r.invoice));
    const matched = transactions.filter((t) => t.matched_invoice_id).length;
    const base = toApi(found.statement, found.jobStatus, found.jobError, {
      total: transactions.length,
      matched,
    });
    return {
      ...base,
      reconciliation_result: {
        total_transactions: transactions.length,
        matched_transactions: matched,
        unmatched_transactions: transactions.length - matched,
      },
      transactions,
    };
  }

  /** Sets a statement back to pending for another analysis; the person's manual matches stay. */
  async prepareRetry(ownerId: string, statementId: string): Promise<void> {
    const updated = await this.db
      .update(bankStatements)
      .set({ status: 'pending', error: null })
      .where(and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId)))
      .returning({ id: bankStatements.id });
    if (updated.length === 0) throw new NotFoundError('Bank statement not found');
  }

  /** Deletes the person's statements, their transactions and decisions; returns how many statements. */
  async clearAll(ownerId: string): Promise<number> {
    const deleted = await this.db
      .delete(bankStatements)
      .where(eq(bankStatements.ownerId, ownerId))
      .returning({ id: bankStatements.id });
    return deleted.length;
  }

  /** A person's match: this transaction pays that invoice (one of theirs). Kept through re-analysis. */
  async matchManually(ownerId: string, statementId: string, transactionId: string, invoiceId: string) {
    const tx = await this.transactionOf(ownerId, statementId, transactionId);
    if (tx.type !== 'debit') throw new ValidationError('Only a debit can pay an invoice');
    const [invoice] = await this.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), eq(invoices.ownerId, ownerId)));
    if (!invoice) throw new NotFoundError('Invoice not found');
    await this.db.transaction(async (db) => {
      // One transaction per invoice: the invoice leaves any other transaction of the person's statements.
      await db
        .update(bankTransactions)
        .set({ matchedInvoiceId: null, matchScore: null, matchExplanation: null, matchSource: null })
        .where(
          and(
            eq(bankTransactions.ownerId, ownerId),
            eq(bankTransactions.matchedInvoiceId, invoiceId),
            sql`${bankTransactions.id} <> ${transactionId}`,
          ),
        );
      await db.delete(bankMatchOverrides).where(eq(bankMatchOverrides.invoiceId, invoiceId));
      await db
        .insert(bankMatchOverrides)
        .values({ statementId, fingerprint: tx.fingerprint, invoiceId })
        .onConflictDoUpdate({
          target: [bankMatchOverrides.statementId, bankMatchOverrides.fingerprint],
          set: { invoiceId, createdAt: sql`now()` },
        });
      await db
        .update(bankTransactions)
        .set({
          matchedInvoiceId: invoiceId,
          matchScore: 1,
          matchExplanation: 'matched by you',
          matchSource: 'manual',
        })
        .where(eq(bankTransactions.id, transactionId));
    });
    return this.transaction(ownerId, statementId, transactionId);
  }

  /** A person's unmatch: this transaction pays none of the invoices, whatever the matcher thinks. */
  async unmatchManually(ownerId: string, statementId: string, transactionId: string) {
    const tx = await this.transactionOf(ownerId, statementId, transactionId);
    await this.db.transaction(async (db) => {
      await db
        .insert(bankMatchOverrides)
        .values({ statementId, fingerprint: tx.fingerprint, invoiceId: null })
        .onConflictDoUpdate({
          target: [bankMatchOverrides.statementId, bankMatchOverrides.fingerprint],
          set: { invoiceId: null, createdAt: sql`now()` },
        });
      await db
        .update(bankTransactions)
        .set({ matchedInvoiceId: null, matchScore: null, matchExplanation: 'unmatched by you', matchSource: 'manual' })
        .where(eq(bankTransactions.id, transactionId));
    });
    return this.transaction(ownerId, statementId, transactionId);
  }

  /** The transactions that paid an invoice (its card shows them). */
  async paymentsOf(ownerId: string, invoiceIds: string[]) {
    if (invoiceIds.length === 0) return [];
    return this.db
      .select({
        invoiceId: bankTransactions.matchedInvoiceId,
        statementId: bankTransactions.statementId,
        transactionId: bankTransactions.id,
        date: bankTransactions.date,
        amountMinor: bankTransactions.amountMinor,
        currency: bankTransactions.currency,
        description: bankTransactions.description,
      })
      .from(bankTransactions)
      .where(and(eq(bankTransactions.ownerId, ownerId), inArray(bankTransactions.matchedInvoiceId, invoiceIds)));
  }

  /**
   * The work of a `bank_statement_analysis` job. Safe to run again from the start: the transactions are replaced in
   * one database transaction, so a crash leaves the previous state or the new one, never half of each.
   */
  async analyze(ownerId: string, statementId: string, options: AnalysisOptions = {}): Promise<string> {
    const [row] = await this.db
      .select()
      .from(bankStatements)
      .where(and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId)));
    if (!row) return 'The statement was deleted before it was analysed';
    await options.progress?.(10, 'Reading the statement');
    const bytes = await this.documents.get(row.sha256);
    options.signal?.throwIfAborted();
    const read = await this.readFile(bytes, row.filename);
    options.signal?.throwIfAborted();
    if (!read.ok) {
      const message = read.errors[0]?.message ?? 'The statement could not be read';
      await this.fail(ownerId, statementId, message);
      throw new AppError(`Could not read ${row.filename}: ${message}`, { code: 'statement_unreadable', status: 422 });
    }
    const statement = mergeStatements(read.statements);
    if (statement.transactions.length === 0 && !hasHeader(statement)) {
      const message = 'No statement was found in this file';
      await this.fail(ownerId, statementId, message);
      throw new AppError(`Could not read ${row.filename}: ${message}`, { code: 'statement_unreadable', status: 422 });
    }

    await options.progress?.(60, `Matching ${statement.transactions.length} transactions with your invoices`);
    const fingerprints = fingerprintsOf(statement.transactions);
    const candidates = await this.invoicesInScope(ownerId, row.accountIds);
    const overrides = await this.db
      .select()
      .from(bankMatchOverrides)
      .where(eq(bankMatchOverrides.statementId, statementId));
    const decisions = decisionsFrom(overrides, fingerprints, new Set(candidates.map((c) => c.id)));
    const matches = this.reconcile(statement.transactions, candidates, decisions);
    const byIndex = new Map(matches.map((m) => [m.transactionIndex, m]));
    const pinned = new Set(decisions.pinned.map((p) => p.transactionIndex));
    const forbidden = new Set(decisions.forbidden.filter((f) => f.invoiceId === null).map((f) => f.transactionIndex));

    await this.db.transaction(async (db) => {
      // Invoices already paid by a transaction of another statement are not paid twice.
      await db.delete(bankTransactions).where(eq(bankTransactions.statementId, statementId));
      const taken = new Set(
        (
          await db
            .select({ id: bankTransactions.matchedInvoiceId })
            .from(bankTransactions)
            .where(and(eq(bankTransactions.ownerId, ownerId), isNotNull(bankTransactions.matchedInvoiceId)))
        ).map((r) => r.id),
      );
      const values = statement.transactions.map((t, position) => {
        const match = byIndex.get(position);
        const usable = match && (pinned.has(position) || !taken.has(match.invoiceId)) ? match : undefined;
        return {
          statementId,
          ownerId,
          position,
          fingerprint: fingerprints[position]!,
          date: t.date,
          valueDate: t.valueDate,
          description: t.description,
          amountMinor: t.amountMinor,
          currency: t.currency,
          type: t.type,
          balanceAfterMinor: t.balanceAfterMinor,
          reference: t.reference,
          counterpartyName: t.counterpartyName,
          counterpartyIban: t.counterpartyIban,
          matchedInvoiceId: usable?.invoiceId ?? null,
          matchScore: usable ? (pinned.has(position) ? 1 : usable.score) : null,
          matchExplanation: pinned.has(position)
            ? 'matched by you'
            : forbidden.has(position)
              ? 'unmatched by you'
              : (usable?.explanation ?? null),
          matchSource: pinned.has(position) || forbidden.has(position) ? 'manual' : usable ? 'auto' : null,
        } satisfies typeof bankTransactions.$inferInsert;
      });
      for (let i = 0; i < values.length; i += 1000) {
        await db.insert(bankTransactions).values(values.slice(i, i + 1000));
      }
      await db
        .update(bankStatements)
        .set({
          status: 'processed',
          error: null,
          format: read.format,
          bankName: statement.bankName,
          accountNumber: statement.accountNumber,
          startDate: statement.startDate,
          endDate: statement.endDate,
          currency: statement.currency,
          openingBalanceMinor: statement.openingBalanceMinor,
          closingBalanceMinor: statement.closingBalanceMinor,
          warnings: statement.warnings,
          analyzedAt: sql`now()`,
        })
        .where(eq(bankStatements.id, statementId));
    });
    const matched = values(byIndex).length;
    const warning = statement.warnings[0] ? ` Warning: ${statement.warnings[0].message}` : '';
    return `${statement.transactions.length} transaction(s) read from ${row.filename}, ${matched} matched with invoices.${warning}`;
  }

  /** Marks the statement failed with a reason the person can read (the job keeps the technical one). */
  async fail(ownerId: string, statementId: string, message: string): Promise<void> {
    await this.db.transaction(async (db) => {
      await db.delete(bankTransactions).where(eq(bankTransactions.statementId, statementId));
      await db
        .update(bankStatements)
        .set({ status: 'failed', error: message.slice(0, 2000), analyzedAt: sql`now()` })
        .where(and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId)));
    });
  }

  /**
   * What a debit can pay: invoices and receipts (and invoices whose type is not read yet). A credit note is money
   * coming back, never paid by a debit, so it is not offered (its amount is stored positive).
   */
  private async invoicesInScope(ownerId: string, accountIds: string[] | null): Promise<ReconcileInvoice[]> {
    // accountIds are uuids read back from our own row (resolved from the person's accounts on the way in).
    const scope = accountIds?.length ? sql`and ${invoices.accountIds} && ${uuidArray(accountIds)}` : sql``;
    const rows = await this.db.execute(sql`
      select id, vendor, amount_minor, currency, invoice_date, invoice_number from invoices
      where owner_id = ${ownerId} and amount_minor is not null and invoice_counts(document_type)
        and document_type is distinct from 'credit_note' ${scope}`);
    return (rows.rows as Array<Record<string, unknown>>).map((r) => ({
      id: String(r.id),
      vendor: (r.vendor as string | null) ?? null,
      amountMinor: r.amount_minor === null ? null : Number(r.amount_minor),
      currency: (r.currency as string | null) ?? null,
      invoiceDate: (r.invoice_date as string | null) ?? null,
      invoiceNumber: (r.invoice_number as string | null) ?? null,
    }));
  }

  private async transactionCounts(ids: string[]): Promise<Map<string, { total: number; matched: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({
        statementId: bankTransactions.statementId,
        total: count(),
        matched: count(bankTransactions.matchedInvoiceId),
      })
      .from(bankTransactions)
      .where(inArray(bankTransactions.statementId, ids))
      .groupBy(bankTransactions.statementId);
    return new Map(rows.map((r) => [r.statementId, { total: r.total, matched: r.matched }]));
  }

  private async transactionOf(ownerId: string, statementId: string, transactionId: string) {
    const [tx] = await this.db
      .select()
      .from(bankTransactions)
      .where(
        and(
          eq(bankTransactions.id, transactionId),
          eq(bankTransactions.statementId, statementId),
          eq(bankTransactions.ownerId, ownerId),
        ),
      );
    if (!tx) throw new NotFoundError('Transaction not found');
    return tx;
  }

  private async transaction(ownerId: string, statementId: string, transactionId: string): Promise<BankTransaction> {
    const [row] = await this.db
      .select({ tx: bankTransactions, invoice: invoices })
      .from(bankTransactions)
      .leftJoin(invoices, and(eq(invoices.id, bankTransactions.matchedInvoiceId), eq(invoices.ownerId, ownerId)))
      .where(
        and(
          eq(bankTransactions.id, transactionId),
          eq(bankTransactions.statementId, statementId),
          eq(bankTransactions.ownerId, ownerId),
        ),
      );
    if (!row) throw new NotFoundError('Transaction not found');
    return transactionToApi(row.tx, row.invoice);
  }
}

function values<K, V>(map: Map<K, V>): V[] {
  return [...map.values()];
}

/** What a person reads as the statement's name: the last path segment, no control or direction characters. */
export function displayName(filename: string): string {
  const last = filename.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '').trim();
  return (clean || 'statement').slice(0, 255);
}

/** Standard or URL-safe base64, optionally as a data: URL; over `maxBytes` decoded is a 413. */
function decodeBase64(data: string, maxBytes: number): Buffer {
  const body = data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!BASE64.test(body)) throw new ValidationError('file_data is not base64');
  if (Math.floor((body.length * 3) / 4) > maxBytes + 3) {
    throw new PayloadTooLargeError(`The file is larger than ${Math.round(maxBytes / 1048576)} MB`);
  }
  const bytes = Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length === 0) throw new ValidationError('The file is empty');
  if (bytes.length > maxBytes) {
    throw new PayloadTooLargeError(`The file is larger than ${Math.round(maxBytes / 1048576)} MB`);
  }
  return bytes;
}

function hasHeader(s: ParsedStatement): boolean {
  return !!(s.accountNumber || s.openingBalanceMinor !== null || s.closingBalanceMinor !== null);
}

/** Date, amount, type and description identify a transaction; identical ones are told apart by occurrence. */
export function fingerprintsOf(transactions: StatementTransaction[]): string[] {
  const seen = new Map<string, number>();
  return transactions.map((t) => {
    const base = createHash('sha256')
      .update(`${t.date}|${t.amountMinor}|${t.currency}|${t.type}|${t.description}`)
      .digest('hex')
      .slice(0, 32);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}:${n}`;
  });
}

function decisionsFrom(
  overrides: Array<{ fingerprint: string; invoiceId: string | null }>,
  fingerprints: string[],
  invoiceIds: Set<string>,
): ReconcileDecisions {
  const indexOf = new Map(fingerprints.map((f, i) => [f, i]));
  const decisions: ReconcileDecisions = { pinned: [], forbidden: [] };
  for (const o of overrides) {
    const transactionIndex = indexOf.get(o.fingerprint);
    if (transactionIndex === undefined) continue;
    if (o.invoiceId === null) decisions.forbidden.push({ transactionIndex, invoiceId: null });
    else if (invoiceIds.has(o.invoiceId)) decisions.pinned.push({ transactionIndex, invoiceId: o.invoiceId });
  }
  return decisions;
}

function money(minor: number | null, currency: string | null): string | null {
  return minor === null ? null : minorUnitsToDecimal(minor, currency ?? 'EUR');
}

function toApi(
  row: BankStatementRow,
  jobStatus: string | null,
  jobError: string | null,
  counts: { total: number; matched: number } | undefined,
): BankStatement {
  const failedForGood = row.status === 'pending' && jobStatus === 'failed';
  return {
    id: row.id,
    filename: row.filename,
    upload_date: row.uploadedAt.toISOString(),
    status: failedForGood ? 'failed' : row.status,
    format: row.format,
    bank_name: row.bankName,
    account_number: row.accountNumber,
    start_date: row.startDate,
    end_date: row.endDate,
    currency: row.currency,
    opening_balance: money(row.openingBalanceMinor, row.currency),
    closing_balance: money(row.closingBalanceMinor, row.currency),
    job_id: row.jobId,
    error: row.error ?? (failedForGood ? (jobError ?? 'The analysis failed') : null),
    warnings: row.warnings.map((w) => ({ code: w.code, message: w.message, at: w.at ?? null })),
    total_transactions: counts?.total ?? 0,
    matched_transactions: counts?.matched ?? 0,
  };
}

function transactionToApi(
  tx: BankTransactionRow,
  invoice: {
    id: string;
    vendor: string | null;
    amount: string | null;
    currency: string | null;
    invoiceDate: string | null;
    invoiceNumber: string | null;
  } | null,
): BankTransaction {
  return {
    id: tx.id,
    date: tx.date,
    value_date: tx.valueDate,
    description: tx.description,
    amount: Number(minorUnitsToDecimal(tx.amountMinor, tx.currency)),
    currency: tx.currency,
    type: tx.type,
    matched_invoice_id: tx.matchedInvoiceId,
    match_score: tx.matchScore === null ? null : Math.round(tx.matchScore * 1000) / 1000,
    match_explanation: tx.matchExplanation,
    match_source: tx.matchSource,
    matched_invoice:
      invoice && tx.matchedInvoiceId
        ? {
            id: invoice.id,
            vendor: invoice.vendor,
            amount: invoice.amount,
            currency: invoice.currency,
            invoice_date: invoice.invoiceDate,
            invoice_number: invoice.invoiceNumber,
          }
        : null,
  };
}
