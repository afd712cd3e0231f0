import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { connectImapAccount } from '../../features/accounts/api/accounts-api';

const input =
  'mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:outline-2 focus:outline-indigo-500';

/** Connects any IMAP mailbox; the server tries it before saving, and its message explains what is wrong. */
export function ImapConnectDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const client = useQueryClient();
  const ids = { email: useId(), host: useId(), port: useId(), user: useId(), password: useId(), folders: useId() };
  const [form, setForm] = useState({
    email: '',
    host: '',
    port: '993',
    secure: true,
    username: '',
    password: '',
    folders: 'INBOX',
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const account = await connectImapAccount({
        email: form.email.trim(),
        host: form.host.trim(),
        port: Number(form.port),
        secure: form.secure,
        ...(form.username.trim() ? { username: form.username.trim() } : {}),
        password: form.password,
        mailboxes: form.folders
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      });
      toast.success(`Connected ${account.email}`);
      await client.invalidateQueries({ queryKey: ['accounts'] });
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Unknown error occurred');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Add an IMAP mailbox"
      description="Any provider; use an app password where your provider offers one."
    >
      <form className="space-y-3" onSubmit={submit}>
        <div>
          <label htmlFor={ids.email} className="text-sm font-medium">
            Email address
          </label>
          <input id={ids.email} className={input} type="email" required value={form.email} onChange={set('email')} />
        </div>
        <div className="grid grid-cols-3 gap-3">
          <div className="col-span-2">
            <label htmlFor={ids.host} className="text-sm font-medium">
              IMAP server
            </label>
            <input
              id={ids.host}
              className={input}
              required
              placeholder="imap.example.com"
              value={form.host}
              onChange={set('host')}
            />
          </div>
          <div>
            <label htmlFor={ids.port} className="text-sm font-medium">
              Port
            </label>
            <input
              id={ids.port}
              className={input}
              inputMode="numeric"
              required
              value={form.port}
              onChange={set('port')}
            />
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={form.secure}
            onChange={(e) => setForm({ ...form, secure: e.target.checked })}
          />
          Use TLS (port 993)
        </label>
        <div>
          <label htmlFor={ids.user} className="text-sm font-medium">
            User name (if not the email address)
          </label>
          <input
            id={ids.user}
            className={input}
            value={form.username}
            onChange={set('username')}
            autoComplete="username"
          />
        </div>
        <div>
          <label htmlFor={ids.password} className="text-sm font-medium">
            Password or app password
          </label>
          <input
            id={ids.password}
            className={input}
            type="password"
            required
            value={form.password}
            onChange={set('password')}
            autoComplete="current-password"
          />
        </div>
        <div>
          <label htmlFor={ids.folders} className="text-sm font-medium">
            Folders (comma-separated)
          </label>
          <input id={ids.folders} className={input} value={form.folders} onChange={set('folders')} />
        </div>
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Connect'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
