/** Raised on window whenever the API answers 401 (spec §8); the app provider drops the cached user on it. */
export const AUTH_ERROR_EVENT = 'invoicebox:auth-error';

export interface AuthErrorDetail {
  status: number;
  path: string;
}

export function dispatchAuthError(detail: AuthErrorDetail): void {
  window.dispatchEvent(new CustomEvent<AuthErrorDetail>(AUTH_ERROR_EVENT, { detail }));
}

export function onAuthError(listener: (detail: AuthErrorDetail) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<AuthErrorDetail>).detail);
  window.addEventListener(AUTH_ERROR_EVENT, handler);
  return () => window.removeEventListener(AUTH_ERROR_EVENT, handler);
}
