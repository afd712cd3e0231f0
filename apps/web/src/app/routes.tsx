import type { RouteObject } from 'react-router';
import { Shell } from '../components/layout/shell';
import { RouteErrorPage } from '../components/route-error';
import { RequireAuth } from '../features/auth/components/require-auth';
import { AuthCallbackRoute } from '../routes/auth-callback/auth-callback';
import { BankAnalysisRoute } from '../routes/bank-analysis/bank-analysis';
import { DashboardRoute } from '../routes/dashboard/dashboard';
import { ForwardingRoute } from '../routes/forwarding/forwarding';
import { HistoryRoute } from '../routes/history/history';
import { InvoiceAnalysisRoute } from '../routes/invoice-analysis/invoice-analysis';
import { LandingRoute } from '../routes/landing/landing';
import { SignInScreen } from '../routes/landing/sign-in-screen';
import { NotFoundRoute } from '../routes/not-found/not-found';
import { SettingsRoute } from '../routes/settings/settings';

/** Every route of spec §2. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <LandingRoute /> },
      { path: '/auth/callback', element: <AuthCallbackRoute /> },
      {
        element: (
          <RequireAuth signIn={<SignInScreen />}>
            <Shell />
          </RequireAuth>
        ),
        children: [
          { path: '/dashboard', element: <DashboardRoute /> },
          { path: '/invoice-analysis', element: <InvoiceAnalysisRoute /> },
          { path: '/bank-analysis', element: <BankAnalysisRoute /> },
          { path: '/history', element: <HistoryRoute /> },
          { path: '/forwarding', element: <ForwardingRoute /> },
          { path: '/settings', element: <SettingsRoute /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];
