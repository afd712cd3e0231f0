import { DRIVE_KIND_LABELS, type DriveKind } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { HardDrive } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useAccounts } from '../../features/accounts/api/accounts-api';
import { saveDriveConnection, useDriveConnection, useDriveStatus } from '../../features/drive/api/drive-api';

const input =
  'mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:outline-2 focus:outline-indigo-500';

/**
 * Settings → Drive: where invoices are filed (the local folder by default, Google Drive of a Google account, or any
 * WebDAV server such as Nextcloud), whether it answers, and how many invoices are filed. The server tries the drive
 * before saving, so a wrong address or password is reported here.
 */
export function DriveCard() {
  const client = useQueryClient();
  const connection = useDriveConnection();
  const status = useDriveStatus();
  const accounts = useAccounts();
  const googleAccounts = (accounts.data?.accounts ?? []).filter((a) => a.provider === 'google');
  const ids = { kind: useId(), url: useId(), user: useId(), password: useId(), google: useId() };
  const [kind, setKind] = useState<DriveKind>('local');
  const [form, setForm] = useState({ url: '', username: '', password: '', googleAccount: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!connection.data) return;
    setKind(connection.data.kind);
    setForm((f) => ({
      ...f,
      url: connection.data.webdav?.url ?? f.url,
      username: connection.data.webdav?.username ?? f.username,
      googleAccount: connection.data.google_account?.id ?? f.googleAccount,
    }));
  }, [connection.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await saveDriveConnection(
        kind === 'webdav'
          ? { kind, url: form.url.trim(), username: form.username.trim(), password: form.password }
          : kind === 'google'
            ? { kind, ...(form.googleAccount ? { account_id: form.googleAccount } : {}) }
            : { kind },
      );
      setForm((f) => ({ ...f, password: '' }));
      toast.success(`Invoices will be filed in ${DRIVE_KIND_LABELS[kind]}`);
      await client.invalidateQueries({ queryKey: ['drive-connection'] });
      await client.invalidateQueries({ queryKey: ['drive-status'] });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not save the drive');
    } finally {
      setBusy(false);
    }
  };

  const drive = status.data?.drive;
  const totals = status.data?.totals;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <HardDrive className="h-5 w-5 text-indigo-600" aria-hidden="true" />
          Drive
        </CardTitle>
        <CardDescription>
          Where invoices are filed, in Invoices/YEAR/MONTH folders. A file already in the folder is never uploaded
          twice.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {status.isPending ? (
          <Spinner label="Checking the drive…" />
        ) : drive ? (
          <div className="space-y-1 text-sm" role="status">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-slate-900">{DRIVE_KIND_LABELS[drive.kind]}</span>
              <Badge variant={drive.reachable ? 'success' : 'destructive'}>
                {drive.reachable ? 'Connected' : 'Not reachable'}
              </Badge>
            </p>
            <p className="break-all text-slate-600">{drive.root}</p>
            {drive.error ? <p className="text-red-700">{drive.error}</p> : null}
            {drive.warning ? (
              <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900">{drive.warning}</p>
            ) : null}
            <p className="text-slate-600">
              {totals?.uploaded ?? 0} filed · {totals?.pending ?? 0} waiting · {totals?.failed ?? 0} failed
            </p>
          </div>
        ) : null}
        <form className="space-y-3" onSubmit={(e) => void submit(e)}>
          <div>
            <label htmlFor={ids.kind} className="text-sm font-medium text-slate-700">
              File invoices in
            </label>
            <select id={ids.kind} className={input} value={kind} onChange={(e) => setKind(e.target.value as DriveKind)}>
              <option value="local">{DRIVE_KIND_LABELS.local} (on this server)</option>
              <option value="google" disabled={googleAccounts.length === 0}>
                {DRIVE_KIND_LABELS.google}
                {googleAccounts.length === 0 ? ' (connect a Google account first)' : ''}
              </option>
              <option value="webdav">{DRIVE_KIND_LABELS.webdav} (Nextcloud, ownCloud, any server)</option>
            </select>
          </div>
          {kind === 'google' ? (
            <div>
              <label htmlFor={ids.google} className="text-sm font-medium text-slate-700">
                Google account
              </label>
              <select
                id={ids.google}
                className={input}
                value={form.googleAccount}
                onChange={(e) => setForm({ ...form, googleAccount: e.target.value })}
              >
                <option value="">The primary account</option>
                {googleAccounts.map((a) => (
                  <option key={a.userId} value={a.userId}>
                    {a.email}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {kind === 'webdav' ? (
            <div className="grid gap-3 md:grid-cols-3">
              <div className="md:col-span-3">
                <label htmlFor={ids.url} className="text-sm font-medium text-slate-700">
                  WebDAV address
                </label>
                <input
                  id={ids.url}
                  className={input}
                  type="url"
                  required
                  placeholder="https://cloud.example.com/remote.php/dav/files/me/"
                  value={form.url}
                  onChange={(e) => setForm({ ...form, url: e.target.value })}
                />
              </div>
              <div>
                <label htmlFor={ids.user} className="text-sm font-medium text-slate-700">
                  User name
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
              <div className="md:col-span-2">
                <label htmlFor={ids.password} className="text-sm font-medium text-slate-700">
                  App password
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
          ) : null}
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <Button type="submit" size="sm" disabled={busy}>
            {busy ? 'Checking…' : 'Save drive'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
