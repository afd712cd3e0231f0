import { Outlet, useLocation } from 'react-router';
import { ActiveJobToasts } from '../../features/jobs/components/active-job-toasts';
import { ErrorBoundary } from '../error-boundary';
import { Footer } from './footer';
import { Header } from './header';
import { Sidebar } from './sidebar';
import { useSidebar } from './use-sidebar';

/** The signed-in frame of spec §2: header, sidebar, the page, footer. */
export function Shell() {
  const { open, toggle, onNavigate, setOpen } = useSidebar();
  const location = useLocation();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <Header sidebarOpen={open} onToggleSidebar={toggle} />
      <div className="flex flex-1">
        <Sidebar open={open} onNavigate={onNavigate} onClose={() => setOpen(false)} />
        <div className="flex min-w-0 flex-1 flex-col">
          <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
            <ErrorBoundary key={location.pathname} level="page">
              <Outlet />
            </ErrorBoundary>
          </main>
          <Footer />
        </div>
      </div>
      <ActiveJobToasts />
    </div>
  );
}
