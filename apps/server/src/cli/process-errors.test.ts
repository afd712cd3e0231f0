import { describe, expect, it, vi } from 'vitest';
import { createProcessErrorPolicy, installProcessErrorPolicy } from './process-errors';

function harness(stop: () => Promise<void> = async () => {}) {
  const logger = { warn: vi.fn(), fatal: vi.fn() };
  const exit = vi.fn();
  const stopSpy = vi.fn(stop);
  const policy = createProcessErrorPolicy({ logger: logger as never, stop: stopSpy, exit, stopTimeoutMs: 200 });
  return { policy, logger, exit, stop: stopSpy };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the process error policy of start and worker', () => {
  it('logs a dropped or refused database connection and keeps serving', async () => {
    const h = harness();
    const wrapped = new Error('Failed query: update pgboss.job ...', { cause: refused() });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const aggregate = Object.assign(new AggregateError([refused(), refused()], ''), { code: 'ECONNREFUSED' });
    for (const error of [refused(), wrapped, shutdown, aggregate, new Error('Connection terminated unexpectedly')]) {
      expect(await h.policy.handle(error, 'unhandledRejection')).toBe('survived');
    }
    expect(await h.policy.handle(refused(), 'uncaughtException')).toBe('survived');
    expect(h.logger.warn).toHaveBeenCalledTimes(6);
    expect(h.stop).not.toHaveBeenCalled();
    expect(h.exit).not.toHaveBeenCalled();
  });

  it('stops gracefully and exits 1 on anything else, saying why', async () => {
    const h = harness();
    expect(await h.policy.handle(new TypeError('x is not a function'), 'uncaughtException')).toBe('exited');
    expect(h.stop).toHaveBeenCalledTimes(1);
    expect(h.exit).toHaveBeenCalledWith(1);
    expect(h.logger.fatal.mock.calls[0]?.[1]).toMatch(/x is not a function.*exit code 1/);
    // A non-Error rejection and a failed query that is not about the connection are not survivable either.
    const other = harness();
    expect(await other.policy.handle('a string', 'unhandledRejection')).toBe('exited');
    const query = harness();
    const dup = new Error('Failed query: insert', {
      cause: Object.assign(new Error('duplicate key'), { code: '23505' }),
    });
    expect(await query.policy.handle(dup, 'unhandledRejection')).toBe('exited');
  });

  it('exits even when the stop hangs, and at once on a second fatal error while stopping', async () => {
    const h = harness(() => new Promise(() => {}));
    const first = h.policy.handle(new Error('bug'), 'uncaughtException');
    expect(await h.policy.handle(new Error('another bug'), 'unhandledRejection')).toBe('exited');
    expect(h.exit).toHaveBeenCalledTimes(1);
    expect(await first).toBe('exited');
    expect(h.exit).toHaveBeenCalledTimes(2);
    expect(h.exit).toHaveBeenLastCalledWith(1);
  });

  it('catches a real unhandled rejection of a refused connection without ending the process', async () => {
    const logger = { warn: vi.fn(), fatal: vi.fn() };
    const exit = vi.fn();
    const remove = installProcessErrorPolicy({ logger: logger as never, stop: async () => {}, exit });
    try {
      void Promise.reject(refused());
      await new Promise((r) => setTimeout(r, 20));
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(exit).not.toHaveBeenCalled();
    } finally {
      remove();
    }
  });
});
