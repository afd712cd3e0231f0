import { MeResponseSchema } from '@invoicebox/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/render';
import { ApiError, apiRequest, checkHealth, errorMessageFromBody, isAuthError } from './api-client';
import { AUTH_ERROR_EVENT } from './auth-events';
import { STORAGE_KEYS } from './storage-keys';

const me = { user: { id: 'u1', email: 'owner@example.test', display_name: 'Owner' } };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('errorMessageFromBody', () => {
  it('prefers error, then message, then HTTP {status}', () => {
    expect(errorMessageFromBody({ error: 'Bad thing', message: 'other' }, 400)).toBe('Bad thing');
    expect(errorMessageFromBody({ message: 'Only message' }, 400)).toBe('Only message');
    expect(errorMessageFromBody({}, 502)).toBe('HTTP 502');
    expect(errorMessageFromBody('not json', 500)).toBe('HTTP 500');
    expect(errorMessageFromBody(undefined, 404)).toBe('HTTP 404');
  });
});

describe('apiRequest', () => {
  it('calls /api/v1, sends the Bearer token when present and parses with the schema', async () => {
    localStorage.setItem(STORAGE_KEYS.backendJwt, 'tok123');
    const { fn, calls } = mockFetch(() => ({ body: me }));
    vi.stubGlobal('fetch', fn);

    await expect(apiRequest('/me', { schema: MeResponseSchema, query: { limit: 20, empty: '' } })).resolves.toEqual(me);
    expect(calls[0]?.url.pathname).toBe('/api/v1/me');
    expect(calls[0]?.url.search).toBe('?limit=20');
    const headers = calls[0]?.init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok123');
  });

  it('sends no Authorization header without a token, and JSON bodies with a content type', async () => {
    const { fn, calls } = mockFetch(() => ({ body: me }));
    vi.stubGlobal('fetch', fn);
    await apiRequest('/me', { method: 'POST', schema: MeResponseSchema, body: { a: 1 } });
    const headers = calls[0]?.init?.headers as Record<string, string>;
    expect(headers.Authorization).toBeUndefined();
    expect(headers['Content-Type']).toBe('application/json');
    expect(calls[0]?.init?.body).toBe('{"a":1}');
  });

  it('throws an ApiError with the status and the message rule of §8', async () => {
    vi.stubGlobal('fetch', mockFetch(() => ({ status: 422, body: { message: 'Invalid limit' } })).fn);
    const error = await apiRequest('/jobs', { schema: MeResponseSchema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toBe('Invalid limit');

    vi.stubGlobal('fetch', mockFetch(() => ({ status: 503 })).fn);
    await expect(apiRequest('/jobs', { schema: MeResponseSchema })).rejects.toThrow('HTTP 503');
  });

  it('never force-logs-out a visitor who was not signed in, however many 401s the landing page gets', async () => {
    localStorage.clear();
    const forced = vi.fn();
    window.addEventListener('invoicebox:force-logout', forced);
    vi.stubGlobal('fetch', mockFetch(() => ({ status: 401, body: { error: 'Unauthorized' } })).fn);
    for (let i = 0; i < 4; i++) {
      await expect(apiRequest('/me', { schema: MeResponseSchema })).rejects.toMatchObject({ status: 401 });
    }
    window.removeEventListener('invoicebox:force-logout', forced);
    expect(forced).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.lastAuthError)).toBeNull();
  });

  it('on 401 clears backend_jwt and raises the auth-error event', async () => {
    localStorage.setItem(STORAGE_KEYS.backendJwt, 'expired');
    vi.stubGlobal(
      'fetch',
      mockFetch(() => ({ status: 401, body: { error: 'Unauthorized', code: 'unauthorized' } })).fn,
    );
    const listener = vi.fn();
    window.addEventListener(AUTH_ERROR_EVENT, listener);

    const error = await apiRequest('/me', { schema: MeResponseSchema }).catch((e: unknown) => e);
    window.removeEventListener(AUTH_ERROR_EVENT, listener);

    expect(error).toMatchObject({ status: 401, message: 'Unauthorized', code: 'unauthorized' });
    expect(localStorage.getItem(STORAGE_KEYS.backendJwt)).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('says that no session exists when a browser without one is refused', async () => {
    vi.stubGlobal('fetch', mockFetch(() => ({ status: 401, body: { error: 'Unauthorized' } })).fn);
    await expect(apiRequest('/me', { schema: MeResponseSchema })).rejects.toMatchObject({
      status: 401,
      code: 'no_session',
      message: 'No authentication session found. Please sign in again.',
    });
  });

  it('rejects a body that does not match the schema', async () => {
    vi.stubGlobal('fetch', mockFetch(() => ({ body: { user: { id: 1 } } })).fn);
    await expect(apiRequest('/me', { schema: MeResponseSchema })).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest('/me', { schema: MeResponseSchema })).rejects.toMatchObject({ status: 0 });
  });
});

describe('checkHealth', () => {
  it("resolves on 200 and fails with 'Health check failed' on a 503 or no answer", async () => {
    const { fn, calls } = mockFetch(() => ({ body: { status: 'ok' } }));
    vi.stubGlobal('fetch', fn);
    await expect(checkHealth()).resolves.toBeUndefined();
    expect(calls[0]?.url.pathname).toBe('/api/v1/health');
    vi.stubGlobal('fetch', mockFetch(() => ({ status: 503, body: { error: 'Health check failed' } })).fn);
    await expect(checkHealth()).rejects.toMatchObject({ message: 'Health check failed', status: 503 });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(checkHealth()).rejects.toMatchObject({ message: 'Health check failed', status: 0 });
  });
});

describe('isAuthError', () => {
  it('recognises 401, 403 and Authentication failed', () => {
    expect(isAuthError(new ApiError('x', 401))).toBe(true);
    expect(isAuthError(new ApiError('x', 403))).toBe(true);
    expect(isAuthError(new Error('Authentication failed: token'))).toBe(true);
    expect(isAuthError(new ApiError('x', 500))).toBe(false);
  });
});

describe('filenameFromDisposition', () => {
  it('prefers the UTF-8 name, falls back to the ASCII one, then to the given name', async () => {
    const { filenameFromDisposition } = await import('./api-client');
    expect(
      filenameFromDisposition(`attachment; filename="Rechnung_.pdf"; filename*=UTF-8''Rechnung%20%C3%BC.pdf`, 'x'),
    ).toBe('Rechnung ü.pdf');
    expect(filenameFromDisposition('attachment; filename="invoices-2026-01-01.zip"', 'x')).toBe(
      'invoices-2026-01-01.zip',
    );
    expect(filenameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A`, 'fallback.csv')).toBe('fallback.csv');
    expect(filenameFromDisposition(null, 'fallback.csv')).toBe('fallback.csv');
  });
});
