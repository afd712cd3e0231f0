import { useQueryClient } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import { useAuthMethods } from '../../auth/api/auth-api';
import { activateAccount, afterAccountSwitch, updateAccountScope, useAccounts } from '../api/accounts-api';
import { useAddAccount } from './use-add-account';

const ALL = '__all__';
const ADD = '__add__';

/** Spec §2 header account selector: 'All Gmail Accounts', each email ('(Primary)' marked), '+ Add Gmail Account'. */
export function AccountSelector() {
  const id = useId();
  const client = useQueryClient();
  const accounts = useAccounts();
  const methods = useAuthMethods();
  const addAccount = useAddAccount(methods.data?.oidc ?? []);
  const list = accounts.data?.accounts ?? [];
  const session = accounts.data?.session;
  const value = session?.selectedScope === 'all' ? ALL : (session?.activeUserId ?? ALL);

  const choose = async (next: string) => {
    if (next === ADD) return addAccount();
    try {
      if (next === ALL) {
        await updateAccountScope('all');
        toast.success('Now showing invoices from all Gmail accounts');
      } else {
        await activateAccount(next);
        await updateAccountScope('current');
        const email = list.find((a) => a.userId === next)?.email ?? '';
        toast.success(`Now showing invoices from ${email}`);
      }
      afterAccountSwitch(client);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Unknown error occurred');
    }
  };

  return (
    <div className="hidden items-center gap-2 md:flex">
      <Mail className="h-4 w-4 text-slate-400" aria-hidden="true" />
      <label htmlFor={id} className="sr-only">
        Account
      </label>
      <select
        id={id}
        className="max-w-64 rounded-lg border border-slate-200 bg-slate-50 px-2 py-1.5 text-sm text-slate-700 focus:outline-2 focus:outline-indigo-600"
        value={value}
        onChange={(e) => void choose(e.target.value)}
      >
        <option value={ALL}>All Gmail Accounts</option>
        {list.map((account) => (
          <option key={account.userId} value={account.userId}>
            {account.provider === 'upload' ? account.displayName : account.email}
            {account.isPrimary ? ' (Primary)' : ''}
          </option>
        ))}
        <option value={ADD}>+ Add Gmail Account</option>
      </select>
    </div>
  );
}
