import { FileUp } from 'lucide-react';
import { PageHeader } from '../../components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';

/** Spec §2 Bank Analysis. Upload and analysis arrive with the bank module. */
export function BankAnalysisRoute() {
  return (
    <>
      <PageHeader
        title="Bank Statement Analysis"
        description="Upload a bank statement PDF and match its transactions to your invoices."
      />
      <Card>
        <CardHeader>
          <CardTitle>Upload Bank Statement</CardTitle>
          <CardDescription>One PDF statement at a time.</CardDescription>
        </CardHeader>
        <CardContent>
          <EmptyState
            icon={FileUp}
            title="Statement upload is not available yet"
            description="Bank statement analysis is coming in a later version of this server."
          />
        </CardContent>
      </Card>
    </>
  );
}
