import { AlertCircle, CheckCircle2, Loader2, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Logo } from '../../components/logo';
import { Button } from '../../components/ui/button';

export type CallbackState =
  | { step: 'loading' }
  | { step: 'syncing' }
  | { step: 'success' }
  | { step: 'error'; message: string };

/** Reads the OAuth result the provider puts in the URL hash. */
function readCallbackTokens(hash: string) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { accessToken: params.get('access_token'), refreshToken: params.get('refresh_token') };
}

/**
 * Provider sign-in arrives in a later issue. Until then this screen checks what it can (spec §5) and says
 * plainly that the exchange with the backend is not available, instead of pretending to sign in.
 */
function runCallback(hash: string): CallbackState {
  const { accessToken, refreshToken } = readCallbackTokens(hash);
  if (!accessToken) return { step: 'error', message: 'No OAuth tokens found in callback URL...' };
  if (!refreshToken) {
    return {
      step: 'error',
      message: 'Missing Google refresh token. This means the OAuth flow is not requesting offline access...',
    };
  }
  return {
    step: 'error',
    message: 'Backend authentication failed: sign-in with a mail provider is not enabled on this server yet.',
  };
}

export function AuthCallbackRoute() {
  const navigate = useNavigate();
  const [state, setState] = useState<CallbackState>({ step: 'loading' });
  const run = useCallback(() => {
    setState({ step: 'loading' });
    setState(runCallback(window.location.hash));
  }, []);
  useEffect(run, [run]);
  return <AuthCallbackView state={state} onRetry={run} onHome={() => navigate('/')} />;
}

export function AuthCallbackView({
  state,
  onRetry,
  onHome,
}: {
  state: CallbackState;
  onRetry: () => void;
  onHome: () => void;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 bg-slate-50 p-6">
      <Logo />
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        {state.step === 'loading' || state.step === 'syncing' ? (
          <div role="status" className="flex flex-col items-center gap-3">
            <Loader2 className="h-10 w-10 animate-spin text-indigo-600" aria-hidden="true" />
            <h1 className="text-lg font-semibold text-slate-900">
              {state.step === 'loading' ? 'Completing sign-in…' : 'Syncing your invoices…'}
            </h1>
            <p className="text-sm text-slate-500">
              {state.step === 'loading'
                ? 'Connecting your account to Invoicebox.'
                : 'Scanning your mailbox for the first time. This can take a few minutes.'}
            </p>
          </div>
        ) : null}
        {state.step === 'success' ? (
          <div role="status" className="flex flex-col items-center gap-3">
            <CheckCircle2 className="h-10 w-10 text-emerald-500" aria-hidden="true" />
            <h1 className="text-lg font-semibold text-slate-900">You're all set</h1>
            <p className="text-sm text-slate-500">Redirecting…</p>
          </div>
        ) : null}
        {state.step === 'error' ? (
          <div role="alert" className="flex flex-col items-center gap-3">
            <AlertCircle className="h-10 w-10 text-red-500" aria-hidden="true" />
            <h1 className="text-lg font-semibold text-slate-900">Sign-in failed</h1>
            <p className="text-sm text-slate-600">{state.message}</p>
            <div className="mt-3 flex gap-2">
              <Button onClick={onRetry}>
                <RefreshCw className="h-4 w-4" aria-hidden="true" />
                Retry
              </Button>
              <Button variant="outline" onClick={onHome}>
                Go Home
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </main>
  );
}
