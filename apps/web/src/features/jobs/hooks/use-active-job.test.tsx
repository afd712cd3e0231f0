import type { Job } from '@invoicebox/core';
import { notifyManager } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { createTestQueryClient, mockFetch, TestProviders } from '../../../test/render';
import { useActiveJob } from './use-active-job';

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const JOB_ID = '6f1c2b9e-1d2a-4c3b-9a8e-000000000001';

function job(status: Job['status'], progress = 0): Job {
  return {
    id: JOB_ID,
    type: 'gmail_sync',
    status,
    progress,
    message: null,
    error: null,
    created_at: '2026-01-01T10:00:00.000Z',
    started_at: null,
    finished_at: null,
  };
}

function setup(statuses: Job['status'][]) {
  let i = 0;
  const server = mockFetch((url) => {
    if (url.pathname !== `/api/v1/jobs/${JOB_ID}`) return undefined;
    const status = statuses[Math.min(i, statuses.length - 1)] ?? 'running';
    i += 1;
    return { body: job(status, status === 'running' ? 40 : 0) };
  });
  vi.stubGlobal('fetch', server.fn);
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <TestProviders client={client}>{children}</TestProviders>;
  const hook = renderHook(() => useActiveJob(), { wrapper });
  return { server, hook, client };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
  // Query updates are batched on a 0 ms timeout by default; with faked timers that would lag one tick behind.
  notifyManager.setScheduler(queueMicrotask);
  for (const fn of Object.values(toast)) fn.mockReset();
});

afterEach(() => {
  notifyManager.setScheduler((cb) => setTimeout(cb, 0));
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useActiveJob (spec §4)', () => {
  it('does nothing without an active job', async () => {
    const { server, hook } = setup(['running']);
    await advance(5000);
    expect(server.calls).toHaveLength(0);
    expect(hook.result.current.jobId).toBeNull();
  });

  it('polls every 2 s, toasts Processing, then Completed for 5 s, and clears the job 2 s after the end', async () => {
    localStorage.setItem(STORAGE_KEYS.activeJobId, JOB_ID);
    const { server, hook } = setup(['running', 'running', 'completed']);

    await advance(0);
    expect(server.calls).toHaveLength(1);
    expect(toast.loading).toHaveBeenLastCalledWith('Gmail Sync', {
      id: JOB_ID,
      description: 'Processing',
      duration: Number.POSITIVE_INFINITY,
    });

    await advance(1999);
    expect(server.calls).toHaveLength(1);
    await advance(1);
    expect(server.calls).toHaveLength(2);
    expect(toast.success).not.toHaveBeenCalled();

    await advance(2000);
    expect(server.calls).toHaveLength(3);
    expect(toast.success).toHaveBeenCalledWith('Gmail Sync', { id: JOB_ID, description: 'Completed', duration: 5000 });
    expect(hook.result.current.job?.status).toBe('completed');

    await advance(1999);
    expect(localStorage.getItem(STORAGE_KEYS.activeJobId)).toBe(JOB_ID);
    await advance(1);
    expect(localStorage.getItem(STORAGE_KEYS.activeJobId)).toBeNull();
    expect(hook.result.current.jobId).toBeNull();

    await advance(10_000);
    expect(server.calls).toHaveLength(3);
  });

  it('asks again for what a finished job changed (invoices, accounts, drive status), not before', async () => {
    localStorage.setItem(STORAGE_KEYS.activeJobId, JOB_ID);
    const { client } = setup(['running', 'completed']);
    client.setQueryData(['invoices', 'list', {}], { invoices: [] });
    client.setQueryData(['accounts'], { accounts: [] });
    client.setQueryData(['drive-status'], { drive: {} });
    await advance(0);
    expect(client.getQueryState(['invoices', 'list', {}])?.isInvalidated).toBe(false);
    await advance(2000);
    for (const key of [['invoices', 'list', {}], ['accounts'], ['drive-status']]) {
      expect(client.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true);
    }
  });

  it('toasts Failed when the job fails', async () => {
    const { hook } = setup(['running', 'failed']);
    act(() => hook.result.current.setActiveJob(JOB_ID));
    expect(localStorage.getItem(STORAGE_KEYS.activeJobId)).toBe(JOB_ID);
    await advance(0);
    await advance(2000);
    expect(toast.error).toHaveBeenCalledWith('Gmail Sync', { id: JOB_ID, description: 'Failed', duration: 5000 });
    await advance(2000);
    expect(hook.result.current.jobId).toBeNull();
  });

  it('forgets a job the server no longer knows', async () => {
    localStorage.setItem(STORAGE_KEYS.activeJobId, 'gone');
    const { hook } = setup(['running']);
    await advance(0);
    expect(hook.result.current.jobId).toBeNull();
    expect(toast.dismiss).toHaveBeenCalledWith('gone');
  });
});
