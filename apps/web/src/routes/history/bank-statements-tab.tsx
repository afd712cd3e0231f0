import { Landmark } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { ClearAllButton } from './clear-all-button';

/** The statement history arrives with the bank module; until then the list is empty. */
export function BankStatementsTab() {
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>Bank Statements</CardTitle>
          <CardDescription>Your last 20 statement uploads.</CardDescription>
        </div>
        <ClearAllButton what="bank statement history" disabled onConfirm={() => undefined} />
      </CardHeader>
      <CardContent>
        <EmptyState icon={Landmark} title="No bank statements uploaded yet" />
      </CardContent>
    </Card>
  );
}
