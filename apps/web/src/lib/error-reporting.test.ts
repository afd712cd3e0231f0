import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  drainErrorQueue,
  ERROR_FLUSH_DELAY_MS,
  ERROR_QUEUE_MAX,
  type ErrorReport,
  flushErrorReports,
  getQueuedErrors,
  installGlobalErrorHandlers,
  postErrorReports,
  reportError,
} from './error-reporting';

beforeEach(() => {
  drainErrorQueue();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('error reporting queue', () => {
  it('keeps at most 50 reports, dropping the oldest', () => {
    for (let i = 0; i < 60; i++) reportError(new Error(`e${i}`), 'error');
    const queued = getQueuedErrors();
    expect(queued).toHaveLength(ERROR_QUEUE_MAX);
    expect(queued[0]?.message).toBe('e10');
    expect(queued.at(-1)?.message).toBe('e59');
  });

  it('queues global errors and unhandled rejections', () => {
    const uninstall = installGlobalErrorHandlers(window, null);
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('global boom'), message: 'global boom' }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(rejection, 'reason', { value: 'rejected!' });
    window.dispatchEvent(rejection);
    uninstall();
    expect(getQueuedErrors().map((r) => [r.source, r.message])).toEqual([
      ['error', 'global boom'],
      ['unhandledrejection', 'rejected!'],
    ]);
  });

  it('keeps the page address without query or fragment (the OAuth callback carries tokens there)', () => {
    window.history.replaceState(null, '', '/auth/callback?code=secret#access_token=secret');
    const report = reportError(new Error('x'), 'error');
    window.history.replaceState(null, '', '/');
    expect(report.url).toBe(`${window.location.origin}/auth/callback`);
  });
});

describe('error reporting sender', () => {
  it('sends the queue once, a burst in one request after the delay, and empties it', async () => {
    vi.useFakeTimers();
    const sent: ErrorReport[][] = [];
    const uninstall = installGlobalErrorHandlers(window, async (reports) => {
      sent.push(reports);
    });
    reportError(new Error('one'), 'error');
    reportError(new Error('two'), 'boundary', 'component');
    await vi.advanceTimersByTimeAsync(ERROR_FLUSH_DELAY_MS - 1);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    uninstall();
    expect(sent.map((batch) => batch.map((r) => [r.message, r.source, r.level]))).toEqual([
      [
        ['one', 'error', undefined],
        ['two', 'boundary', 'component'],
      ],
    ]);
    expect(getQueuedErrors()).toHaveLength(0);
  });

  it('puts the reports back when the send fails, still at most 50', async () => {
    for (let i = 0; i < 30; i++) reportError(new Error(`old${i}`), 'error');
    expect(
      await flushErrorReports(async () => {
        for (let i = 0; i < 30; i++) reportError(new Error(`new${i}`), 'error');
        throw new Error('offline');
      }),
    ).toBe(0);
    const queued = getQueuedErrors();
    expect(queued).toHaveLength(ERROR_QUEUE_MAX);
    expect(queued.at(-1)?.message).toBe('new29');
  });

  it('POSTs to /api/v1/client-errors with the backend token when signed in', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return { ok: true, status: 202 } as Response;
    });
    localStorage.setItem('backend_jwt', 'jwt-1');
    reportError(Object.assign(new Error('m'.repeat(3000)), { stack: 's' }), 'error');
    expect(await flushErrorReports(postErrorReports)).toBe(1);
    expect(calls[0]?.url).toBe('/api/v1/client-errors');
    expect(calls[0]?.init.method).toBe('POST');
    expect((calls[0]?.init.headers as Record<string, string> | undefined)?.Authorization).toBe('Bearer jwt-1');
    const body = JSON.parse(String(calls[0]?.init.body)) as { reports: Array<{ message: string; stack: string }> };
    expect(body.reports[0]?.message).toHaveLength(2000);
    expect(body.reports[0]?.stack).toBe('s');
  });
});
