import type { BankTransaction } from '@invoicebox/core';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { formatStatementDate, signedStatementAmount } from '../format';

export interface TransactionsTableProps {
  transactions: BankTransaction[];
  onMatch: (transaction: BankTransaction) => void;
  onUnmatch: (transaction: BankTransaction) => void;
  busyId: string | null;
}

/** The matched invoice as the row names it: vendor and number. */
function invoiceLabel(t: BankTransaction): string | null {
  const inv = t.matched_invoice;
  if (!inv) return null;
  return [inv.vendor || 'Unknown Vendor', inv.invoice_number ? `No. ${inv.invoice_number}` : null]
    .filter(Boolean)
    .join(' · ');
}

/** Spec §2: Date, Description, Amount (a debit red with a minus, otherwise green with a plus) and Status. */
export function TransactionsTable({ transactions, onMatch, onUnmatch, busyId }: TransactionsTableProps) {
  if (transactions.length === 0) {
    return <p className="py-8 text-center text-slate-500">No transactions found in this bank statement</p>;
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Date
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Description
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              Status
            </th>
            <th scope="col" className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {transactions.map((t) => {
            const matched = t.matched_invoice_id !== null;
            const invoice = invoiceLabel(t);
            return (
              <tr key={t.id} className="align-top">
                <td className="whitespace-nowrap py-2 pr-4 text-slate-700">{formatStatementDate(t.date)}</td>
                <td className="max-w-md py-2 pr-4 text-slate-900">{t.description}</td>
                <td
                  className={cn(
                    'whitespace-nowrap py-2 pr-4 text-right font-medium tabular-nums',
                    t.type === 'debit' ? 'text-red-600' : 'text-emerald-600',
                  )}
                >
                  {signedStatementAmount(t.amount, t.type, t.currency)}
                </td>
                <td className="py-2 pr-4">
                  <Badge variant={matched ? 'success' : 'secondary'}>{matched ? 'Matched' : 'Unmatched'}</Badge>
                  {invoice ? <p className="mt-1 text-xs font-medium text-slate-700">{invoice}</p> : null}
                  {t.match_explanation ? <p className="mt-0.5 text-xs text-slate-500">{t.match_explanation}</p> : null}
                </td>
                <td className="whitespace-nowrap py-2 text-right">
                  {matched ? (
                    <Button size="sm" variant="ghost" disabled={busyId === t.id} onClick={() => onUnmatch(t)}>
                      Unmatch
                    </Button>
                  ) : t.type === 'debit' ? (
                    <Button size="sm" variant="outline" disabled={busyId === t.id} onClick={() => onMatch(t)}>
                      Match
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
