import {
  AccountListResponseSchema,
  type AccountScope,
  ConnectedAccountSchema,
  type ImapConnectBody,
} from '@invoicebox/core';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { STORAGE_KEYS, writeStorage } from '../../../lib/storage-keys';

/** Connected mail accounts and the multi-account session (spec §3), kept on the server. */
export const accountsQueryKey = ['accounts'] as const;

export const accountsQueryOptions = () =>
  queryOptions({
    queryKey: accountsQueryKey,
    queryFn: async ({ signal }) => {
      const answer = await api.get('/gmail/accounts', { schema: AccountListResponseSchema, signal });
      // Spec §3 `multi_account_session`: the session as the browser last saw it.
      writeStorage(STORAGE_KEYS.multiAccountSession, JSON.stringify(answer.session));
      return answer;
    },
  });

export const useAccounts = () => useQuery(accountsQueryOptions());

export const setPrimaryAccount = (id: string) =>
  api.post(`/gmail/accounts/${id}/primary`, { schema: ConnectedAccountSchema });

export const activateAccount = (id: string) =>
  api.post(`/gmail/accounts/${id}/activate`, { schema: ConnectedAccountSchema });

export const removeAccount = (id: string) =>
  api.delete(`/gmail/accounts/${id}`, { schema: z.object({ removed: ConnectedAccountSchema }) });

export const updateAccountScope = (selectedScope: AccountScope, selectedUserIds: string[] = []) =>
  api.put('/gmail/accounts/scope', { schema: AccountListResponseSchema, body: { selectedScope, selectedUserIds } });

export const connectImapAccount = (body: ImapConnectBody) =>
  api.post('/gmail/accounts/imap', { schema: ConnectedAccountSchema, body });

/**
 * Spec §4 account switching: the mail and drive data of the previous choice is dropped at once and asked for again
 * after 100 ms; invoice queries are invalidated as well.
 */
export const ACCOUNT_SWITCH_INVALIDATION_DELAY_MS = 100;
const PER_ACCOUNT_KEYS = [['incoming-mail'], ['outgoing-mail'], ['drive-status']] as const;

export function afterAccountSwitch(client: QueryClient): void {
  for (const key of PER_ACCOUNT_KEYS) client.removeQueries({ queryKey: key });
  void client.invalidateQueries({ queryKey: accountsQueryKey });
  void client.invalidateQueries({ queryKey: ['invoices'] });
  setTimeout(() => {
    for (const key of PER_ACCOUNT_KEYS) void client.invalidateQueries({ queryKey: key });
  }, ACCOUNT_SWITCH_INVALIDATION_DELAY_MS);
}
