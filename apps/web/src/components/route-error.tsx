import { isRouteErrorResponse, useRouteError } from 'react-router';
import { buttonClasses } from './ui/button';

/** The router's errorElement (spec §8): status and status text, or the error's message. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
      <div className="max-w-lg rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-2xl font-semibold text-slate-900">Unexpected Application Error!</h1>
        <p className="mt-3 break-words font-mono text-sm text-slate-600">{detail}</p>
        <a href="/" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go Home
        </a>
      </div>
    </main>
  );
}
