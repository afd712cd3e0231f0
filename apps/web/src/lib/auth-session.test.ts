import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_ERROR_EVENT } from './auth-events';
import {
  ensureFreshBackendToken,
  isTokenExpired,
  saveSession,
  TOKEN_EXPIRY_MARGIN_MS,
  tokenExpiry,
} from './auth-session';
import { STORAGE_KEYS } from './storage-keys';

const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.s`;
const user = { id: 'u1', email: 'me@example.com', display_name: 'Me' };

describe('the backend token rule of spec §4', () => {
  beforeEach(() => window.localStorage.clear());

  it('reads the expiry from the exp claim and counts a token within 5 minutes of it as expired', () => {
    const now = 1_700_000_000_000;
    expect(tokenExpiry(jwt(1_700_000_600))).toBe(1_700_000_600);
    expect(tokenExpiry('not-a-jwt')).toBeNull();
    expect(isTokenExpired(jwt(now / 1000 + TOKEN_EXPIRY_MARGIN_MS / 1000 + 1), now)).toBe(false);
    expect(isTokenExpired(jwt(now / 1000 + TOKEN_EXPIRY_MARGIN_MS / 1000 - 1), now)).toBe(true);
    expect(isTokenExpired('garbage', now)).toBe(true);
  });

  it('clears an expiring token with an auth-error event and exchanges the session token for a new one', async () => {
    const fresh = jwt(Math.floor(Date.now() / 1000) + 3600);
    saveSession({
      session_token: 'the-session-token',
      session_expires_at: '2030-01-01T00:00:00.000Z',
      token: jwt(Math.floor(Date.now() / 1000) + 60),
      expires_at: '2030-01-01T00:00:00.000Z',
      user,
    });
    const events: Event[] = [];
    window.addEventListener(AUTH_ERROR_EVENT, (e) => events.push(e));
    const exchange = vi.fn(async () => fresh);
    await ensureFreshBackendToken(exchange);
    expect(exchange).toHaveBeenCalledWith('the-session-token');
    expect(events).toHaveLength(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.backendJwt)).toBe(fresh);
    // A live token is left alone.
    await ensureFreshBackendToken(exchange);
    expect(exchange).toHaveBeenCalledTimes(1);
  });
});
