import { Landmark } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { DASHBOARD_BANK_STATEMENTS, useBankStatements } from '../../features/bank/api/bank-api';
import { BankStatusBadge } from '../../features/bank/components/bank-status-badge';

/** Spec §2 Dashboard: the first 5 statements with filename, upload date and status, linking to /bank-analysis. */
export function BankStatementsCard() {
  const statements = useBankStatements(DASHBOARD_BANK_STATEMENTS, 0);
  const list = statements.data?.statements ?? [];
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div>
          <CardTitle>Bank Statements</CardTitle>
          <CardDescription>Your most recent statement uploads.</CardDescription>
        </div>
        {list.length > 0 ? (
          <Link to="/bank-analysis" className="text-sm font-medium text-indigo-600">
            Upload Bank Statement
          </Link>
        ) : null}
      </CardHeader>
      <CardContent>
        {list.length === 0 ? (
          <EmptyState
            icon={Landmark}
            title="No bank statements uploaded yet"
            action={
              <Link to="/bank-analysis" className={buttonClasses('primary', 'sm')}>
                Upload Bank Statement
              </Link>
            }
          />
        ) : (
          <ul aria-label="Recent bank statements" className="divide-y divide-slate-100">
            {list.map((s) => (
              <li key={s.id}>
                <Link
                  to={`/bank-analysis?statement=${encodeURIComponent(s.id)}`}
                  className="flex items-center gap-3 rounded-md py-2 hover:bg-slate-50"
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium text-slate-900">{s.filename}</p>
                    <p className="text-xs text-slate-500">{new Date(s.upload_date).toLocaleDateString()}</p>
                  </div>
                  <BankStatusBadge status={s.status} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
