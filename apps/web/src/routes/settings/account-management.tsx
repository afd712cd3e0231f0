import type { AccountScope, ConnectedAccount } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Plus, Star, Trash2, UserRound } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import {
  afterAccountSwitch,
  removeAccount,
  setPrimaryAccount,
  updateAccountScope,
  useAccounts,
} from '../../features/accounts/api/accounts-api';
import { useAddAccount } from '../../features/accounts/components/use-add-account';
import { useAuthMethods } from '../../features/auth/api/auth-api';
import { SampleAccountBadge, SampleDataCard } from '../../features/sample/components/sample-data';
import { DriveCard } from './drive-card';
import { ImapConnectDialog } from './imap-connect-dialog';
import { InboundAddressCard } from './inbound-address-card';
import { MailImportCard } from './mail-import-card';
import { PreferencesCard } from './preferences-card';
import { SmtpRelayCard } from './smtp-relay-card';
import { TwoStepCard } from './two-step-card';

const SCOPES: Array<{ value: AccountScope; label: string; description: string; toast: string }> = [
  { value: 'current', label: 'Current Account', description: 'Only the active account.', toast: 'current account' },
  { value: 'all', label: 'All Accounts', description: 'Every connected account.', toast: 'all accounts' },
  { value: 'custom', label: 'Custom Selection', description: 'The accounts you tick.', toast: 'custom' },
];

