import { MeResponseSchema } from '@invoicebox/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const meQueryKey = ['me'] as const;

export function getMe(signal?: AbortSignal) {
  return api.get('/me', { schema: MeResponseSchema, signal });
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
  });

export function useMe() {
  return useQuery(meQueryOptions());
}
