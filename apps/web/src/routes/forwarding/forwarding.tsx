import { Forward } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';

const HOW_IT_WORKS = [
  'New invoices are detected during mail sync',
  'The original emails are forwarded to your recipients',
  'Each invoice is forwarded only once',
  'Forwarding can also be triggered manually',
];

/** Spec §2 Forwarding. Configuration and stats arrive with the forwarding module. */
export function ForwardingRoute() {
  return (
    <>
      <PageHeader title="Invoice Forwarding" description="Send invoice emails on to the addresses you choose." />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Configuration</CardTitle>
          </CardHeader>
          <CardContent>
            <EmptyState
              icon={Forward}
              title="Forwarding is not available yet"
              description="Recipients and forwarding settings arrive in a later version of this server."
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>How it works</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-600">
              {HOW_IT_WORKS.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
