/**
 * Spec §8: global unhandled errors are queued (at most 50) for reporting. Where the reports go is not
 * specified yet, so the queue is only kept in memory and readable for a later sender.
 */
export const ERROR_QUEUE_MAX = 50;

export interface ErrorReport {
  message: string;
  stack: string | undefined;
  source: 'error' | 'unhandledrejection' | 'boundary';
  level?: 'component' | 'page' | 'critical';
  url: string;
  at: string;
}

const queue: ErrorReport[] = [];

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
    url: typeof window === 'undefined' ? '' : window.location.href,
    at: new Date().toISOString(),
  };
  queue.push(report);
  // The oldest reports give way: the newest ones say most about the current state.
  if (queue.length > ERROR_QUEUE_MAX) queue.splice(0, queue.length - ERROR_QUEUE_MAX);
  return report;
}

export function getQueuedErrors(): readonly ErrorReport[] {
  return [...queue];
}

/** Hands the queued reports to a sender and empties the queue. */
export function drainErrorQueue(): ErrorReport[] {
  return queue.splice(0, queue.length);
}

export function installGlobalErrorHandlers(target: Window = window): () => void {
  const onError = (event: ErrorEvent) => reportError(event.error ?? event.message, 'error');
  const onRejection = (event: PromiseRejectionEvent) => reportError(event.reason, 'unhandledrejection');
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
