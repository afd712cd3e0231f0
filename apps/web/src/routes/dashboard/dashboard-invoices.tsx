import {
  displayStatus,
  formatCurrency,
  formatInvoiceAmount,
  formatPercentChange,
  formatShortUsDate,
  type InvoiceStats,
  invoiceAmountForSorting,
  trendDirection,
} from '@invoicebox/core';
import { FileText, TrendingDown, TrendingUp } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { useBankSummary } from '../../features/bank/api/bank-api';
import { useInvoiceStats, useInvoices } from '../../features/invoices/api/invoices-api';
import { TrySampleDataButton } from '../../features/sample/components/sample-data';

/**
 * Total Amount in every currency, never summed across them: the main currency (the one most invoices use) first; the
 * others behind a "+ N currencies" button that lists each on its own line.
 */
function TotalAmount({ stats }: { stats: InvoiceStats }) {
  const [open, setOpen] = useState(false);
  const others = stats.by_currency.length - 1;
  return (
    <>
      <CardTitle className="text-2xl">{formatCurrency(stats.total_amount, stats.currency)}</CardTitle>
      {others > 0 ? (
        <div className="text-sm text-slate-500">
          <button
            type="button"
            className="font-medium text-indigo-600 hover:underline"
            aria-expanded={open}
            aria-controls="total-amount-currencies"
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide currencies' : `+ ${others} ${others === 1 ? 'currency' : 'currencies'}`}
          </button>
          {open ? (
            <ul id="total-amount-currencies" aria-label="Total amount per currency" className="mt-1 space-y-0.5">
              {stats.by_currency.map((c) => (
                <li key={c.currency} className="flex justify-between gap-2">
                  <span className="font-medium text-slate-700">{formatCurrency(c.total_amount, c.currency)}</span>
                  <span>
                    {c.invoices} {c.invoices === 1 ? 'invoice' : 'invoices'}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** Spec §2 Dashboard: the four stat cards. */
export function StatCards() {
  const stats = useInvoiceStats();
  const s = stats.data;
  const bank = useBankSummary();
  const trend = s ? trendDirection(s.this_month_amount, s.last_month_amount) : 'flat';
  const several = (s?.by_currency.length ?? 0) > 1;
  const cards: Array<{ title: string; value: ReactNode; note?: string }> = [
    { title: 'Total Invoices', value: s ? String(s.total_invoices) : '–' },
    { title: 'Total Amount', value: s ? <TotalAmount stats={s} /> : '–' },
    {
      title: 'This Month',
      value: s ? formatCurrency(s.this_month_amount, s.currency) : '–',
      // With several currencies the month compares the main one only: say which.
      note: s
        ? `${formatPercentChange(s.this_month_amount, s.last_month_amount)} vs last month${several ? ` (${s.currency})` : ''}`
        : undefined,
    },
    { title: 'Bank Statements', value: bank.data ? String(bank.data.total_statements) : '–' },
  ];
  return (
    <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {cards.map((card) => (
        <Card key={card.title}>
          <CardHeader>
            <CardDescription>{card.title}</CardDescription>
            {typeof card.value === 'string' ? <CardTitle className="text-2xl">{card.value}</CardTitle> : card.value}
            {card.note ? (
              <p className="flex items-center gap-1 text-sm text-slate-500">
                {trend === 'up' ? <TrendingUp className="h-4 w-4 text-emerald-600" aria-label="up" /> : null}
                {trend === 'down' ? <TrendingDown className="h-4 w-4 text-red-600" aria-label="down" /> : null}
                {card.note}
              </p>
            ) : null}
          </CardHeader>
        </Card>
      ))}
    </div>
  );
}

/** Recent Invoices: 10, sortable by price (the exact amount; spec §5 parsing only without one) or date. */
export function RecentInvoices() {
  const invoices = useInvoices({ hasAttachments: true, page: 1, limit: 10 });
  const [by, setBy] = useState<'date' | 'price'>('date');
  const [dir, setDir] = useState<'desc' | 'asc'>('desc');
  const sorted = useMemo(() => {
    const list = [...(invoices.data?.invoices ?? [])];
    const key = (i: (typeof list)[number]) =>
      by === 'price' ? invoiceAmountForSorting(i) : Date.parse(i.invoice_date ?? '') || 0;
    list.sort((a, b) => (dir === 'desc' ? key(b) - key(a) : key(a) - key(b)));
    return list;
  }, [invoices.data, by, dir]);
  const total = invoices.data?.total ?? 0;
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div>
          <CardTitle>Recent Invoices</CardTitle>
          <CardDescription>The latest invoices found in your mail.</CardDescription>
        </div>
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={() => setBy(by === 'date' ? 'price' : 'date')}>
            {by === 'date' ? 'Date' : 'Price'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDir(dir === 'desc' ? 'asc' : 'desc')}>
            {dir === 'desc' ? 'Desc' : 'Asc'}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {sorted.length === 0 ? (
          <EmptyState
            icon={FileText}
            title="No invoices processed yet"
            action={
              <div className="flex flex-wrap justify-center gap-2">
                <Link to="/invoice-analysis" className={buttonClasses('primary', 'sm')}>
                  Sync Gmail Invoices
                </Link>
                <TrySampleDataButton />
              </div>
            }
          />
        ) : (
          <ul className="divide-y divide-slate-100">
            {sorted.map((invoice) => {
              const status = displayStatus(invoice);
              return (
                <li key={invoice.id} className="flex items-center gap-3 py-2">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium text-slate-900">{invoice.vendor || 'Unknown Vendor'}</p>
                    <p className="truncate text-xs text-slate-500">
                      {invoice.email} · {formatShortUsDate(invoice.invoice_date)}
                    </p>
                  </div>
                  <span className="text-sm font-medium">{formatInvoiceAmount(invoice)}</span>
                  <Badge
                    variant={
                      status.badge === 'destructive'
                        ? 'destructive'
                        : status.badge === 'default'
                          ? 'success'
                          : 'warning'
                    }
                  >
                    {status.label}
                  </Badge>
                </li>
              );
            })}
          </ul>
        )}
        {total > 5 ? (
          <Link to="/invoice-analysis" className="mt-3 inline-block text-sm font-medium text-indigo-600">
            View All Invoices
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}
