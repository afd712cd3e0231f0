import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import { isAuthError } from '../lib/api-client';
import {
  CACHE_GC_TIME_MS,
  CACHE_PERSIST_MAX_AGE_MS,
  CACHE_PERSIST_THROTTLE_MS,
  CACHE_STALE_TIME_MS,
  QUERY_MAX_RETRIES,
} from '../lib/constants';
import { QUERY_CACHE_STORAGE_KEY } from '../lib/storage-keys';

/** Spec §9: retry a failed query up to twice, never an authentication failure. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (isAuthError(error)) return false;
  return failureCount < QUERY_MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: CACHE_STALE_TIME_MS,
        gcTime: CACHE_GC_TIME_MS,
        retry: shouldRetryQuery,
        refetchOnWindowFocus: false,
        refetchOnReconnect: true,
      },
      mutations: { retry: false },
    },
  });
}

export function createQueryPersister() {
  return createSyncStoragePersister({
    storage: typeof window === 'undefined' ? undefined : window.localStorage,
    key: QUERY_CACHE_STORAGE_KEY,
    throttleTime: CACHE_PERSIST_THROTTLE_MS,
  });
}

export const persistMaxAge = CACHE_PERSIST_MAX_AGE_MS;
