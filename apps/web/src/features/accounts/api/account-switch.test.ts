import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_SWITCH_INVALIDATION_DELAY_MS, afterAccountSwitch } from './accounts-api';

afterEach(() => {
  vi.useRealTimers();
});

describe('account switching (spec §4)', () => {
  it('drops mail and drive data at once, invalidates invoices, and asks for mail and drive again after 100 ms', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    for (const key of ['incoming-mail', 'outgoing-mail', 'drive-status', 'invoices']) client.setQueryData([key], 1);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    afterAccountSwitch(client);
    expect(ACCOUNT_SWITCH_INVALIDATION_DELAY_MS).toBe(100);
    for (const key of ['incoming-mail', 'outgoing-mail', 'drive-status'])
      expect(client.getQueryData([key])).toBeUndefined();
    const keys = () => invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    expect(keys()).toContain('["invoices"]');
    expect(keys()).not.toContain('["incoming-mail"]');
    await vi.advanceTimersByTimeAsync(99);
    expect(keys()).not.toContain('["drive-status"]');
    await vi.advanceTimersByTimeAsync(1);
    expect(keys()).toEqual(expect.arrayContaining(['["incoming-mail"]', '["outgoing-mail"]', '["drive-status"]']));
  });
});
