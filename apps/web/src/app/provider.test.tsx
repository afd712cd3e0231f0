import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api } from '../lib/api-client';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { FORCE_LOGOUT_EVENT } from '../lib/unauthorized-policy';
import { createTestQueryClient, mockFetch } from '../test/render';
import { ForceLogoutListener } from './provider';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

afterEach(() => {
  window.history.replaceState(null, '', '/');
  localStorage.clear();
});

describe('force logout (spec §8)', () => {
  it('clears the cache and the auth keys and shows the force-logout toast', () => {
    window.history.replaceState(null, '', '/auth/callback');
    const client = createTestQueryClient();
    client.setQueryData(['invoices'], 1);
    localStorage.setItem(STORAGE_KEYS.backendJwt, 'jwt');
    localStorage.setItem(STORAGE_KEYS.multiAuth, '{}');
    render(<ForceLogoutListener client={client} />);
    window.dispatchEvent(new Event(FORCE_LOGOUT_EVENT));
    expect(toast.error).toHaveBeenCalledWith(
      'You have been logged out due to authentication issues. Please sign in again.',
    );
    expect(client.getQueryData(['invoices'])).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.backendJwt)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.multiAuth)).toBeNull();
    // Already on an auth path: it stays there.
    expect(window.location.pathname).toBe('/auth/callback');
  });
});

/** A backend token that is not about to expire (only its `exp` is read in the browser). */
function liveToken(): string {
  const payload = btoa(JSON.stringify({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `eyJhbGciOiJFZERTQSJ9.${payload}.sig`;
}

function signIn(users: string[]) {
  localStorage.setItem(STORAGE_KEYS.backendJwt, liveToken());
  localStorage.setItem(
    STORAGE_KEYS.multiAuth,
    JSON.stringify({
      users: users.map((id) => ({ id, email: `${id}@example.com`, display_name: id })),
      sessions: Object.fromEntries(
        users.map((id) => [id, { session_token: `s-${id}`, session_expires_at: '2030-01-01T00:00:00.000Z' }]),
      ),
      activeUserId: users[0],
    }),
  );
}

describe('a 401 pair through the API client (spec §8)', () => {
  beforeEach(() => toast.error.mockClear());
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** The server no longer knows the session: every call, and the session token's exchange, answers 401. */
  function revokedServer() {
    const server = mockFetch(() => ({ status: 401, body: { error: 'Unauthorized' } }));
    vi.stubGlobal('fetch', server.fn);
    return server;
  }

  it('logs a single-account person out at the second 401 and goes to / from another page', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      pathname: '/invoices',
      assign,
    } as Location);
    const server = revokedServer();
    signIn(['u1']);
    const client = createTestQueryClient();
    client.setQueryData(['invoices'], 1);
    render(<ForceLogoutListener client={client} />);

    await expect(api.get('/invoices', { schema: z.unknown() })).rejects.toMatchObject({ status: 401 });
    // The first one clears the token and records the time; nobody is logged out yet.
    expect(localStorage.getItem(STORAGE_KEYS.backendJwt)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.lastAuthError)).not.toBeNull();
    expect(toast.error).not.toHaveBeenCalled();
    expect(assign).not.toHaveBeenCalled();

    await expect(api.get('/invoices', { schema: z.unknown() })).rejects.toMatchObject({ status: 401 });
    // In between, the session token was offered for a new backend token (refused as well).
    expect(server.calls.some((c) => c.url.pathname === '/api/v1/auth/exchange')).toBe(true);
    expect(toast.error).toHaveBeenCalledWith(
      'You have been logged out due to authentication issues. Please sign in again.',
    );
    expect(assign).toHaveBeenCalledWith('/');
    expect(localStorage.getItem(STORAGE_KEYS.multiAuth)).toBeNull();
    expect(client.getQueryData(['invoices'])).toBeUndefined();
  });

  it('with three accounts counts the repeats and logs out at the third', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      pathname: '/history',
      assign,
    } as Location);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    revokedServer();
    signIn(['u1', 'u2', 'u3']);
    render(<ForceLogoutListener client={createTestQueryClient()} />);
    for (let i = 0; i < 2; i++) {
      await expect(api.get('/jobs', { schema: z.unknown() })).rejects.toMatchObject({ status: 401 });
    }
    expect(warn).toHaveBeenCalledWith('Auth error 2/3');
    expect(assign).not.toHaveBeenCalled();
    await expect(api.get('/jobs', { schema: z.unknown() })).rejects.toMatchObject({ status: 401 });
    expect(assign).toHaveBeenCalledWith('/');
    expect(toast.error).toHaveBeenCalledTimes(1);
  });

  it('does not log out on the callback screen, whatever the count', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      pathname: '/auth/callback',
      assign,
    } as Location);
    revokedServer();
    signIn(['u1']);
    render(<ForceLogoutListener client={createTestQueryClient()} />);
    for (let i = 0; i < 3; i++) {
      await expect(api.get('/me', { schema: z.unknown() })).rejects.toMatchObject({ status: 401 });
    }
    expect(toast.error).not.toHaveBeenCalled();
    expect(assign).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.multiAuth)).not.toBeNull();
  });
});
