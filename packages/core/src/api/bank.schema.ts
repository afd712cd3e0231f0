import { z } from 'zod';

/** Statuses of spec §3; the dashboard shows anything but processed or pending as failed. */
export const BANK_STATEMENT_STATUSES = ['pending', 'processed', 'failed'] as const;
export const BankStatementStatusSchema = z.enum(BANK_STATEMENT_STATUSES);
export type BankStatementStatus = z.infer<typeof BankStatementStatusSchema>;

/** The file kinds a statement is read from (the PDF of spec §5, and the structured exports banks offer). */
export const BANK_STATEMENT_FORMATS = ['pdf', 'csv', 'ofx', 'camt053', 'mt940'] as const;

/** Largest statement file accepted by the upload (base64 in JSON, so the request is about 4/3 of it). */
export const BANK_STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

/** Non-fatal findings of the reader or the balance check, e.g. `balance_mismatch` naming the first bad row. */
export const BankStatementWarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  at: z.number().int().nullable(),
});

/** The Bank statement entity of spec §3, with what the analysis adds. */
export const BankStatementSchema = z.object({
  id: z.string(),
  filename: z.string(),
  upload_date: z.string(),
  status: BankStatementStatusSchema,
  format: z.string().nullable(),
  bank_name: z.string().nullable(),
  account_number: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  currency: z.string().nullable(),
  /** Amounts as decimal strings with the currency's fraction digits (2 for most). */
  opening_balance: z.string().nullable(),
  closing_balance: z.string().nullable(),
  job_id: z.string().nullable(),
  /** Why the analysis failed (status failed), for the person. */
  error: z.string().nullable(),
  warnings: z.array(BankStatementWarningSchema),
  total_transactions: z.number().int(),
  matched_transactions: z.number().int(),
});
export type BankStatement = z.infer<typeof BankStatementSchema>;

export const BankStatementListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const BankStatementListResponseSchema = z.object({
  statements: z.array(BankStatementSchema),
  total: z.number().int(),
});
export type BankStatementListResponse = z.infer<typeof BankStatementListResponseSchema>;

export const BankTransactionSchema = z.object({
  id: z.string(),
  /** Booking date, YYYY-MM-DD. */
  date: z.string(),
  value_date: z.string().nullable(),
  description: z.string(),
  /** Positive decimal number; the direction is `type`. */
  amount: z.number(),
  currency: z.string(),
  type: z.enum(['debit', 'credit']),
  matched_invoice_id: z.string().nullable(),
  match_score: z.number().nullable(),
  match_explanation: z.string().nullable(),
  /** `auto` when the matcher chose, `manual` when the person did (a manual unmatch is `manual` with no invoice). */
  match_source: z.enum(['auto', 'manual']).nullable(),
  /** The matched invoice as the table shows it. */
  matched_invoice: z
    .object({
      id: z.string(),
      vendor: z.string().nullable(),
      amount: z.string().nullable(),
      currency: z.string().nullable(),
      invoice_date: z.string().nullable(),
      invoice_number: z.string().nullable(),
    })
    .nullable(),
});
export type BankTransaction = z.infer<typeof BankTransactionSchema>;

export const ReconciliationResultSchema = z.object({
  total_transactions: z.number().int(),
  matched_transactions: z.number().int(),
  unmatched_transactions: z.number().int(),
});
export type ReconciliationResult = z.infer<typeof ReconciliationResultSchema>;

/** GET /bank-statements/{id}: the statement and its analysis (spec §3 Bank statement analysis). */
export const BankStatementAnalysisSchema = BankStatementSchema.extend({
  reconciliation_result: ReconciliationResultSchema,
  transactions: z.array(BankTransactionSchema),
});
export type BankStatementAnalysis = z.infer<typeof BankStatementAnalysisSchema>;

export const BankStatementSummarySchema = z.object({
  total_statements: z.number().int(),
  processed: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  total_transactions: z.number().int(),
  matched_transactions: z.number().int(),
  unmatched_transactions: z.number().int(),
  last_upload_date: z.string().nullable(),
});
export type BankStatementSummary = z.infer<typeof BankStatementSummarySchema>;

/** Spec §3 upload payload: filename, file_data (base64), optionally user_ids. */
export const BankStatementUploadSchema = z.object({
  filename: z.string().trim().min(1).max(255),
  file_data: z.string().min(1),
  user_ids: z.array(z.string().uuid()).max(100).optional(),
});
export type BankStatementUpload = z.infer<typeof BankStatementUploadSchema>;

export const BankStatementUploadResponseSchema = z.object({
  bank_statement_id: z.string(),
  job_id: z.string().nullable(),
});
export type BankStatementUploadResponse = z.infer<typeof BankStatementUploadResponseSchema>;

export const BankTransactionParamsSchema = z.object({ id: z.string().uuid(), transactionId: z.string().uuid() });
export const BankManualMatchSchema = z.object({ invoice_id: z.string().uuid() });
export const ClearBankStatementsResponseSchema = z.object({ deleted: z.number().int() });

/** The account number as History shows it: '***' and its last 4 characters (spec §2). */
export function maskAccountNumber(accountNumber: string | null | undefined): string {
  if (!accountNumber) return '';
  return `***${accountNumber.replace(/\s+/g, '').slice(-4)}`;
}
