import { CloudUpload, FileText, type LucideIcon, Mail, RefreshCw } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';

const ACTIONS: ReadonlyArray<{ title: string; description: string; button: string; icon: LucideIcon }> = [
  { title: 'Gmail Sync', description: 'Scan your mailboxes for new invoice emails.', button: 'Sync Gmail', icon: Mail },
  {
    title: 'Drive Upload',
    description: 'File the invoices found so far in your drive.',
    button: 'Upload to Drive',
    icon: CloudUpload,
  },
  {
    title: 'Full Sync',
    description: 'Mail sync, then processing, then drive upload, in one go.',
    button: 'Run Full Sync',
    icon: RefreshCw,
  },
];

/** Spec §2 Invoice Analysis. The sync starters and the invoice list arrive with the mail and invoice modules. */
export function InvoiceAnalysisRoute() {
  return (
    <>
      <PageHeader title="Invoice Analysis" description="Sync your mail and browse the invoices found." />
      <div className="grid gap-4 md:grid-cols-3">
        {ACTIONS.map(({ title, description, button, icon: Icon }) => (
          <Card key={title}>
            <CardHeader>
              <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-indigo-100 text-indigo-600">
                <Icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <CardTitle className="mt-2">{title}</CardTitle>
              <CardDescription>{description}</CardDescription>
            </CardHeader>
            <CardContent>
              <Button variant="outline" className="w-full" disabled aria-describedby="sync-unavailable">
                {button}
              </Button>
            </CardContent>
          </Card>
        ))}
      </div>
      <p id="sync-unavailable" className="mt-3 text-sm text-slate-500">
        Syncing is not available yet: no mail account can be connected on this server so far.
      </p>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Invoices</CardTitle>
        </CardHeader>
        <CardContent>
          <EmptyState icon={FileText} title="No invoices found" />
        </CardContent>
      </Card>
    </>
  );
}
