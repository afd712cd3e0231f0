import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { mockFetch } from '../test/render';
import { api } from './api-client';
import {
  clearPerformanceMetrics,
  getPerformanceMetrics,
  installPerformanceObservers,
  PERFORMANCE_METRICS_MAX,
  recordMetric,
} from './performance-metrics';

beforeEach(() => clearPerformanceMetrics());
afterEach(() => vi.unstubAllGlobals());

describe('performance metrics (spec §9: kept, at most 100)', () => {
  it('keeps the newest 100 and drops the oldest', () => {
    expect(PERFORMANCE_METRICS_MAX).toBe(100);
    for (let i = 0; i < 150; i++) recordMetric('api', i, `GET /n/${i} 200`);
    const kept = getPerformanceMetrics();
    expect(kept).toHaveLength(100);
    expect(kept[0]?.detail).toBe('GET /n/50 200');
    expect(kept.at(-1)?.detail).toBe('GET /n/149 200');
  });

  it('ignores values that are not a duration', () => {
    recordMetric('load', Number.NaN);
    recordMetric('load', -1);
    recordMetric('load', 12.345);
    expect(getPerformanceMetrics().map((m) => m.value)).toEqual([12.3]);
  });

  it('times every API call with its method, path (no query) and status, failures included', async () => {
    const server = mockFetch((url) =>
      url.pathname === '/api/v1/invoices' ? { body: { ok: true } } : { status: 500, body: { error: 'down' } },
    );
    vi.stubGlobal('fetch', server.fn);
    await api.get('/invoices', { schema: z.unknown(), query: { search: 'private words' }, auth: false });
    await expect(api.post('/sync/full', { schema: z.unknown(), auth: false })).rejects.toThrow('down');
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    await expect(api.get('/jobs', { schema: z.unknown(), auth: false })).rejects.toThrow('Network error');
    const kept = getPerformanceMetrics();
    expect(kept.map((m) => [m.name, m.detail])).toEqual([
      ['api', 'GET /invoices 200'],
      ['api', 'POST /sync/full 500'],
      ['api', 'GET /jobs 0'],
    ]);
    expect(JSON.stringify(kept)).not.toContain('private');
    for (const m of kept) expect(m.value).toBeGreaterThanOrEqual(0);
  });

  it('records the page load and paints the browser reports, within the same cap', () => {
    const observed: string[] = [];
    class FakeObserver {
      static supportedEntryTypes = ['navigation', 'paint', 'largest-contentful-paint'];
      constructor(private readonly callback: (list: { getEntries: () => PerformanceEntry[] }) => void) {}
      observe({ type }: { type: string }) {
        observed.push(type);
        const entries: Record<string, unknown[]> = {
          navigation: [{ startTime: 0, responseStart: 80, domContentLoadedEventEnd: 300, loadEventEnd: 420 }],
          paint: [
            { name: 'first-paint', startTime: 150 },
            { name: 'first-contentful-paint', startTime: 180 },
          ],
          'largest-contentful-paint': Array.from({ length: 120 }, (_, i) => ({ startTime: 200 + i })),
        };
        this.callback({ getEntries: () => (entries[type] ?? []) as PerformanceEntry[] });
      }
      disconnect() {}
    }
    const stop = installPerformanceObservers(FakeObserver as unknown as typeof PerformanceObserver);
    stop();
    expect(observed).toEqual(['navigation', 'paint', 'largest-contentful-paint']);
    const kept = getPerformanceMetrics();
    expect(kept).toHaveLength(100);
    // 4 page-load figures + 120 LCP reports: the newest 100 (all LCP) remain.
    expect(kept.every((m) => m.name === 'largest-contentful-paint')).toBe(true);
    expect(kept.at(-1)?.value).toBe(319);

    clearPerformanceMetrics();
    const stopAgain = installPerformanceObservers(
      class extends FakeObserver {
        static override supportedEntryTypes = ['navigation', 'paint'];
      } as unknown as typeof PerformanceObserver,
    );
    stopAgain();
    expect(getPerformanceMetrics().map((m) => [m.name, m.value])).toEqual([
      ['ttfb', 80],
      ['dom-content-loaded', 300],
      ['load', 420],
      ['first-contentful-paint', 180],
    ]);
  });

  it('does nothing where the browser has no PerformanceObserver', () => {
    expect(() => installPerformanceObservers(null)()).not.toThrow();
    expect(getPerformanceMetrics()).toHaveLength(0);
  });
});
