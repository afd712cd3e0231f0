import {
  type BankStatementAnalysis,
  BankStatementAnalysisSchema,
  BankStatementListResponseSchema,
  BankStatementSummarySchema,
  BankStatementUploadResponseSchema,
  BankTransactionSchema,
  ClearBankStatementsResponseSchema,
  InvoiceListResponseSchema,
  type MultiAccountSession,
} from '@invoicebox/core';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { toast } from 'sonner';
import { api } from '../../../lib/api-client';
import { JOB_POLL_INTERVAL_MS } from '../../../lib/constants';

/** Everything of the bank module sits under this key: the shell's Refresh and a clear-all invalidate it at once. */
export const bankQueryKey = ['bank-statements'] as const;

/**
 * A statement's matches say which invoices are paid (the cards' Paid badge): after an analysis, a match or unmatch by
 * hand and a clear-all, the invoice lists and stats are read again rather than shown from the hour-long cache.
 */
export const invalidatePaidInvoices = (client: QueryClient) => client.invalidateQueries({ queryKey: ['invoices'] });

/** Spec §9: bank statements 20 per page with offset 0; the dashboard shows 5. */
export const BANK_STATEMENTS_PAGE_LIMIT = 20;
export const DASHBOARD_BANK_STATEMENTS = 5;

export const getBankStatements = (limit: number, offset: number, signal?: AbortSignal) =>
  api.get('/bank-statements', { schema: BankStatementListResponseSchema, query: { limit, offset }, signal });

export const bankStatementsQueryOptions = (limit = BANK_STATEMENTS_PAGE_LIMIT, offset = 0) =>
  queryOptions({
    queryKey: [...bankQueryKey, 'list', { limit, offset }] as const,
    queryFn: ({ signal }) => getBankStatements(limit, offset, signal),
    placeholderData: keepPreviousData,
  });

export const useBankStatements = (limit = BANK_STATEMENTS_PAGE_LIMIT, offset = 0) =>
  useQuery(bankStatementsQueryOptions(limit, offset));

/** Spec §4: while a statement is processing, the newest one (limit 1) is polled every 2 s. */
export const useNewestBankStatement = (enabled: boolean) =>
  useQuery({
    queryKey: [...bankQueryKey, 'newest'] as const,
    queryFn: ({ signal }) => getBankStatements(1, 0, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: enabled ? JOB_POLL_INTERVAL_MS : false,
    refetchIntervalInBackground: true,
  });

export const useBankSummary = () =>
  useQuery({
    queryKey: [...bankQueryKey, 'summary'] as const,
    queryFn: ({ signal }) => api.get('/bank-statements/summary', { schema: BankStatementSummarySchema, signal }),
  });

export const bankAnalysisQueryKey = (id: string) => [...bankQueryKey, 'detail', id] as const;

export const getBankAnalysis = (id: string, signal?: AbortSignal) =>
  api.get(`/bank-statements/${encodeURIComponent(id)}`, { schema: BankStatementAnalysisSchema, signal });

/** One statement with its analysis; `poll` while it is pending and is not the newest (a retried older one). */
export const useBankAnalysis = (id: string | null, poll = false) =>
  useQuery({
    queryKey: bankAnalysisQueryKey(id ?? ''),
    queryFn: ({ signal }) => getBankAnalysis(id ?? '', signal),
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (q) => (poll && q.state.data?.status === 'pending' ? JOB_POLL_INTERVAL_MS : false),
  });

/**
 * The accounts an upload covers (spec §6 scope): several selected means upload-multi with their ids (spec §7),
 * as the invoice screens read the same saved scope on the server.
 */
export function selectedAccountIds(session: MultiAccountSession | undefined): string[] {
  if (!session) return [];
  const all = session.connectedAccounts.map((a) => a.userId);
  if (session.selectedScope === 'all') return all;
  if (session.selectedScope === 'custom') return session.selectedUserIds.filter((id) => all.includes(id));
  const current = session.activeUserId ?? session.primaryUserId;
  return current ? [current] : [];
}

/** Standard base64 of a file's bytes (the upload payload's file_data). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

export async function uploadBankStatement(file: File, userIds: string[]) {
  const body = { filename: file.name, file_data: await fileToBase64(file) };
  return userIds.length > 1
    ? api.post('/bank-statements/upload-multi', {
        schema: BankStatementUploadResponseSchema,
        body: { ...body, user_ids: userIds },
      })
    : api.post('/bank-statements/upload', { schema: BankStatementUploadResponseSchema, body });
}

export const retryBankStatement = (id: string) =>
  api.post(`/bank-statements/${encodeURIComponent(id)}/retry`, { schema: BankStatementUploadResponseSchema });

export function useClearBankStatements() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/bank-statements/clear-all', { schema: ClearBankStatementsResponseSchema }),
    onSuccess: async () => {
      toast.success('All bank statement history cleared successfully');
      await client.invalidateQueries({ queryKey: bankQueryKey });
      await invalidatePaidInvoices(client);
    },
    onError: () => {
      toast.error('Failed to clear bank statement history');
    },
  });
}

const matchPath = (statementId: string, transactionId: string) =>
  `/bank-statements/${encodeURIComponent(statementId)}/transactions/${encodeURIComponent(transactionId)}/match`;

/** Manual match (invoiceId) or unmatch (null); the answer replaces the row and the counts are read again. */
export function useManualMatch(statementId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ transactionId, invoiceId }: { transactionId: string; invoiceId: string | null }) =>
      invoiceId
        ? api.post(matchPath(statementId, transactionId), {
            schema: BankTransactionSchema,
            body: { invoice_id: invoiceId },
          })
        : api.delete(matchPath(statementId, transactionId), { schema: BankTransactionSchema }),
    onSuccess: async (row) => {
      client.setQueryData<BankStatementAnalysis>(bankAnalysisQueryKey(statementId), (old) =>
        old ? { ...old, transactions: old.transactions.map((t) => (t.id === row.id ? row : t)) } : old,
      );
      await client.invalidateQueries({ queryKey: bankQueryKey });
      await invalidatePaidInvoices(client);
    },
    onError: (error) => {
      toast.error(error.message);
    },
  });
}

/** The person's invoices to match by hand: every account (the matcher reads all of them), searched by the server. */
export const useInvoicesToMatch = (search: string, accountIds: string[], enabled: boolean) =>
  useQuery({
    queryKey: ['invoices', 'bank-match', { search, accountIds }] as const,
    queryFn: ({ signal }) =>
      api.get('/invoices', {
        schema: InvoiceListResponseSchema,
        signal,
        query: {
          search: search || undefined,
          has_attachments: 'false',
          limit: 20,
          page: 1,
          user_ids: accountIds.length ? accountIds.join(',') : undefined,
        },
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
