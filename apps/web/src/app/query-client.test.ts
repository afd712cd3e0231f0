import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client';
import { QUERY_CACHE_STORAGE_KEY } from '../lib/storage-keys';
import { createQueryClient, createQueryPersister, persistMaxAge, shouldRetryQuery } from './query-client';

describe('query client defaults (spec §9)', () => {
  it('retries up to twice, never on auth failures', () => {
    expect(shouldRetryQuery(0, new ApiError('boom', 500))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError('boom', 500))).toBe(true);
    expect(shouldRetryQuery(2, new ApiError('boom', 500))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError('no', 401))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError('no', 403))).toBe(false);
    expect(shouldRetryQuery(0, new Error('Authentication failed: expired'))).toBe(false);
  });

  it('caches 1 h fresh, 24 h retained, no focus refetch, refetch on reconnect, no mutation retry', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries?.staleTime).toBe(3_600_000);
    expect(queries?.gcTime).toBe(86_400_000);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchOnReconnect).toBe(true);
    expect(mutations?.retry).toBe(false);
  });
});

describe('query cache persistence (spec §9)', () => {
  afterEach(() => {
    vi.useRealTimers();
    localStorage.clear();
  });

  it('writes to local storage at most once a second and expires after 24 hours', async () => {
    vi.useFakeTimers();
    const persister = createQueryPersister();
    const client = { timestamp: Date.now(), buster: '', clientState: { mutations: [], queries: [] } };
    void persister.persistClient(client);
    void persister.persistClient({ ...client, buster: 'second' });
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(999);
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(JSON.parse(localStorage.getItem(QUERY_CACHE_STORAGE_KEY) ?? '{}').buster).toBe('second');
    expect(persistMaxAge).toBe(24 * 60 * 60 * 1000);
  });

  it('writes what waits for the throttle at once on flush (the page being hidden), and only once', async () => {
    vi.useFakeTimers();
    const persister = createQueryPersister();
    const client = { timestamp: Date.now(), buster: 'after-removal', clientState: { mutations: [], queries: [] } };
    void persister.persistClient(client);
    persister.flush();
    expect(JSON.parse(localStorage.getItem(QUERY_CACHE_STORAGE_KEY) ?? '{}').buster).toBe('after-removal');
    localStorage.removeItem(QUERY_CACHE_STORAGE_KEY);
    persister.flush();
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toBeNull();
    // A removed cache (sign-out) is not written back by a later flush.
    void persister.persistClient(client);
    await persister.removeClient();
    persister.flush();
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toBeNull();
  });
});
