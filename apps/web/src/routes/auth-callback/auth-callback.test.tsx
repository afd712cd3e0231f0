import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render';
import { AuthCallbackRoute } from './auth-callback';

// The steps and the timing of spec §4's OAuth callback, on fake timers: the server calls are stand-ins whose
// answers the test releases, so each screen can be looked at while it is the current one.
const calls = vi.hoisted(() => ({
  redeem: vi.fn(),
  accept: vi.fn(),
  post: vi.fn(),
  get: vi.fn(),
}));
vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() }, Toaster: () => null }));
vi.mock('../../features/auth/api/auth-api', () => ({ redeemCode: calls.redeem, startOidc: vi.fn() }));
vi.mock('../../lib/auth-session', () => ({ acceptSession: calls.accept }));
vi.mock('../../lib/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/api-client')>()),
  api: { post: calls.post, get: calls.get },
}));

const runningJob = { id: 'job-1', type: 'full_sync', status: 'running', progress: 10 };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Lets the awaited stand-ins settle without moving the clock. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0));
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
  window.history.replaceState(null, '', '/auth/callback?code=c1');
  calls.accept.mockResolvedValue(undefined);
  calls.post.mockResolvedValue({ job_id: 'job-1', status: 'pending' });
});

afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('OAuth callback steps and polling (spec §4, §9)', () => {
  it('shows loading while the code is redeemed, then syncing while the first sync runs', async () => {
    const redeemed = deferred<unknown>();
    calls.redeem.mockReturnValue(redeemed.promise);
    const job = deferred<unknown>();
    calls.get.mockReturnValue(job.promise);
    renderAt(<AuthCallbackRoute />, '/auth/callback?code=c1');
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('Completing sign-in…');
    expect(screen.getByText('Connecting your account to Invoicebox.')).toBeInTheDocument();
    expect(calls.redeem).toHaveBeenCalledWith('c1');

    redeemed.resolve({});
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent('Syncing your invoices…');
    expect(calls.post).toHaveBeenCalledWith(
      '/sync/full',
      expect.objectContaining({ query: { initial_setup: 'true' } }),
    );
    job.resolve({ ...runningJob, status: 'completed' });
    await settle();
    expect(screen.getByRole('status')).toHaveTextContent("You're all set");
  });

  it('polls the job once per second, at most 300 times, then succeeds and goes to / after 2 seconds', async () => {
    calls.redeem.mockResolvedValue({});
    calls.get.mockResolvedValue(runningJob);
    const { router } = renderAt(<AuthCallbackRoute />, '/auth/callback?code=c1');
    await settle();
    expect(calls.get).toHaveBeenCalledTimes(1);
    expect(calls.get).toHaveBeenCalledWith('/jobs/job-1', expect.anything());
    // Once per second: nothing more just before the second is up, the next poll when it is.
    await advance(999);
    expect(calls.get).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(calls.get).toHaveBeenCalledTimes(2);
    await advance(5000);
    expect(calls.get).toHaveBeenCalledTimes(7);
    expect(screen.getByRole('status')).toHaveTextContent('Syncing your invoices…');

    // A job that never ends: the 300th attempt is the last one.
    await advance(293_000);
    expect(calls.get).toHaveBeenCalledTimes(300);
    await advance(1000);
    expect(calls.get).toHaveBeenCalledTimes(300);
    expect(screen.getByRole('status')).toHaveTextContent("You're all set");
    await advance(10_000);
    expect(calls.get).toHaveBeenCalledTimes(300);

    expect(router.state.location.pathname).toBe('/');
  });

  it('stops polling when the job fails and redirects 2 seconds after success, not before', async () => {
    calls.redeem.mockResolvedValue({});
    calls.get.mockResolvedValueOnce(runningJob).mockResolvedValue({ ...runningJob, status: 'failed' });
    const { router } = renderAt(<AuthCallbackRoute />, '/auth/callback?code=c1');
    await settle();
    await advance(1000);
    expect(calls.get).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status')).toHaveTextContent("You're all set");
    await advance(1999);
    expect(router.state.location.pathname).toBe('/auth/callback');
    await advance(1);
    expect(router.state.location.pathname).toBe('/');
    expect(calls.get).toHaveBeenCalledTimes(2);
  });
});
