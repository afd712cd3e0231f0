import type { ForwardingStats } from '@invoicebox/core';
import { CheckCircle2, Clock, Hourglass, Percent, XCircle } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FORWARDING_TEXT } from '../api/forwarding-api';

/** '96.5%' or '100%': one decimal only where it says something. */
export function formatSuccessRate(rate: number): string {
  const rounded = Math.round(rate * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)}%`;
}

export function formatLastForwarded(at: string | null): string {
  if (!at) return 'Never';
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}

interface Props {
  stats: ForwardingStats | undefined;
  /** The load error; the server's message is shown after the spec §8 prefix. */
  error: Error | null;
}

/** Spec §2 Forwarding stats cards (spec §3 stats), and the latest failures with the provider's reason. */
export function ForwardingStatsCards({ stats, error }: Props) {
  const value = (v: string | undefined) => (stats ? v : '–');
  const cards = [
    {
      title: 'Successfully Forwarded',
      value: value(String(stats?.total_forwarded)),
      icon: CheckCircle2,
      tone: 'text-emerald-600',
    },
    { title: 'Failed Forwards', value: value(String(stats?.total_failed)), icon: XCircle, tone: 'text-red-600' },
    { title: 'Pending Forwards', value: value(String(stats?.total_pending)), icon: Hourglass, tone: 'text-amber-600' },
    {
      title: 'Success Rate',
      value: value(stats ? formatSuccessRate(stats.success_rate) : undefined),
      icon: Percent,
      tone: 'text-indigo-600',
    },
  ];
  return (
    <section aria-label="Forwarding statistics" className="mb-6 space-y-4">
      {error ? (
        <Alert variant="destructive">
          {FORWARDING_TEXT.statsFailed}
          {error.message}
        </Alert>
      ) : null}
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-5">
        {cards.map(({ title, value: v, icon: Icon, tone }) => (
          <Card key={title} aria-label={title} role="group">
            <CardHeader>
              <CardDescription className="flex items-center gap-1.5">
                <Icon className={`h-4 w-4 shrink-0 ${tone}`} aria-hidden="true" />
                {title}
              </CardDescription>
              <CardTitle className="text-2xl">{v}</CardTitle>
            </CardHeader>
          </Card>
        ))}
        <Card aria-label="Last forwarded" role="group" className="col-span-2 lg:col-span-1">
          <CardHeader>
            <CardDescription className="flex items-center gap-1.5">
              <Clock className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
              Last forwarded
            </CardDescription>
            <CardTitle className="text-base">{stats ? formatLastForwarded(stats.last_forwarded_at) : '–'}</CardTitle>
          </CardHeader>
        </Card>
      </div>
      {stats && stats.recent_failures.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>Recent failures</CardTitle>
            <CardDescription>
              These mails could not be delivered; the reason is the one the mail provider gave.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-slate-100 text-sm">
              {stats.recent_failures.map((f) => (
                <li key={`${f.invoice_id}-${f.recipient}`} className="py-2">
                  <p className="break-words font-medium text-slate-900">
                    {f.vendor || 'Unknown Vendor'} → {f.recipient}
                  </p>
                  <p className="break-words text-red-700">{f.error}</p>
                  <p className="text-xs text-slate-500">{formatLastForwarded(f.at)}</p>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </section>
  );
}
