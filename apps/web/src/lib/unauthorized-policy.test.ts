import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from './storage-keys';
import { AUTH_ERROR_WINDOW_MS, onAuthorizedCall, onUnauthorized } from './unauthorized-policy';

describe('the 401 rules of spec §8', () => {
  beforeEach(() => window.localStorage.clear());
  const at = (now: number, accountCount = 1, inOAuthFlow = false) => onUnauthorized({ now, accountCount, inOAuthFlow });

  it('records a first 401 and logs a single account out on a second within 2 minutes', () => {
    expect(at(1_000)).toEqual({ action: 'recorded' });
    expect(window.localStorage.getItem(STORAGE_KEYS.lastAuthError)).toBe('1000');
    expect(at(1_000 + AUTH_ERROR_WINDOW_MS - 1)).toEqual({ action: 'logout' });
  });

  it('does not log out when the second 401 comes after the window', () => {
    expect(at(0)).toEqual({ action: 'recorded' });
    expect(at(AUTH_ERROR_WINDOW_MS + 1)).toEqual({ action: 'recorded' });
  });

  it('with several accounts counts Auth error n/3 and logs out at the third', () => {
    expect(at(0, 2)).toEqual({ action: 'recorded' });
    expect(at(10, 2)).toEqual({ action: 'counted', count: 2, label: 'Auth error 2/3' });
    expect(at(20, 2)).toEqual({ action: 'logout' });
  });

  it('does nothing during an OAuth flow', () => {
    expect(at(0, 1, true)).toEqual({ action: 'none' });
    expect(at(1, 1, true)).toEqual({ action: 'none' });
    expect(window.localStorage.getItem(STORAGE_KEYS.lastAuthError)).toBeNull();
  });

  it('a successful call clears the counters', () => {
    at(0, 2);
    at(1, 2);
    onAuthorizedCall();
    expect(window.localStorage.getItem(STORAGE_KEYS.lastAuthError)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.authErrorCount)).toBeNull();
    expect(at(2, 2)).toEqual({ action: 'recorded' });
  });
});
