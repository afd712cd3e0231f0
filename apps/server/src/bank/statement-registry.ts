/**
 * TEMPORARY stand-in, written on the reconcile branch so `invoicebox reconcile` compiles and its tests run: it reads
 * only a JSON statement, `{"transactions": [StatementTransaction…]}` (optionally with the other ParsedStatement
 * fields). The real registry of readers (CSV, OFX, camt.053, MT940, PDF) replaces this file at merge.
 */
import type { ParsedStatement, StatementReadResult, StatementTransaction } from './statement.types';

export async function readStatement(bytes: Uint8Array, filename: string): Promise<StatementReadResult> {
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8').decode(bytes));
  } catch {
    return { ok: false, errors: [{ code: 'unsupported_format', message: `not a statement file (${filename})` }] };
  }
  const transactions = (data as { transactions?: unknown })?.transactions;
  if (!Array.isArray(transactions)) {
    return { ok: false, errors: [{ code: 'unsupported_format', message: `no transactions found (${filename})` }] };
  }
  const head = data as Partial<ParsedStatement>;
  const statement: ParsedStatement = {
    bankName: head.bankName ?? null,
    accountNumber: head.accountNumber ?? null,
    startDate: head.startDate ?? null,
    endDate: head.endDate ?? null,
    currency: head.currency ?? null,
    openingBalanceMinor: head.openingBalanceMinor ?? null,
    closingBalanceMinor: head.closingBalanceMinor ?? null,
    transactions: transactions.map(
      (t: Partial<StatementTransaction>): StatementTransaction => ({
        date: String(t.date ?? ''),
        valueDate: t.valueDate ?? null,
        description: String(t.description ?? ''),
        amountMinor: Number(t.amountMinor ?? 0),
        type: t.type === 'credit' ? 'credit' : 'debit',
        currency: String(t.currency ?? head.currency ?? ''),
        balanceAfterMinor: t.balanceAfterMinor ?? null,
        reference: t.reference ?? null,
        counterpartyName: t.counterpartyName ?? null,
        counterpartyIban: t.counterpartyIban ?? null,
      }),
    ),
    warnings: [],
  };
  return { ok: true, format: 'csv', statements: [statement] };
}
