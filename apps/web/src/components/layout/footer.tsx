import { Link } from 'react-router';
import { API_DOCS_URL, DOCS_URL } from '../../lib/links';

const linkClass = 'rounded hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600';

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white px-6 py-4 text-sm text-slate-500">
      <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
        <p>© {new Date().getFullYear()} Invoicebox</p>
        <nav aria-label="Footer" className="flex flex-wrap items-center gap-4">
          <Link to="/dashboard" className={linkClass}>
            Dashboard
          </Link>
          <Link to="/history" className={linkClass}>
            History
          </Link>
          <Link to="/settings" className={linkClass}>
            Privacy
          </Link>
          <a href={API_DOCS_URL} className={linkClass}>
            API
          </a>
          <a href={DOCS_URL} target="_blank" rel="noreferrer" className={linkClass}>
            Documentation
          </a>
        </nav>
      </div>
    </footer>
  );
}
