import type { MfaRequiredResponse, SessionResponse } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, LogIn, UserPlus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { acceptSession } from '../../../lib/auth-session';
import { verifyIdentityToken } from '../../../lib/verify-token';
import {
  challengeFactor,
  redeemRecoveryCode,
  signIn,
  signUp,
  startOidc,
  useAuthMethods,
  verifyFactor,
} from '../api/auth-api';
import { meQueryKey } from '../api/get-me';

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500';

/**
 * The sign-in card of the landing page: a button per configured OpenID Connect provider (Google first), and the
 * local owner account — "create" on the first visit, "sign in" afterwards — with the second-factor step when the
 * person has one.
 */
export function SignInPanel({ id }: { id?: string }) {
  const methods = useAuthMethods();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [mfa, setMfa] = useState<MfaRequiredResponse | null>(null);

  const signedIn = async (session: SessionResponse) => {
    await acceptSession(session, verifyIdentityToken);
    await client.invalidateQueries({ queryKey: meQueryKey });
    navigate('/dashboard');
  };

  if (methods.isPending) {
    return (
      <Card id={id} className="mx-auto w-full max-w-md p-8">
        <Spinner label="Loading sign-in options…" />
      </Card>
    );
  }
  if (methods.error || !methods.data) {
    return (
      <Card id={id} className="mx-auto w-full max-w-md p-6" role="alert">
        Could not authenticate with backend
      </Card>
    );
  }
  const { local, oidc } = methods.data;
  const creating = !local.owner_exists;

  return (
    <Card id={id} className="mx-auto w-full max-w-md text-left">
      <CardHeader>
        <CardTitle>{mfa ? 'Two-step verification' : creating ? 'Create your Invoicebox' : 'Sign in'}</CardTitle>
        <CardDescription>
          {mfa
            ? 'Enter the 6-digit code from your authenticator app, or a recovery code.'
            : creating
              ? 'The first account becomes the owner of this Invoicebox.'
              : 'Welcome back.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {mfa ? (
          <SecondFactorForm mfa={mfa} onSignedIn={signedIn} onCancel={() => setMfa(null)} />
        ) : (
          <>
            {oidc.map((provider) => (
              <ProviderButton key={provider.id} id={provider.id} name={provider.name} />
            ))}
            {oidc.length > 0 && local.enabled ? (
              <p className="text-center text-xs uppercase tracking-wide text-slate-500">or with email</p>
            ) : null}
            {local.enabled ? (
              <LocalForm
                creating={creating}
                signupOpen={local.signup_open}
                onSignedIn={signedIn}
                onMfa={(answer) => setMfa(answer)}
              />
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function ProviderButton({ id, name }: { id: string; name: string }) {
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    try {
      const { url } = await startOidc(id, 'sign_in');
      window.location.assign(url);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not authenticate with backend');
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" className="w-full" onClick={go} disabled={busy}>
      <LogIn className="h-4 w-4" aria-hidden="true" />
      {busy ? 'Redirecting…' : `Continue with ${name}`}
    </Button>
  );
}

function LocalForm({
  creating,
  signupOpen,
  onSignedIn,
  onMfa,
}: {
  creating: boolean;
  signupOpen: boolean;
  onSignedIn: (session: SessionResponse) => Promise<void>;
  onMfa: (answer: MfaRequiredResponse) => void;
}) {
  const ids = { email: useId(), password: useId(), name: useId(), code: useId(), error: useId() };
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  // Shown once sign-in is slowed down: a recovery code given with the password gets the person in regardless.
  const [askCode, setAskCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (creating) {
        const created = await signUp({ email, password, ...(name.trim() ? { display_name: name.trim() } : {}) });
        if ('sign_in_required' in created) {
          const answer = await signIn({ email, password });
          if ('mfa_required' in answer) onMfa(answer);
          else await onSignedIn(answer);
        } else {
          await onSignedIn(created);
        }
      } else {
        const answer = await signIn({ email, password, ...(code.trim() ? { recovery_code: code.trim() } : {}) });
        if ('mfa_required' in answer) onMfa(answer);
        else await onSignedIn(answer);
      }
    } catch (e) {
      if (!creating && e instanceof ApiError && e.status === 429) setAskCode(true);
      setError(e instanceof ApiError || e instanceof Error ? e.message : 'Unknown error occurred');
    } finally {
      setBusy(false);
    }
  };

  if (creating && !signupOpen) {
    return <p className="text-sm text-slate-600">Sign-up is closed on this Invoicebox.</p>;
  }
  return (
    <form className="space-y-3" onSubmit={submit} aria-describedby={error ? ids.error : undefined} noValidate>
      {creating ? (
        <div>
          <label htmlFor={ids.name} className="text-sm font-medium text-slate-700">
            Your name
          </label>
          <input
            id={ids.name}
            className={inputClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
          />
        </div>
      ) : null}
      <div>
        <label htmlFor={ids.email} className="text-sm font-medium text-slate-700">
          Email
        </label>
        <input
          id={ids.email}
          type="email"
          required
          className={inputClass}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoComplete="email"
        />
      </div>
      <div>
        <label htmlFor={ids.password} className="text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id={ids.password}
          type="password"
          required
          minLength={8}
          className={inputClass}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete={creating ? 'new-password' : 'current-password'}
        />
        {creating ? <p className="mt-1 text-xs text-slate-500">At least 8 characters.</p> : null}
      </div>
      {askCode ? (
        <div>
          <label htmlFor={ids.code} className="text-sm font-medium text-slate-700">
            Recovery code (if you have one)
          </label>
          <input
            id={ids.code}
            className={inputClass}
            autoComplete="off"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
      ) : null}
      {error ? (
        <p id={ids.error} role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="w-full" disabled={busy}>
        {creating ? (
          <UserPlus className="h-4 w-4" aria-hidden="true" />
        ) : (
          <LogIn className="h-4 w-4" aria-hidden="true" />
        )}
        {busy ? 'Please wait…' : creating ? 'Create account' : 'Sign in'}
      </Button>
    </form>
  );
}

function SecondFactorForm({
  mfa,
  onSignedIn,
  onCancel,
}: {
  mfa: MfaRequiredResponse;
  onSignedIn: (session: SessionResponse) => Promise<void>;
  onCancel: () => void;
}) {
  const codeId = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const factor = mfa.factors[0];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const trimmed = code.replace(/\s+/g, '');
      if (/^\d{6}$/.test(trimmed) && factor) {
        // A challenge is used up by any attempt: ask for a new one each time.
        const { challenge_id } = await challengeFactor(factor.id, mfa.mfa_token);
        await onSignedIn(await verifyFactor(factor.id, mfa.mfa_token, { code: trimmed, challenge_id }));
      } else {
        await onSignedIn(await redeemRecoveryCode(mfa.mfa_token, code.trim()));
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Unknown error occurred');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="space-y-3" onSubmit={submit}>
      <div>
        <label htmlFor={codeId} className="text-sm font-medium text-slate-700">
          Verification code
        </label>
        <input
          id={codeId}
          className={inputClass}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </div>
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" className="flex-1" disabled={busy || code.trim() === ''}>
          <KeyRound className="h-4 w-4" aria-hidden="true" />
          Verify
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
