import { FORWARDING_MESSAGES } from '@invoicebox/core';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

/** Spec §2 'How it works', in its order. */
export const HOW_IT_WORKS = [
  'New invoices are detected during mail sync',
  'The original emails are forwarded to your recipients',
  'Each invoice is forwarded only once to each recipient',
  'Forwarding can also be triggered manually with Forward Now',
] as const;

export function HowItWorksCard({ rule }: { rule: string | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>How it works</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-600">
          {HOW_IT_WORKS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{rule || FORWARDING_MESSAGES.rule}</p>
      </CardContent>
    </Card>
  );
}
