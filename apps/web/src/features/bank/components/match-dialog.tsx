import { type BankTransaction, formatInvoiceAmount, formatShortUsDate } from '@invoicebox/core';
import { type KeyboardEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useAccounts } from '../../accounts/api/accounts-api';
import { useInvoicesToMatch } from '../api/bank-api';
import { signedStatementAmount } from '../format';

export interface MatchDialogProps {
  transaction: BankTransaction | null;
  onPick: (invoiceId: string) => void;
  onClose: () => void;
  pending: boolean;
}

/** Picks one of the person's invoices for a debit; the search is applied on Enter, as on Invoice Analysis. */
export function MatchDialog({ transaction, onPick, onClose, pending }: MatchDialogProps) {
  const searchId = useId();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const accounts = useAccounts();
  const accountIds = (accounts.data?.accounts ?? []).map((a) => a.userId);
  const invoices = useInvoicesToMatch(search, accountIds, transaction !== null && !accounts.isPending);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') setSearch(text.trim());
  };
  const list = invoices.data?.invoices ?? [];
  return (
    <Dialog
      open={transaction !== null}
      onClose={onClose}
      title="Match with an invoice"
      description={
        transaction
          ? `${transaction.date} · ${transaction.description} · ${signedStatementAmount(transaction.amount, transaction.type, transaction.currency)}`
          : undefined
      }
      footer={
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
      }
    >
      <label htmlFor={searchId} className="mt-4 block text-sm font-medium text-slate-700">
        Search invoices
      </label>
      <input
        id={searchId}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Vendor, number or email, then Enter"
        className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:outline-2 focus:outline-indigo-500"
      />
      <div className="mt-3 max-h-72 overflow-y-auto">
        {invoices.isPending ? <Spinner label="Loading invoices…" /> : null}
        {invoices.error ? <p className="text-sm text-red-700">{invoices.error.message}</p> : null}
        {invoices.data && list.length === 0 ? <p className="text-sm text-slate-500">No invoices found</p> : null}
        <ul aria-label="Invoices" className="divide-y divide-slate-100">
          {list.map((invoice) => (
            <li key={invoice.id}>
              <button
                type="button"
                disabled={pending}
                onClick={() => onPick(invoice.id)}
                className="flex w-full items-center gap-3 rounded-md px-2 py-2 text-left text-sm hover:bg-slate-50 disabled:opacity-50"
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900">
                    {invoice.vendor || 'Unknown Vendor'}
                  </span>
                  <span className="block truncate text-xs text-slate-500">
                    {[
                      invoice.invoice_number ? `No. ${invoice.invoice_number}` : null,
                      formatShortUsDate(invoice.invoice_date),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </span>
                <span className="font-medium">{formatInvoiceAmount(invoice)}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}
