import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import type { PersistedClient } from '@tanstack/react-query-persist-client';
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

/**
 * Spec §9: the cache in local storage, written at most once a second. `flush` writes what waits for that second at
 * once: the app calls it when the page is hidden, or a reload right after a change (removing the sample, then F5)
 * would restore the cache from before it, fresh for an hour.
 */
export function createQueryPersister() {
  const storage = typeof window === 'undefined' ? undefined : window.localStorage;
  const throttled = createSyncStoragePersister({
    storage,
    key: QUERY_CACHE_STORAGE_KEY,
    throttleTime: CACHE_PERSIST_THROTTLE_MS,
  });
  let waiting: PersistedClient | undefined;
  return {
    ...throttled,
    persistClient: (client: PersistedClient) => {
      waiting = client;
      return throttled.persistClient(client);
    },
    removeClient: () => {
      waiting = undefined;
      return throttled.removeClient();
    },
    flush: () => {
      if (!storage || !waiting) return;
      try {
        storage.setItem(QUERY_CACHE_STORAGE_KEY, JSON.stringify(waiting));
      } catch {
        // Storage full or refused: the throttled write tries again, as before.
      }
      waiting = undefined;
    },
  };
}

export const persistMaxAge = CACHE_PERSIST_MAX_AGE_MS;
