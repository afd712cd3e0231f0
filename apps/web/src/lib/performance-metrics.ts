/**
 * Spec §9 "Performance metrics kept: at most 100": what this browser measured of the app — the page load (time to
 * first byte, DOM ready, load), first and largest contentful paint, and every API call's duration — kept in memory,
 * newest last, the oldest dropped beyond 100 so a long session cannot grow it. Like the error queue of §8 the spec
 * names no destination: they stay in the tab (read with getPerformanceMetrics, e.g. from the console through
 * `window.invoicebox.metrics()`), and nothing is sent.
 */
export const PERFORMANCE_METRICS_MAX = 100;

export interface PerformanceMetric {
  /** What was measured: 'ttfb', 'dom-content-loaded', 'load', 'first-contentful-paint', 'largest-contentful-paint', 'api'. */
  name: string;
  /** Milliseconds, rounded to 0.1. */
  value: number;
  /** For 'api': the method and path (never the query, which may carry search words), and the status (0: no answer). */
  detail?: string;
  at: string;
}

const metrics: PerformanceMetric[] = [];

export function recordMetric(name: string, value: number, detail?: string): void {
  if (!Number.isFinite(value) || value < 0) return;
  metrics.push({
    name,
    value: Math.round(value * 10) / 10,
    ...(detail ? { detail } : {}),
    at: new Date().toISOString(),
  });
  if (metrics.length > PERFORMANCE_METRICS_MAX) metrics.splice(0, metrics.length - PERFORMANCE_METRICS_MAX);
}

export function getPerformanceMetrics(): readonly PerformanceMetric[] {
  return [...metrics];
}

export function clearPerformanceMetrics(): void {
  metrics.length = 0;
}

/** A monotonic clock for the API client's timings (performance.now where there is one). */
export const now = (): number => (typeof performance === 'undefined' ? Date.now() : performance.now());

type ObserverConstructor = typeof PerformanceObserver;

/**
 * Records the page-load entries the browser reports (buffered, so entries from before the call count too). Where the
 * browser has no PerformanceObserver, or not one of the entry types, that part is left out.
 */
export function installPerformanceObservers(
  Observer: ObserverConstructor | null = globalThis.PerformanceObserver ?? null,
): () => void {
  if (typeof Observer !== 'function') return () => {};
  const observers: PerformanceObserver[] = [];
  const observe = (type: string, onEntry: (entry: PerformanceEntry) => void) => {
    if (Observer.supportedEntryTypes && !Observer.supportedEntryTypes.includes(type)) return;
    try {
      const observer = new Observer((list) => {
        for (const entry of list.getEntries()) onEntry(entry);
      });
      observer.observe({ type, buffered: true });
      observers.push(observer);
    } catch {
      // An entry type this browser does not know: nothing to record.
    }
  };
  observe('navigation', (entry) => {
    const nav = entry as PerformanceNavigationTiming;
    recordMetric('ttfb', nav.responseStart - nav.startTime);
    recordMetric('dom-content-loaded', nav.domContentLoadedEventEnd - nav.startTime);
    if (nav.loadEventEnd > 0) recordMetric('load', nav.loadEventEnd - nav.startTime);
  });
  observe('paint', (entry) => {
    if (entry.name === 'first-contentful-paint') recordMetric('first-contentful-paint', entry.startTime);
  });
  // Reported again each time a larger element paints; the last one is the page's LCP.
  observe('largest-contentful-paint', (entry) => recordMetric('largest-contentful-paint', entry.startTime));
  return () => {
    for (const observer of observers) observer.disconnect();
  };
}
