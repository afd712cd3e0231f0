/** The browser-storage keys of spec §3. Every read or write of these goes through these names. */
export const STORAGE_KEYS = {
  backendJwt: 'backend_jwt',
  multiAuth: 'multiAuth',
  multiAccountSession: 'multi_account_session',
  activeJobId: 'active_job_id',
  lastAuthError: 'last_auth_error',
  authErrorCount: 'auth_error_count',
} as const;

/** The keys a sign-out removes (spec §4: "all stored auth keys"). */
export const AUTH_STORAGE_KEYS = [
  STORAGE_KEYS.backendJwt,
  STORAGE_KEYS.multiAuth,
  STORAGE_KEYS.multiAccountSession,
  STORAGE_KEYS.lastAuthError,
  STORAGE_KEYS.authErrorCount,
] as const;

/** Where the query cache is persisted; removed on sign-out with the rest. */
export const QUERY_CACHE_STORAGE_KEY = 'invoicebox_query_cache';

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the app keeps working without persistence.
  }
}

export function clearAuthStorage(): void {
  for (const key of AUTH_STORAGE_KEYS) window.localStorage.removeItem(key);
}
