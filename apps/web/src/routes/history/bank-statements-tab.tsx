import { maskAccountNumber } from '@invoicebox/core';
import { Landmark } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import {
  BANK_STATEMENTS_PAGE_LIMIT,
  useBankStatements,
  useClearBankStatements,
} from '../../features/bank/api/bank-api';
import { BankStatusBadge } from '../../features/bank/components/bank-status-badge';
import { ClearAllButton } from './clear-all-button';

/** Spec §2 History → Bank Statements: 20 per page; a row opens its analysis. */
export function BankStatementsTab() {
  const [page, setPage] = useState(0);
  const statements = useBankStatements(BANK_STATEMENTS_PAGE_LIMIT, page * BANK_STATEMENTS_PAGE_LIMIT);
  const clear = useClearBankStatements();
  const list = statements.data?.statements ?? [];
  const total = statements.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / BANK_STATEMENTS_PAGE_LIMIT));
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>Bank Statements</CardTitle>
          <CardDescription>Your statement uploads, newest first.</CardDescription>
        </div>
        <ClearAllButton
          what="bank statement history"
          disabled={list.length === 0}
          pending={clear.isPending}
          onConfirm={() => clear.mutateAsync().then(() => setPage(0))}
        />
      </CardHeader>
      <CardContent>
        {statements.isPending ? <Spinner label="Loading bank statements…" /> : null}
        {statements.error ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-700">
            <span>{statements.error.message}</span>
            <Button variant="outline" size="sm" onClick={() => statements.refetch()}>
              Retry
            </Button>
          </div>
        ) : null}
        {statements.data && list.length === 0 ? (
          <EmptyState icon={Landmark} title="No bank statements uploaded yet" />
        ) : null}
        {list.length > 0 ? (
          <ul aria-label="Bank statements" className="divide-y divide-slate-100">
            {list.map((s) => {
              const uploaded = new Date(s.upload_date);
              return (
                <li key={s.id}>
                  <Link
                    to={`/bank-analysis?statement=${encodeURIComponent(s.id)}`}
                    className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md px-2 py-3 hover:bg-slate-50"
                  >
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-slate-900">{s.filename}</p>
                      <p className="text-xs text-slate-500">
                        {uploaded.toLocaleDateString()} {uploaded.toLocaleTimeString()}
                      </p>
                    </div>
                    <span className="text-sm text-slate-600">{s.bank_name || 'Unknown bank'}</span>
                    <span className="font-mono text-sm text-slate-600">{maskAccountNumber(s.account_number)}</span>
                    <BankStatusBadge status={s.status} />
                  </Link>
                </li>
              );
            })}
          </ul>
        ) : null}
        {pages > 1 ? (
          <div className="mt-4 flex items-center justify-end gap-2 text-sm text-slate-600">
            <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page + 1} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
