import type { BankStatement, Job } from '@invoicebox/core';
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

const STATEMENT: BankStatement = {
  id: '11111111-1111-4111-8111-111111111111',
  filename: 'march.pdf',
  upload_date: '2026-03-04T09:15:00.000Z',
  status: 'processed',
  format: 'pdf',
  bank_name: 'Demo Bank',
  account_number: 'DE89 3704 0044 0532 0130 00',
  start_date: '2026-03-01',
  end_date: '2026-03-31',
  currency: 'EUR',
  opening_balance: '1000.00',
  closing_balance: '900.00',
  job_id: null,
  error: null,
  warnings: [],
  total_transactions: 3,
  matched_transactions: 1,
};

function serve(initial: Job[], clearStatus = 200, initialStatements: BankStatement[] = []) {
  let jobs = initial;
  let statements = initialStatements;
  const server = mockFetch((url, init) => {
    if (url.pathname === '/api/v1/bank-statements' && (init?.method ?? 'GET') === 'GET') {
      return { body: { statements, total: statements.length } };
    }
    if (url.pathname === '/api/v1/bank-statements/clear-all' && init?.method === 'DELETE') {
      if (clearStatus !== 200) return { status: clearStatus, body: { error: 'nope' } };
      const deleted = statements.length;
      statements = [];
      return { body: { deleted } };
    }
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
    expect(await screen.findByText('No bank statements uploaded yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear All' })).toBeDisabled();
  });

  it('lists bank statements 20 per page with date, time, bank, status and the masked account; a row opens it', async () => {
    const failed = {
      ...STATEMENT,
      id: '22222222-2222-4222-8222-222222222222',
      filename: 'feb.csv',
      status: 'failed' as const,
      bank_name: null,
      account_number: '1234567',
    };
    const server = serve([], 200, [STATEMENT, failed]);
    const user = userEvent.setup();
    renderAt(<HistoryRoute />, '/history');
    await user.click(screen.getByRole('tab', { name: 'Bank Statements' }));
    const list = await screen.findByRole('list', { name: 'Bank statements' });
    const call = server.calls.find((c) => c.url.pathname === '/api/v1/bank-statements');
    expect(call?.url.search).toBe('?limit=20&offset=0');
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const uploaded = new Date(STATEMENT.upload_date);
    expect(rows[0]).toHaveTextContent('march.pdf');
    expect(rows[0]).toHaveTextContent(`${uploaded.toLocaleDateString()} ${uploaded.toLocaleTimeString()}`);
    expect(rows[0]).toHaveTextContent('Demo Bank');
    expect(rows[0]).toHaveTextContent('***3000');
    expect(rows[0]).not.toHaveTextContent('3704');
    expect(rows[0]).toHaveTextContent('Processed');
    expect(rows[1]).toHaveTextContent('***4567');
    expect(rows[1]).toHaveTextContent('Failed');
    expect(within(rows[0]!).getByRole('link')).toHaveAttribute('href', `/bank-analysis?statement=${STATEMENT.id}`);
  });

  it('clears the bank statement history after confirmation', async () => {
    serve([], 200, [STATEMENT]);
    const user = userEvent.setup();
    renderAt(<HistoryRoute />, '/history');
    await user.click(screen.getByRole('tab', { name: 'Bank Statements' }));
    await screen.findByRole('list', { name: 'Bank statements' });
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('This action cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('All bank statement history cleared successfully'));
    expect(await screen.findByText('No bank statements uploaded yet')).toBeInTheDocument();
  });

  it('toasts when clearing the bank statement history fails', async () => {
    serve([], 500, [STATEMENT]);
    const user = userEvent.setup();
    renderAt(<HistoryRoute />, '/history');
    await user.click(screen.getByRole('tab', { name: 'Bank Statements' }));
    await screen.findByRole('list', { name: 'Bank statements' });
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to clear bank statement history'));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});
