import { readStorage, STORAGE_KEYS, writeStorage } from './storage-keys';

/**
 * Spec §8, what a 401 does beyond clearing the backend token:
 * - during an OAuth flow (the /auth/callback screen) nothing more;
 * - a first 401 records its time (`last_auth_error`);
 * - a second one within 2 minutes logs a single-account person out; with several accounts it counts
 *   (`auth_error_count`, 'Auth error n/3') and logs out at the third, the token alone being cleared before that;
 * - any successful call clears the counters.
 */
export const AUTH_ERROR_WINDOW_MS = 2 * 60_000;
export const MULTI_ACCOUNT_LOGOUT_THRESHOLD = 3;

export type UnauthorizedOutcome =
  | { action: 'none' }
  | { action: 'recorded' }
  | { action: 'counted'; count: number; label: string }
  | { action: 'logout' };

export function onUnauthorized(context: {
  now: number;
  inOAuthFlow: boolean;
  accountCount: number;
}): UnauthorizedOutcome {
  if (context.inOAuthFlow) return { action: 'none' };
  const last = Number(readStorage(STORAGE_KEYS.lastAuthError) ?? Number.NaN);
  const repeated = Number.isFinite(last) && context.now - last < AUTH_ERROR_WINDOW_MS;
  writeStorage(STORAGE_KEYS.lastAuthError, String(context.now));
  if (!repeated) return { action: 'recorded' };
  if (context.accountCount <= 1) return { action: 'logout' };
  const count = Number(readStorage(STORAGE_KEYS.authErrorCount) ?? '1') + 1;
  if (count >= MULTI_ACCOUNT_LOGOUT_THRESHOLD) return { action: 'logout' };
  writeStorage(STORAGE_KEYS.authErrorCount, String(count));
  return { action: 'counted', count, label: `Auth error ${count}/${MULTI_ACCOUNT_LOGOUT_THRESHOLD}` };
}

export function onAuthorizedCall(): void {
  if (readStorage(STORAGE_KEYS.lastAuthError) === null && readStorage(STORAGE_KEYS.authErrorCount) === null) return;
  writeStorage(STORAGE_KEYS.lastAuthError, null);
  writeStorage(STORAGE_KEYS.authErrorCount, null);
}

export const FORCE_LOGOUT_EVENT = 'invoicebox:force-logout';
export const FORCE_LOGOUT_MESSAGE = 'You have been logged out due to authentication issues. Please sign in again.';
