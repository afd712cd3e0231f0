import { History, Landmark, type LucideIcon, RefreshCw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { SampleDataBanner } from '../../features/sample/components/sample-data';
import { BankStatementsCard } from './dashboard-bank';
import { RecentInvoices, StatCards } from './dashboard-invoices';

// The chart library is large and only this screen draws a chart: it loads with the dashboard, not with the app.
const MonthTrend = lazy(() => import('./month-trend').then((m) => ({ default: m.MonthTrend })));

const QUICK_ACTIONS: ReadonlyArray<{ to: string; label: string; icon: LucideIcon }> = [
  { to: '/invoice-analysis', label: 'Sync Gmail Invoices', icon: RefreshCw },
  { to: '/bank-analysis', label: 'Upload Bank Statement', icon: Landmark },
  { to: '/history', label: 'View History', icon: History },
];

/** Spec §2 Dashboard. */
export function DashboardRoute() {
  return (
    <>
      <PageHeader title="Dashboard" description="An overview of your invoices and bank statements." />
      <SampleDataBanner />
      <StatCards />
      <Suspense fallback={null}>
        <MonthTrend />
      </Suspense>
      <Card className="mb-6">
        <CardHeader>
          <CardTitle>Quick Actions</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-3">
          {QUICK_ACTIONS.map(({ to, label, icon: Icon }) => (
            <Link key={to} to={to} className={buttonClasses('outline')}>
              <Icon className="h-4 w-4" aria-hidden="true" />
              {label}
            </Link>
          ))}
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <RecentInvoices />
        <BankStatementsCard />
      </div>
    </>
  );
}
