import { CLIENT_ERROR_QUEUE_MAX } from '@invoicebox/core';
import { readStorage, STORAGE_KEYS } from './storage-keys';

/**
 * Spec §8: global unhandled errors are queued (at most 50) for reporting. The queue is sent to POST
 * /api/v1/client-errors, which stores the reports for the operator (with the sender's id when signed in).
 */
export const ERROR_QUEUE_MAX = CLIENT_ERROR_QUEUE_MAX;
/** Errors come in bursts: one request for a burst, well under the server's per-address rate limit. */
export const ERROR_FLUSH_DELAY_MS = 10_000;
export const ERROR_REPORT_URL = '/api/v1/client-errors';

export interface ErrorReport {
  message: string;
  stack: string | undefined;
  source: 'error' | 'unhandledrejection' | 'boundary';
  level?: 'component' | 'page' | 'critical';
  url: string;
  at: string;
}

const queue: ErrorReport[] = [];
/** Set while global handlers with a sender are installed: schedules the send of a new report. */
let onQueued: (() => void) | undefined;

function toMessage(value: unknown): { message: string; stack: string | undefined } {
  if (value instanceof Error) return { message: value.message, stack: value.stack };
  if (typeof value === 'string') return { message: value, stack: undefined };
  try {
    return { message: JSON.stringify(value) ?? String(value), stack: undefined };
  } catch {
    return { message: String(value), stack: undefined };
  }
}

export function reportError(error: unknown, source: ErrorReport['source'], level?: ErrorReport['level']): ErrorReport {
  const { message, stack } = toMessage(error);
  const report: ErrorReport = {
    message,
    stack,
    source,
    level,
    url: typeof window === 'undefined' ? '' : pageAddress(window.location),
    at: new Date().toISOString(),
  };
  queue.push(report);
  // The oldest reports give way: the newest ones say most about the current state.
  if (queue.length > ERROR_QUEUE_MAX) queue.splice(0, queue.length - ERROR_QUEUE_MAX);
  onQueued?.();
  return report;
}

/** The page without its query and fragment: the OAuth callback carries tokens there, and they must not be stored. */
function pageAddress(location: Location): string {
  return `${location.origin}${location.pathname}`;
}

export function getQueuedErrors(): readonly ErrorReport[] {
  return [...queue];
}

/** Hands the queued reports to a sender and empties the queue. */
export function drainErrorQueue(): ErrorReport[] {
  return queue.splice(0, queue.length);
}

export type ErrorReportSender = (reports: ErrorReport[]) => Promise<void>;

/** POSTs the reports with the backend token when there is one; never through the API client, whose 401 rules act. */
export const postErrorReports: ErrorReportSender = async (reports) => {
  const token = readStorage(STORAGE_KEYS.backendJwt);
  const response = await fetch(ERROR_REPORT_URL, {
    method: 'POST',
    // Survives the page being closed right after the error.
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({
      reports: reports.map((r) => ({
        message: r.message.slice(0, 2000),
        ...(r.stack ? { stack: r.stack.slice(0, 8000) } : {}),
        source: r.source,
        ...(r.level ? { level: r.level } : {}),
        url: r.url.slice(0, 2000),
        at: r.at,
      })),
    }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
};

/**
 * Sends what is queued. A failed send puts the reports back (still at most 50) for the next try and reports
 * nothing itself, so an unreachable server cannot start a loop.
 */
export async function flushErrorReports(send: ErrorReportSender = postErrorReports): Promise<number> {
  const reports = drainErrorQueue();
  if (reports.length === 0) return 0;
  try {
    await send(reports);
    return reports.length;
  } catch {
    queue.unshift(...reports);
    if (queue.length > ERROR_QUEUE_MAX) queue.splice(0, queue.length - ERROR_QUEUE_MAX);
    return 0;
  }
}

/**
 * Queues global errors and unhandled rejections, and with a sender sends them ERROR_FLUSH_DELAY_MS after the first
 * of a burst and when the page is hidden.
 */
export function installGlobalErrorHandlers(
  target: Window = window,
  send: ErrorReportSender | null = postErrorReports,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (send) void flushErrorReports(send);
  };
  const onError = (event: ErrorEvent) => reportError(event.error ?? event.message, 'error');
  const onRejection = (event: PromiseRejectionEvent) => reportError(event.reason, 'unhandledrejection');
  if (send) {
    onQueued = () => {
      timer ??= setTimeout(flush, ERROR_FLUSH_DELAY_MS);
    };
    target.addEventListener('pagehide', flush);
  }
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    onQueued = undefined;
    target.removeEventListener('pagehide', flush);
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
