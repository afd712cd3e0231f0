import type { EnrolFactorResponse } from '@invoicebox/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { confirmTotp, enrolTotp, listFactors, removeFactor } from '../../features/auth/api/auth-api';
import { acceptSession } from '../../lib/auth-session';
import { verifyIdentityToken } from '../../lib/verify-token';

/** Optional second factor: an authenticator app (TOTP), with single-use recovery codes shown once. */
export function TwoStepCard() {
  const client = useQueryClient();
  const factors = useQuery({ queryKey: ['auth', 'factors'], queryFn: listFactors });
  const [enrolment, setEnrolment] = useState<EnrolFactorResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const codeId = useId();
  const verified = factors.data?.factors.find((f) => f.status === 'verified');

  const start = async () => {
    setError(null);
    try {
      setEnrolment(await enrolTotp());
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Unknown error occurred');
    }
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!enrolment) return;
    setError(null);
    try {
      const session = await confirmTotp(enrolment.id, code.trim());
      await acceptSession(session, verifyIdentityToken);
      setRecoveryCodes(session.recovery_codes ?? []);
      setEnrolment(null);
      setCode('');
      await client.invalidateQueries({ queryKey: ['auth', 'factors'] });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Unknown error occurred');
    }
  };
  const remove = async () => {
    if (!verified) return;
    try {
      await removeFactor(verified.id);
      toast.success('Two-step verification turned off');
      await client.invalidateQueries({ queryKey: ['auth', 'factors'] });
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Unknown error occurred');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-indigo-600" aria-hidden="true" />
          Two-step verification
          {verified ? <Badge variant="success">On</Badge> : <Badge variant="secondary">Off</Badge>}
        </CardTitle>
        <CardDescription>A code from an authenticator app at every sign-in, on top of your password.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {recoveryCodes ? (
          <div role="status" className="rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900">
            <p className="font-medium">Save these recovery codes now; each works once and they are not shown again.</p>
            <ul className="mt-2 grid grid-cols-2 gap-1 font-mono">
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {enrolment ? (
          <form className="space-y-3" onSubmit={confirm}>
            <p className="text-sm text-slate-700">
              Add this key to your authenticator app, then enter the 6-digit code it shows.
            </p>
            <label className="block text-sm font-medium text-slate-700">
              Secret key
              <input
                readOnly
                className="mt-1 block w-full rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm"
                value={enrolment.totp.secret}
                onFocus={(e) => e.target.select()}
              />
            </label>
            <a className="text-sm text-indigo-600 underline" href={enrolment.totp.uri}>
              Open in an authenticator app
            </a>
            <div>
              <label htmlFor={codeId} className="text-sm font-medium text-slate-700">
                Code from the app
              </label>
              <input
                id={codeId}
                className="mt-1 block w-40 rounded-lg border border-slate-300 px-3 py-2 text-sm"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </div>
            {error ? (
              <p role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
            <div className="flex gap-2">
              <Button type="submit">Turn on</Button>
              <Button variant="ghost" onClick={() => setEnrolment(null)}>
                Cancel
              </Button>
            </div>
          </form>
        ) : verified ? (
          <Button variant="outline" onClick={() => void remove()}>
            Turn off
          </Button>
        ) : (
          <Button onClick={() => void start()}>Set up</Button>
        )}
      </CardContent>
    </Card>
  );
}