/** Settings → Account Management (spec §2): the account scope and the connected accounts. */
export function AccountManagement() {
  const accounts = useAccounts();
  const methods = useAuthMethods();
  const location = useLocation();
  const addAccount = useAddAccount(methods.data?.oidc ?? []);
  const [imapOpen, setImapOpen] = useState((location.state as { addImap?: boolean } | null)?.addImap === true);
  const hasProvider = (methods.data?.oidc.length ?? 0) > 0;

  if (accounts.isPending) return <Spinner label="Loading accounts…" />;
  if (accounts.error) {
    return (
      <p role="alert" className="text-sm text-red-700">
        {accounts.error.message}
      </p>
    );
  }
  const { accounts: list, session } = accounts.data;
  return (
    <div className="space-y-6">
      <ScopeCard accounts={list} scope={session.selectedScope} selected={session.selectedUserIds} />
      <Card>
        <CardHeader className="flex flex-row items-start justify-between gap-4">
          <div>
            <CardTitle>Connected Accounts</CardTitle>
            <CardDescription>
              The mailboxes Invoicebox reads. The primary one is used for drive uploads.
            </CardDescription>
          </div>
          <div className="flex gap-2">
            {hasProvider ? (
              <Button size="sm" onClick={() => void addAccount()}>
                <Plus className="h-4 w-4" aria-hidden="true" />
                Add Account
              </Button>
            ) : null}
            <Button size="sm" variant={hasProvider ? 'outline' : 'primary'} onClick={() => setImapOpen(true)}>
              <Plus className="h-4 w-4" aria-hidden="true" />
              {hasProvider ? 'Add IMAP Mailbox' : 'Add Account'}
            </Button>
          </div>
        </CardHeader>
        <CardContent>
          {list.length === 0 ? (
            <p className="text-sm text-slate-600">
              No mail account is connected yet. Add an IMAP mailbox (any provider, with an app password)
              {hasProvider ? ' or sign in with a Google account' : ''}.
            </p>
          ) : (
            <ul className="space-y-3">
              {list.map((account) => (
                <AccountRow key={account.userId} account={account} onReauth={() => void addAccount()} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <DriveCard />
      <MailImportCard />
      <SampleDataCard />
      <SmtpRelayCard />
      <PreferencesCard />
      <InboundAddressCard />
      <TwoStepCard />
      <ImapConnectDialog open={imapOpen} onClose={() => setImapOpen(false)} />
    </div>
  );
}

function ScopeCard({
  accounts,
  scope,
  selected,
}: {
  accounts: ConnectedAccount[];
  scope: AccountScope;
  selected: string[];
}) {
  const client = useQueryClient();
  const save = async (next: AccountScope, ids: string[]) => {
    try {
      await updateAccountScope(next, ids);
      toast.success(`Switched to ${SCOPES.find((s) => s.value === next)?.toast} scope`);
      afterAccountSwitch(client);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Unknown error occurred');
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Scope</CardTitle>
        <CardDescription>Whose invoices the views and syncs cover.</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="space-y-2">
          <legend className="sr-only">Account Scope</legend>
          {SCOPES.map((option) => (
            <label
              key={option.value}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3"
            >
              <input
                type="radio"
                name="account-scope"
                className="mt-1"
                checked={scope === option.value}
                onChange={() => void save(option.value, option.value === 'custom' ? selected : [])}
              />
              <span>
                <span className="block text-sm font-medium text-slate-900">{option.label}</span>
                <span className="block text-xs text-slate-500">{option.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {scope === 'custom' ? (
          <fieldset className="mt-4 space-y-2 pl-2">
            <legend className="text-sm font-medium text-slate-700">Accounts in the selection</legend>
            {accounts.map((account) => (
              <label key={account.userId} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={selected.includes(account.userId)}
                  onChange={(e) =>
                    void save(
                      'custom',
                      e.target.checked ? [...selected, account.userId] : selected.filter((id) => id !== account.userId),
                    )
                  }
                />
                {account.provider === 'upload' ? account.displayName : account.email}
              </label>
            ))}
          </fieldset>
        ) : null}
      </CardContent>
    </Card>
  );
}

function AccountRow({ account, onReauth }: { account: ConnectedAccount; onReauth: () => void }) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);

  const makePrimary = async () => {
    try {
      await setPrimaryAccount(account.userId);
      toast.success(`Set ${account.email} as primary account`);
      await client.invalidateQueries({ queryKey: ['accounts'] });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Unknown error occurred');
    }
  };
  const remove = async () => {
    setPending(true);
    try {
      await removeAccount(account.userId);
      toast.success(`Removed account: ${account.email}`);
      afterAccountSwitch(client);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Unknown error occurred');
    } finally {
      setPending(false);
      setConfirming(false);
    }
  };

  return (
    <li className="rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex h-10 w-10 items-center justify-center rounded-full bg-indigo-100 text-indigo-600">
          <UserRound className="h-5 w-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-slate-900">{account.displayName || account.email}</p>
          <p className="truncate text-sm text-slate-500">
            {account.provider === 'upload' ? (
              'Documents you added: upload, invoicebox add, the inbox folder'
            ) : (
              <>
                {account.email} · {account.provider === 'google' ? 'Gmail' : account.provider.toUpperCase()} · Last
                sync: {account.lastSync ? new Date(account.lastSync).toLocaleString() : 'Never'}
              </>
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <SampleAccountBadge accountId={account.userId} />
          {account.isPrimary ? <Badge>Primary</Badge> : null}
          {account.isActive ? <Badge variant="success">Active</Badge> : null}
          {/* The Uploads source is never the primary: drive and default operations use a mailbox. */}
          {!account.isPrimary && account.provider !== 'upload' ? (
            <Button size="sm" variant="outline" onClick={() => void makePrimary()}>
              <Star className="h-4 w-4" aria-hidden="true" />
              Set Primary
            </Button>
          ) : null}
          <Button size="sm" variant="ghost" aria-label={`Remove ${account.email}`} onClick={() => setConfirming(true)}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </Button>
        </div>
      </div>
      {account.needsReauth ? (
        <div
          role="alert"
          className="mt-3 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800"
        >
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span className="flex-1">{account.reauthReason ?? 'This account needs you to sign in again.'}</span>
          {account.provider === 'google' || account.provider === 'oidc' ? (
            <Button size="sm" variant="outline" onClick={onReauth}>
              Sign in again
            </Button>
          ) : null}
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Remove ${account.email}?`}
        description="This action cannot be undone. Invoicebox stops reading this mailbox; invoices already found stay."
        confirmLabel="Remove"
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
        pending={pending}
      />
    </li>
  );
}
