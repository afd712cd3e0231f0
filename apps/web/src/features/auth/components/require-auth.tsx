import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, checkHealth } from '../../../lib/api-client';
import { useMe } from '../api/get-me';

export interface RequireAuthProps {
  children: ReactNode;
  /** Shown instead of the children when nobody is signed in. */
  signIn: ReactNode;
}

/** Spec §2: signed-in routes show the sign-in screen unless the server knows the caller. */
export function RequireAuth({ children, signIn }: RequireAuthProps) {
  const me = useMe();
  if (me.data) return <>{children}</>;
  if (me.isPending && me.fetchStatus !== 'idle') {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Checking your session…" />
      </div>
    );
  }
  if (me.error instanceof ApiError && (me.error.status === 401 || me.error.status === 403)) return <>{signIn}</>;
  if (me.error) return <ServerUnreachable message={me.error.message} onRetry={() => void me.refetch()} />;
  return <>{signIn}</>;
}

/** The server did not answer who is signed in: its GET /health says whether it is down (spec §8 'Health check failed'). */
function ServerUnreachable({ message, onRetry }: { message: string; onRetry: () => void }) {
  const health = useQuery({ queryKey: ['health'], queryFn: ({ signal }) => checkHealth(signal), retry: false });
  return (
    <div className="flex min-h-screen items-center justify-center p-6">
      <div role="alert" className="max-w-md rounded-xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="text-lg font-semibold text-slate-900">Could not reach the server</h1>
        <p className="mt-2 text-sm text-slate-600">{message}</p>
        {health.error ? <p className="mt-1 text-sm font-medium text-red-700">{health.error.message}</p> : null}
        <Button
          className="mt-4"
          onClick={() => {
            onRetry();
            void health.refetch();
          }}
        >
          Retry
        </Button>
      </div>
    </div>
  );
}
