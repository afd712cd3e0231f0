import { beforeEach, describe, expect, it } from 'vitest';
import {
  drainErrorQueue,
  ERROR_QUEUE_MAX,
  getQueuedErrors,
  installGlobalErrorHandlers,
  reportError,
} from './error-reporting';

beforeEach(() => {
  drainErrorQueue();
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
    const uninstall = installGlobalErrorHandlers(window);
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
});
