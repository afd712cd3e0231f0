import type { z } from 'zod';
import { dispatchAuthError } from './auth-events';
import { ExchangeResponseSchema, ensureFreshBackendToken, readMultiAuth } from './auth-session';
import { now, recordMetric } from './performance-metrics';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage-keys';
import { FORCE_LOGOUT_EVENT, onAuthorizedCall, onUnauthorized } from './unauthorized-policy';

/** Every API call of the web app goes through this module: the only `fetch` in apps/web. */
export const API_BASE_URL = '/api/v1';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;

  constructor(message: string, status: number, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Spec §8: the response's `error` field, else its `message` field, else 'HTTP {status}'. */
export function errorMessageFromBody(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && error) return error;
    if (typeof message === 'string' && message) return message;
  }
  return `HTTP ${status}`;
}

type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions<S extends z.ZodType> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The zod schema (from @invoicebox/core) the response body must satisfy. */
  schema: S;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Some calls (health, the token exchange) go without the Bearer token. */
  auth?: boolean;
  /** Extra headers (a second-factor call sends its mfa token). */
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const url = `${API_BASE_URL}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type SendOptions = Omit<RequestOptions<z.ZodType>, 'schema'> & {
  /** A file sent as the body as it is (uploads), or a form of file parts, instead of JSON. */
  rawBody?: Blob | FormData;
};

/** Spec §8: an authenticated call with neither a backend token nor a session to buy one. */
export const NO_SESSION_MESSAGE = 'No authentication session found. Please sign in again.';

/** One authenticated call: the §8 token and 401 rules, errors as ApiError; the caller reads the body. */
async function send(path: string, options: SendOptions): Promise<Response> {
  const { method = 'GET', query, body, rawBody, signal, auth = true } = options;
  if (auth) await ensureFreshBackendToken(exchangeSessionToken);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // A form's type carries its boundary: the browser sets it.
  if (rawBody !== undefined && !(rawBody instanceof FormData)) headers['Content-Type'] = 'application/octet-stream';
  const token = auth ? readStorage(STORAGE_KEYS.backendJwt) : null;
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  const started = now();
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    recordMetric('api', now() - started, `${method} ${path} 0`);
    throw new ApiError(`Network error: failed to fetch ${path}`, 0);
  }
  // Spec §9 performance metrics: how long the server took to answer (headers in; the body is read by the caller).
  recordMetric('api', now() - started, `${method} ${path} ${response.status}`);

  if (!response.ok) {
    const payload = await readBody(response);
    if (response.status === 401 && auth) {
      writeStorage(STORAGE_KEYS.backendJwt, null);
      dispatchAuthError({ status: 401, path });
      // The §8 counting and forced logout are for a person who was signed in; a visitor who never was (the landing
      // page asking /me) is not told they were "logged out due to authentication issues".
      const signedInAccounts = readMultiAuth()?.users.length ?? 0;
      if (token || signedInAccounts > 0) {
        const outcome = onUnauthorized({
          now: Date.now(),
          inOAuthFlow: window.location.pathname.startsWith('/auth/'),
          accountCount: Math.max(1, signedInAccounts),
        });
        if (outcome.action === 'counted') console.warn(outcome.label);
        if (outcome.action === 'logout') window.dispatchEvent(new Event(FORCE_LOGOUT_EVENT));
      }
    }
    const code =
      payload && typeof payload === 'object' && typeof (payload as { code?: unknown }).code === 'string'
        ? (payload as { code: string }).code
        : undefined;
    // A 401 to a browser that holds no session at all: say so (spec §8) rather than the server's generic refusal.
    if (response.status === 401 && auth && !token) throw new ApiError(NO_SESSION_MESSAGE, 401, 'no_session');
    throw new ApiError(errorMessageFromBody(payload, response.status), response.status, code);
  }
  if (auth) onAuthorizedCall();
  return response;
}

export async function apiRequest<S extends z.ZodType>(path: string, options: RequestOptions<S>): Promise<z.infer<S>> {
  const response = await send(path, options);
  const payload = await readBody(response);
  const parsed = options.schema.safeParse(payload);
  if (!parsed.success) {
    throw new ApiError(
      `Unexpected response from ${path}: ${parsed.error.message}`,
      response.status,
      'invalid_response',
    );
  }
  return parsed.data;
}

/** The file name of an RFC 6266 Content-Disposition (the UTF-8 form first). */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the ASCII form
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] || fallback;
}

/** Downloads a file from the API with the person's token and saves it under the name the server gives. */
/** A file's bytes from the API (with the Bearer token), for a viewer in the page. */
export async function apiBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await send(path, { headers: { Accept: '*/*' }, signal: options.signal });
  return response.blob();
}

export async function apiDownload(
  path: string,
  options: { query?: Record<string, QueryValue>; fallbackName: string },
): Promise<void> {
  const response = await send(path, { query: options.query, headers: { Accept: '*/*' } });
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filenameFromDisposition(response.headers.get('content-disposition'), options.fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers start the download after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Sends a file as the request body (an mbox or .eml upload), or a multipart form, and reads the JSON answer. */
export async function apiUpload<S extends z.ZodType>(
  path: string,
  file: Blob | FormData,
  options: { schema: S; query?: Record<string, QueryValue> },
): Promise<z.infer<S>> {
  const response = await send(path, { method: 'POST', rawBody: file, query: options.query });
  const parsed = options.schema.safeParse(await readBody(response));
  if (!parsed.success) throw new ApiError(`Unexpected response from ${path}`, response.status, 'invalid_response');
  return parsed.data;
}

/** POST /auth/exchange: a session token for a fresh backend token (no auth header). */
async function exchangeSessionToken(sessionToken: string): Promise<string> {
  const { token } = await apiRequest('/auth/exchange', {
    method: 'POST',
    schema: ExchangeResponseSchema,
    body: { session_token: sessionToken },
    auth: false,
  });
  return token;
}

/** The identity service's published signing keys (spec §7 GET /.well-known/jwks.json), outside /api/v1. */
/** Spec §8: what a failed GET /health (a 503, or no answer at all) shows. */
export const HEALTH_CHECK_FAILED = 'Health check failed';

/** GET /health (no auth): resolves when the server, its database and its queue answer; else 'Health check failed'. */
export async function checkHealth(signal?: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch(buildUrl('/health'), { headers: { Accept: 'application/json' }, signal });
  } catch {
    throw new ApiError(HEALTH_CHECK_FAILED, 0);
  }
  if (!response.ok) throw new ApiError(HEALTH_CHECK_FAILED, response.status);
}

export async function fetchJwks(): Promise<{ keys: Array<Record<string, unknown>> }> {
  const response = await fetch('/.well-known/jwks.json', { headers: { Accept: 'application/json' } });
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(errorMessageFromBody(body, response.status), response.status);
  return body as { keys: Array<Record<string, unknown>> };
}

export const api = {
  get: <S extends z.ZodType>(path: string, options: Omit<RequestOptions<S>, 'method' | 'body'>) =>
    apiRequest(path, { ...options, method: 'GET' }),
  post: <S extends z.ZodType>(path: string, options: Omit<RequestOptions<S>, 'method'>) =>
    apiRequest(path, { ...options, method: 'POST' }),
  put: <S extends z.ZodType>(path: string, options: Omit<RequestOptions<S>, 'method'>) =>
    apiRequest(path, { ...options, method: 'PUT' }),
  delete: <S extends z.ZodType>(path: string, options: Omit<RequestOptions<S>, 'method'>) =>
    apiRequest(path, { ...options, method: 'DELETE' }),
};

/** Spec §9: no retry on 401, 403 or 'Authentication failed' errors. */
export function isAuthError(error: unknown): boolean {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return true;
  return error instanceof Error && error.message.includes('Authentication failed');
}
