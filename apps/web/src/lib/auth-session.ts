import { ExchangeResponseSchema, type SessionResponse } from '@invoicebox/core';
import { dispatchAuthError } from './auth-events';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage-keys';

/**
 * The signed-in session in the browser (spec §3 keys): `backend_jwt` holds the short backend token sent with every
 * API call; `multiAuth` holds the people signed in on this browser with their session tokens and the active one.
 */
export interface MultiAuth {
  users: Array<{ id: string; email: string; display_name: string }>;
  sessions: Record<string, { session_token: string; session_expires_at: string }>;
  activeUserId: string | null;
}

/** Spec §4 / §9: a backend token expiring within 5 minutes counts as expired. */
export const TOKEN_EXPIRY_MARGIN_MS = 5 * 60_000;

export function readMultiAuth(): MultiAuth | null {
  const raw = readStorage(STORAGE_KEYS.multiAuth);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as MultiAuth;
  } catch {
    return null;
  }
}

/**
 * Checks a fresh sign-in's tokens against the identity service's keys (spec §8 messages), then stores it.
 * `verify` is the JWKS check of verify-token.ts.
 */
export async function acceptSession(session: SessionResponse, verify: (token: string) => Promise<void>): Promise<void> {
  await verify(session.token);
  await verify(session.session_token);
  saveSession(session);
}

/** Stores a fresh sign-in: the backend token, and the session among this browser's sessions. */
export function saveSession(session: SessionResponse): void {
  const current = readMultiAuth() ?? { users: [], sessions: {}, activeUserId: null };
  const users = [session.user, ...current.users.filter((u) => u.id !== session.user.id)];
  const next: MultiAuth = {
    users,
    sessions: {
      ...current.sessions,
      [session.user.id]: { session_token: session.session_token, session_expires_at: session.session_expires_at },
    },
    activeUserId: session.user.id,
  };
  writeStorage(STORAGE_KEYS.multiAuth, JSON.stringify(next));
  writeStorage(STORAGE_KEYS.backendJwt, session.token);
}

/** Seconds since the epoch at which a JWT expires, from its `exp` claim (the server checks the signature). */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp : null;
  } catch {
    return null;
  }
}

export function isTokenExpired(token: string, now = Date.now()): boolean {
  const exp = tokenExpiry(token);
  return exp === null || exp * 1000 - now <= TOKEN_EXPIRY_MARGIN_MS;
}

let refreshing: Promise<void> | null = null;

/**
 * Before an authenticated call: a backend token about to expire is cleared (with an auth-error event) and replaced by
 * exchanging the active session token (POST /auth/exchange, no auth header). One exchange at a time.
 */
export async function ensureFreshBackendToken(exchange: (sessionToken: string) => Promise<string>): Promise<void> {
  const token = readStorage(STORAGE_KEYS.backendJwt);
  if (token && !isTokenExpired(token)) return;
  const auth = readMultiAuth();
  const session = auth?.activeUserId ? auth.sessions[auth.activeUserId] : undefined;
  if (!session) return;
  if (token) {
    writeStorage(STORAGE_KEYS.backendJwt, null);
    dispatchAuthError({ status: 401, path: '/auth/exchange' });
  }
  refreshing ??= exchange(session.session_token)
    .then((fresh) => writeStorage(STORAGE_KEYS.backendJwt, fresh))
    .catch(() => {
      // The session itself is gone: the next call gets its 401 and the sign-in screen shows.
    })
    .finally(() => {
      refreshing = null;
    });
  await refreshing;
}

export { ExchangeResponseSchema };
