import type { Job } from '@invoicebox/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { HistoryRoute } from './history';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const base = { error: null, started_at: null, finished_at: null } as const;
const JOBS: Job[] = [
  {
    ...base,
    id: 'a',
    type: 'full_sync',
    status: 'running',
    progress: 40,
    message: 'Scanning mailbox',
    created_at: '2026-03-04T09:15:00.000Z',
  },
  {
    ...base,
    id: 'b',
    type: 'gmail_sync',
    status: 'completed',
    progress: 0,
    message: null,
    created_at: '2026-03-03T08:00:00.000Z',
  },
];

function serve(initial: Job[], clearStatus = 200) {
  let jobs = initial;
  const server = mockFetch((url, init) => {
    if (url.pathname === '/api/v1/jobs' && (init?.method ?? 'GET') === 'GET') return { body: { jobs } };
    if (url.pathname === '/api/v1/jobs/clear-all' && init?.method === 'DELETE') {
      if (clearStatus !== 200) return { status: clearStatus, body: { error: 'nope' } };
      const deleted = jobs.length;
      jobs = [];
      return { body: { deleted } };
    }
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

afterEach(() => {
  vi.unstubAllGlobals();
  toast.success.mockReset();
  toast.error.mockReset();
});

describe('History', () => {
  it('lists the last 20 jobs with label, date, progress, status and message', async () => {
    const server = serve(JOBS);
    renderAt(<HistoryRoute />, '/history');
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(server.calls[0]?.url.search).toBe('?limit=20');
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Full Sync');
    expect(rows[0]).toHaveTextContent('40% complete');
    expect(rows[0]).toHaveTextContent('Running');
    expect(rows[0]).toHaveTextContent('Scanning mailbox');
    expect(rows[0]).toHaveTextContent(new Date(JOBS[0]!.created_at).toLocaleDateString());
    expect(rows[1]).toHaveTextContent('Gmail Sync');
    expect(rows[1]).toHaveTextContent('Completed');
    expect(rows[1]).not.toHaveTextContent('% complete');
  });

  it('disables Clear All when there is no activity', async () => {
    serve([]);
    renderAt(<HistoryRoute />, '/history');
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear All' })).toBeDisabled();
  });

  it('clears all activity after confirmation', async () => {
    const server = serve(JOBS);
    const user = userEvent.setup();
    renderAt(<HistoryRoute />, '/history');
    await screen.findByRole('list', { name: 'Activity' });

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    let dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('This action cannot be undone...'.replace('...', '.'));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls.some((c) => c.init?.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('All activity logs cleared successfully'));
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
  });

  it('toasts when clearing fails', async () => {
    serve(JOBS, 500);
    const user = userEvent.setup();
    renderAt(<HistoryRoute />, '/history');
    await screen.findByRole('list', { name: 'Activity' });
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to clear activity logs'));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('has a Bank Statements tab with an empty list and a disabled Clear All', async () => {
    serve(JOBS);
    const user = userEvent.setup();
    renderAt(<HistoryRoute />, '/history');
    expect(screen.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Bank Statements' }));
    expect(screen.getByRole('tab', { name: 'Bank Statements' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('No bank statements uploaded yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear All' })).toBeDisabled();
  });
});
