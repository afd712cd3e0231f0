import { JobSchema, JobStartedResponseSchema } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2, Loader2, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Logo } from '../../components/logo';
import { Button } from '../../components/ui/button';
import { ADD_ACCOUNT_MARKER } from '../../features/accounts/components/use-add-account';
import { redeemCode } from '../../features/auth/api/auth-api';
import { meQueryKey } from '../../features/auth/api/get-me';
import { ApiError, api } from '../../lib/api-client';
import { acceptSession } from '../../lib/auth-session';
import { verifyIdentityToken } from '../../lib/verify-token';

export type CallbackState =
  | { step: 'loading' }
  | { step: 'syncing' }
  | { step: 'success' }
  | { step: 'error'; message: string };

/** Reads the OAuth result a provider may put in the URL hash (spec §5). */
function readCallbackTokens(hash: string) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { accessToken: params.get('access_token'), refreshToken: params.get('refresh_token') };
}

/** Spec §5: the URL carried a refresh token but no access token. */
export const MISSING_ACCESS_TOKEN = 'Missing Google access token. Please try signing in again.';
/** Spec §8: the provider sign-in started by '+ Add Gmail Account' came back failed. */
export const ADD_ACCOUNT_FAILED = 'Failed to add Gmail account. Please try again.';

/** Whether this callback ends an add-account flow (the marker use-add-account sets), read once. */
function takeAddAccountMarker(): boolean {
  try {
    const marked = window.sessionStorage.getItem(ADD_ACCOUNT_MARKER) !== null;
    window.sessionStorage.removeItem(ADD_ACCOUNT_MARKER);
    return marked;
  } catch {
    return false;
  }
}

const POLL_INTERVAL_MS = 1000;
const POLL_MAX_ATTEMPTS = 300;
const SUCCESS_REDIRECT_MS = 2000;

/**
 * Spec §4 OAuth callback: the server's callback sent the browser here with a one-time `code` (or an `error`).
 * loading → the code is redeemed for the session → syncing (a first full sync with initial_setup, polled every second,
 * at most 300 times) → success → / after 2 seconds; any failing step → error, with Retry and Go Home.
 */
async function runCallback(
  search: string,
  hash: string,
  setState: (state: CallbackState) => void,
  onSignedIn: () => Promise<void>,
  isCancelled: () => boolean,
): Promise<void> {
  const params = new URLSearchParams(search);
  const addingAccount = takeAddAccountMarker();
  const error = params.get('error');
  if (error) {
    if (addingAccount) toast.error(ADD_ACCOUNT_FAILED);
    return setState({ step: 'error', message: error });
  }
  const code = params.get('code');
  if (!code) {
    const { accessToken, refreshToken } = readCallbackTokens(hash);
    if (!accessToken && !refreshToken) {
      return setState({ step: 'error', message: 'No OAuth tokens found in callback URL...' });
    }
    if (!accessToken) return setState({ step: 'error', message: MISSING_ACCESS_TOKEN });
    if (!refreshToken) {
      return setState({
        step: 'error',
        message: 'Missing Google refresh token. This means the OAuth flow is not requesting offline access...',
      });
    }
    // Tokens in the URL are never accepted: the server runs the sign-in and hands over a one-time code instead.
    return setState({ step: 'error', message: 'No authentication session found. Please try signing in again.' });
  }
  let session: Awaited<ReturnType<typeof redeemCode>>;
  try {
    session = await redeemCode(code);
  } catch (e) {
    toast.error('Could not authenticate with backend');
    if (addingAccount) toast.error(ADD_ACCOUNT_FAILED);
    return setState({ step: 'error', message: `Backend authentication failed: ${(e as Error).message}` });
  }
  try {
    await acceptSession(session, verifyIdentityToken);
  } catch (e) {
    // The server's answer did not verify (its signature, its shape) or could not be stored in this browser.
    if (addingAccount) toast.error(ADD_ACCOUNT_FAILED);
    return setState({ step: 'error', message: `Failed to set session: ${(e as Error).message}` });
  }
  toast.success('Successfully connected to backend with OAuth tokens');
  await onSignedIn();
  setState({ step: 'syncing' });
  try {
    const started = await api.post('/sync/full', {
      schema: JobStartedResponseSchema,
      query: { initial_setup: 'true' },
    });
    for (let attempt = 0; attempt < POLL_MAX_ATTEMPTS && !isCancelled(); attempt++) {
      const job = await api.get(`/jobs/${started.job_id}`, { schema: JobSchema });
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
    }
  } catch (e) {
    // No mail sync on this server yet (404): signing in still succeeded.
    if (!(e instanceof ApiError && e.status === 404)) {
      return setState({ step: 'error', message: `Unexpected error: ${(e as Error).message}` });
    }
  }
  setState({ step: 'success' });
}

export function AuthCallbackRoute() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [state, setState] = useState<CallbackState>({ step: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes on Retry to run the flow again.
  useEffect(() => {
    let cancelled = false;
    setState({ step: 'loading' });
    void runCallback(
      window.location.search,
      window.location.hash,
      (next) => {
        if (!cancelled) setState(next);
      },
      () => client.invalidateQueries({ queryKey: meQueryKey }),
      () => cancelled,
    );
    return () => {
      cancelled = true;
    };
  }, [client, attempt]);
  useEffect(() => {
    if (state.step !== 'success') return;
    const timer = setTimeout(() => navigate('/'), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state.step, navigate]);
  return <AuthCallbackView state={state} onRetry={() => setAttempt((n) => n + 1)} onHome={() => navigate('/')} />;
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
