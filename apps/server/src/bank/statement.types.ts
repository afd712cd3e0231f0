/**
 * Bank statements as the readers return them: pure data, money in integer minor units of an ISO 4217 currency,
 * calendar dates as YYYY-MM-DD. Every reader (CSV, OFX, camt.053, MT940, PDF) returns this shape and passes one
 * contract suite. Fields a file does not state are null, never invented.
 */

export type TransactionType = 'debit' | 'credit';

export interface StatementTransaction {
  /** Booking date (the transaction date of spec §3), YYYY-MM-DD. */
  date: string;
  /** Value date when the file states one, else null. */
  valueDate: string | null;
  /** What a person reads on the statement: counterparty, purpose, reference, joined on one line. */
  description: string;
  /** Always positive; the direction is `type`. */
  amountMinor: number;
  type: TransactionType;
  /** ISO 4217. */
  currency: string;
  /** The running balance after this row, where the file prints one. */
  balanceAfterMinor: number | null;
  /**
   * An opening or carried-forward balance printed right before this row after other rows (the next account of a
   * combined statement): the running balances start again from it. Absent otherwise.
   */
  balanceBeforeMinor?: number;
  /** The bank's own reference or end-to-end id, when stated. */
  reference: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
}

export interface ParsedStatement {
  bankName: string | null;
  /** IBAN or the local account number, as printed (spaces removed). */
  accountNumber: string | null;
  startDate: string | null;
  endDate: string | null;
  /** The account's currency. */
  currency: string | null;
  openingBalanceMinor: number | null;
  closingBalanceMinor: number | null;
  /** In the file's order. */
  transactions: StatementTransaction[];
  /** Non-fatal findings, e.g. `balance_mismatch` naming the first row where the balances stop adding up. */
  warnings: StatementIssue[];
}

export interface StatementIssue {
  /** Stable snake_case code: `unsupported_format`, `encrypted`, `balance_mismatch`, `no_transactions`, ... */
  code: string;
  message: string;
  /** 0-based transaction index (or 1-based source line for syntax errors) the issue is about, when there is one. */
  at?: number;
}

export type StatementFormat = 'csv' | 'ofx' | 'camt053' | 'mt940' | 'pdf';

/** A file may hold several statements (camt.053 and MT940 often do). Errors as data, never a throw on bad input. */
export type StatementReadResult =
  | { ok: true; format: StatementFormat; statements: ParsedStatement[] }
  | { ok: false; errors: StatementIssue[] };

/** One reader per format; the registry picks the first whose `accepts` says yes. */
export interface StatementReader {
  readonly format: StatementFormat;
  /** From the first bytes and the name only: cheap, no parsing. */
  accepts(head: Uint8Array, filename: string): boolean;
  read(bytes: Uint8Array, filename: string, options?: StatementReadOptions): Promise<StatementReadResult>;
}

export interface StatementReadOptions {
  /** The optional OpenAI-compatible endpoint; PDFs whose rule reading is in doubt ask it (statement.model.ts). */
  model?: import('../extraction/extraction.types').ModelEndpointOptions;
}
