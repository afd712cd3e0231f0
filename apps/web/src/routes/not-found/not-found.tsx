import { FileQuestion } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';

export function NotFoundRoute() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center">
      <FileQuestion className="h-14 w-14 text-slate-400" aria-hidden="true" />
      <p className="text-6xl font-bold text-slate-900">404</p>
      <h1 className="text-xl text-slate-600">Oops! Page not found</h1>
      <Link to="/" className={buttonClasses('primary', 'md', 'mt-2')}>
        Return to Home
      </Link>
    </main>
  );
}
