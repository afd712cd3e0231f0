import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { createQueryClient, shouldRetryQuery } from './query-client';

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
