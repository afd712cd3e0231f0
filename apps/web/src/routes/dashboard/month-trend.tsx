import { formatCurrency, type InvoiceStats, lastTwelveMonths } from '@invoicebox/core';
import { cloneElement, type ReactElement, useMemo, useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { useInvoiceStats } from '../../features/invoices/api/invoices-api';

interface MonthPoint {
  month: string;
  label: string;
  amount: number;
  invoices: number;
}

/** The 12 months (oldest first) of one currency, months without invoices as zero. */
export function monthSeries(stats: InvoiceStats, currency: string, now = new Date()): MonthPoint[] {
  const byMonth = new Map(stats.by_month.filter((m) => m.currency === currency).map((m) => [m.month, m]));
  return lastTwelveMonths(now)
    .reverse()
    .map(({ value, label }) => {
      const found = byMonth.get(value);
      const [name = '', year = ''] = label.split(' ');
      return {
        month: value,
        label: `${name.slice(0, 3)} ${year.slice(2)}`,
        amount: found?.total_amount ?? 0,
        invoices: found?.invoices ?? 0,
      };
    });
}

/** The chart at the card's width; a fixed size where ResizeObserver is missing (old browsers, jsdom). */
function Sized({ children }: { children: ReactElement }) {
  if (typeof ResizeObserver === 'undefined') return cloneElement(children, { width: 560, height: 240 } as object);
  return (
    <ResponsiveContainer width="100%" height={240}>
      {children}
    </ResponsiveContainer>
  );
}

/**
 * The dashboard's month trend: invoices and their amount per month over the last 12 months, one currency at a time
 * (the main one first; amounts in different currencies are never added). The chart has a table twin for screen readers.
 */
export function MonthTrend() {
  const stats = useInvoiceStats().data;
  // Currencies with invoices in the 12 months, the main one (most invoices overall) first.
  const currencies = useMemo(() => {
    const rank = (c: string) => stats?.by_currency.findIndex((x) => x.currency === c) ?? 0;
    return [...new Set((stats?.by_month ?? []).map((m) => m.currency))].sort((a, b) => rank(a) - rank(b));
  }, [stats]);
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen && currencies.includes(chosen) ? chosen : currencies[0];
  if (!stats || !currency) return null;
  const series = monthSeries(stats, currency);
  const money = (value: number) => formatCurrency(value, currency);
  return (
    <Card className="mb-6">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Month Trend</CardTitle>
          <CardDescription>Invoices and their amount per month, last 12 months, in {currency}.</CardDescription>
        </div>
        {currencies.length > 1 ? (
          <fieldset className="flex flex-wrap gap-1">
            <legend className="sr-only">Currency</legend>
            {currencies.map((c) => (
              <Button
                key={c}
                size="sm"
                variant={c === currency ? 'primary' : 'outline'}
                aria-pressed={c === currency}
                onClick={() => setChosen(c)}
              >
                {c}
              </Button>
            ))}
          </fieldset>
        ) : null}
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <div aria-hidden="true">
          <Sized>
            <ComposedChart accessibilityLayer={false} data={series} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis yAxisId="amount" fontSize={12} tickFormatter={(v: number) => money(v).replace(/\.\d+$/, '')} />
              <YAxis yAxisId="invoices" orientation="right" allowDecimals={false} fontSize={12} />
              <Tooltip
                formatter={(value, name) => (name === 'Amount' ? money(Number(value)) : String(value))}
                labelFormatter={(label) => String(label)}
              />
              <Bar yAxisId="amount" dataKey="amount" name="Amount" fill="#6366f1" radius={[3, 3, 0, 0]} />
              <Line
                yAxisId="invoices"
                dataKey="invoices"
                name="Invoices"
                stroke="#f59e0b"
                strokeWidth={2}
                dot={false}
              />
            </ComposedChart>
          </Sized>
        </div>
        <table className="sr-only">
          <caption>Invoices and amount per month in {currency}</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Invoices</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {series.map((p) => (
              <tr key={p.month}>
                <th scope="row">{p.month}</th>
                <td>{p.invoices}</td>
                <td>{money(p.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
