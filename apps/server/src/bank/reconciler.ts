import { type ReconcileInvoice, reconcile } from './reconcile/reconcile';
import type { StatementTransaction } from './statement.types';

export type { ReconcileInvoice };

/** A person's decisions the matcher must keep: pinned pairs stay, forbidden pairs never happen. */
export interface ReconcileDecisions {
  pinned: Array<{ transactionIndex: number; invoiceId: string }>;
  /** A transaction with `invoiceId` null must stay unmatched. */
  forbidden: Array<{ transactionIndex: number; invoiceId: string | null }>;
}

export interface ReconcileMatch {
  /** 0-based position in the statement's transactions. */
  transactionIndex: number;
  invoiceId: string;
  /** 0..1 */
  score: number;
  /** What a person reads in the table: "amount equal, paid 3 days after the invoice date, 'ACME' in the description". */
  explanation: string;
}

/** One-to-one matching of debit transactions with invoices (bank/reconcile/). */
export type Reconciler = (
  transactions: StatementTransaction[],
  invoices: ReconcileInvoice[],
  decisions: ReconcileDecisions,
) => ReconcileMatch[];
/**
 * The product's matcher (bank/reconcile/reconcile.ts) behind the Reconciler seam. A transaction the person marked as
 * paying nothing takes no part: it is handed over as a credit, which never pays an invoice.
 */
export const reconcileTransactions: Reconciler = (transactions, invoices, decisions) => {
  const unmatched = new Set(decisions.forbidden.filter((f) => f.invoiceId === null).map((f) => f.transactionIndex));
  const input = transactions.map((t, i) => (unmatched.has(i) ? { ...t, type: 'credit' as const } : t));
  const forbidden = decisions.forbidden.flatMap((f) =>
    f.invoiceId === null ? [] : [{ transactionIndex: f.transactionIndex, invoiceId: f.invoiceId }],
  );
  return reconcile(input, invoices, { pinned: decisions.pinned, forbidden }).matches.map((m) => ({
    transactionIndex: m.transactionIndex,
    invoiceId: m.invoiceId,
    score: m.score,
    explanation: m.explanation,
  }));
};
