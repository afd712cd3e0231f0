import { type BankStatementAnalysis, maskAccountNumber } from '@invoicebox/core';
import { AlertTriangle } from 'lucide-react';
import { formatStatementAmount, formatStatementDate } from '../format';

/** Spec §2: the overview (Total Transactions, Matched, Unmatched), the period, and what the statement says of itself. */
export function StatementOverview({ statement }: { statement: BankStatementAnalysis }) {
  const r = statement.reconciliation_result;
  const counts = [
    { label: 'Total Transactions', value: r.total_transactions, tone: 'text-slate-900' },
    { label: 'Matched', value: r.matched_transactions, tone: 'text-emerald-600' },
    { label: 'Unmatched', value: r.unmatched_transactions, tone: 'text-amber-600' },
  ];
  // A file that states no period (a CSV export): the range of its bookings, said to be that.
  const dates = statement.transactions.map((t) => t.date).sort();
  const period =
    statement.start_date || statement.end_date
      ? `${formatStatementDate(statement.start_date) || '…'} – ${formatStatementDate(statement.end_date) || '…'}`
      : dates.length
        ? `Not stated; bookings ${formatStatementDate(dates[0]!)} – ${formatStatementDate(dates.at(-1)!)}`
        : 'Not stated in the statement';
  const money = (v: string | null) => (v === null ? '–' : formatStatementAmount(Number(v), statement.currency));
  const details = [
    { label: 'Statement period', value: period },
    { label: 'Bank', value: statement.bank_name || 'Unknown bank' },
    { label: 'Account', value: maskAccountNumber(statement.account_number) || '–' },
    { label: 'Opening balance', value: money(statement.opening_balance) },
    { label: 'Closing balance', value: money(statement.closing_balance) },
  ];
  return (
    <div className="space-y-4">
      <dl className="grid gap-3 sm:grid-cols-3" aria-label="Overview">
        {counts.map((c) => (
          <div key={c.label} className="rounded-lg border border-slate-200 bg-slate-50 p-4">
            <dt className="text-sm text-slate-500">{c.label}</dt>
            <dd className={`text-2xl font-semibold ${c.tone}`}>{c.value}</dd>
          </div>
        ))}
      </dl>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-5" aria-label="Statement details">
        {details.map((d) => (
          <div key={d.label}>
            <dt className="text-slate-500">{d.label}</dt>
            <dd className="font-medium text-slate-900">{d.value}</dd>
          </div>
        ))}
      </dl>
      {statement.warnings.length > 0 ? (
        <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p className="flex items-center gap-2 font-medium">
            <AlertTriangle className="h-4 w-4" aria-hidden="true" />
            Check this statement
          </p>
          <ul className="mt-1 list-disc pl-6">
            {statement.warnings.map((w) => (
              <li key={`${w.code}-${w.at ?? ''}-${w.message}`}>{w.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
