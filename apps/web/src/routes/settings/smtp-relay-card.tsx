import { type SmtpTlsMode, SmtpTlsModeSchema } from '@invoicebox/core';
import { Send } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useSaveSmtpRelay, useSmtpRelay } from '../../features/forwarding/api/forwarding-api';
import { ApiError } from '../../lib/api-client';

const input =
  'mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:outline-2 focus:outline-indigo-500';

const TLS_LABELS: Record<SmtpTlsMode, string> = {
  starttls: 'STARTTLS (usually port 587)',
  tls: 'TLS from the start (usually port 465)',
  none: 'None (a relay on this machine or network only)',
};
const DEFAULT_PORT: Record<SmtpTlsMode, number> = { starttls: 587, tls: 465, none: 25 };

/**
 * Settings → SMTP relay: how invoices are forwarded for someone who did not sign in with Google (a Google account
 * sends with the Gmail API). Like the WebDAV drive, the server connects and logs in before it saves; the password is
 * stored encrypted and never shown again.
 */
export function SmtpRelayCard() {
  const relay = useSmtpRelay();
  const save = useSaveSmtpRelay();
  const ids = { host: useId(), port: useId(), tls: useId(), user: useId(), password: useId(), from: useId() };
  const [form, setForm] = useState({
    host: '',
    port: '587',
    tls: 'starttls' as SmtpTlsMode,
    username: '',
    password: '',
    from: '',
  });
  const [error, setError] = useState<string | null>(null);
  const current = relay.data?.relay ?? null;

  useEffect(() => {
    if (!current) return;
    setForm((f) => ({
      ...f,
      host: current.host,
      port: String(current.port),
      tls: current.tls,
      username: current.username,
      from: current.from,
    }));
  }, [current]);

  const setTls = (tls: SmtpTlsMode) =>
    setForm((f) => ({
      ...f,
      tls,
      // Follows the mode while the port is still another mode's usual one.
      port: Object.values(DEFAULT_PORT).map(String).includes(f.port) ? String(DEFAULT_PORT[tls]) : f.port,
    }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const port = Number(form.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      setError('Enter a port between 1 and 65535');
      return;
    }
    const from = form.from.trim();
    save.mutate(
      {
        host: form.host.trim(),
        port,
        tls: form.tls,
        username: form.username.trim(),
        password: form.password,
        ...(from ? { from } : {}),
      },
      {
        onSuccess: () => {
          setForm((f) => ({ ...f, password: '' }));
          toast.success(`Invoices will be forwarded through ${form.host.trim()}`);
        },
        onError: (e) => setError(e.message || 'Could not save the SMTP relay'),
      },
    );
  };

  // A server without per-person relays (only this install's SMTP_* settings) has no such call: nothing to show.
  if (relay.error instanceof ApiError && relay.error.status === 404) return null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Send className="h-5 w-5 text-indigo-600" aria-hidden="true" />
          SMTP relay for forwarding
        </CardTitle>
        <CardDescription>
          Forwarded invoices are sent from your Google account when you signed in with Google. Otherwise give the
          outgoing mail server of your mailbox, with an app password.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {relay.isPending ? <Spinner label="Loading the SMTP relay…" /> : null}
        {relay.data ? (
          <p className="break-all text-sm text-slate-600" role="status">
            {current ? `Sending through ${current.host}:${current.port} as ${current.from}.` : 'No SMTP relay set.'}
          </p>
        ) : null}
        <form className="space-y-3" onSubmit={submit}>
          <div className="grid gap-3 sm:grid-cols-3">
            <div className="sm:col-span-2">
              <label htmlFor={ids.host} className="text-sm font-medium text-slate-700">
                SMTP server
              </label>
              <input
                id={ids.host}
                className={input}
                required
                placeholder="smtp.example.com"
                value={form.host}
                onChange={(e) => setForm({ ...form, host: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={ids.port} className="text-sm font-medium text-slate-700">
                SMTP port
              </label>
              <input
                id={ids.port}
                className={input}
                required
                inputMode="numeric"
                value={form.port}
                onChange={(e) => setForm({ ...form, port: e.target.value })}
              />
            </div>
          </div>
          <div>
            <label htmlFor={ids.tls} className="text-sm font-medium text-slate-700">
              Encryption
            </label>
            <select
              id={ids.tls}
              className={input}
              value={form.tls}
              onChange={(e) => setTls(SmtpTlsModeSchema.parse(e.target.value))}
            >
              {SmtpTlsModeSchema.options.map((mode) => (
                <option key={mode} value={mode}>
                  {TLS_LABELS[mode]}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor={ids.user} className="text-sm font-medium text-slate-700">
                SMTP user name
              </label>
              <input
                id={ids.user}
                className={input}
                required
                autoComplete="username"
                value={form.username}
                onChange={(e) => setForm({ ...form, username: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={ids.password} className="text-sm font-medium text-slate-700">
                SMTP app password
              </label>
              <input
                id={ids.password}
                className={input}
                type="password"
                required
                autoComplete="new-password"
                value={form.password}
                onChange={(e) => setForm({ ...form, password: e.target.value })}
              />
            </div>
          </div>
          <div>
            <label htmlFor={ids.from} className="text-sm font-medium text-slate-700">
              From address (if not the user name)
            </label>
            <input
              id={ids.from}
              className={input}
              type="email"
              autoComplete="email"
              value={form.from}
              onChange={(e) => setForm({ ...form, from: e.target.value })}
            />
          </div>
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? 'Checking…' : 'Save SMTP relay'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
