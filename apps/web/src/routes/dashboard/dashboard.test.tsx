import type { BankStatement } from '@invoicebox/core';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { DashboardRoute } from './dashboard';

const row = (i: number, status: string): BankStatement => ({
  id: `11111111-1111-4111-8111-00000000000${i}`,
  filename: `statement-${i}.pdf`,
  upload_date: `2026-03-0${i}T09:15:00.000Z`,
  status: status as BankStatement['status'],
  format: 'pdf',
  bank_name: null,
  account_number: null,
  start_date: null,
  end_date: null,
  currency: null,
  opening_balance: null,
  closing_balance: null,
  job_id: null,
  error: null,
  warnings: [],
  total_transactions: 0,
  matched_transactions: 0,
});

function serve(statements: BankStatement[], total: number) {
  const server = mockFetch((url) => {
    if (url.pathname === '/api/v1/bank-statements') return { body: { statements, total } };
    if (url.pathname === '/api/v1/bank-statements/summary') {
      return {
        body: {
          total_statements: total,
          processed: 0,
          pending: 0,
          failed: 0,
          total_transactions: 0,
          matched_transactions: 0,
          unmatched_transactions: 0,
          last_upload_date: null,
        },
      };
    }
    if (url.pathname === '/api/v1/invoices') return { body: { invoices: [], total: 0, total_emails: 0 } };
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Dashboard bank statements (spec §2)', () => {
  it('counts the statements and lists the first 5 with filename, upload date and status', async () => {
    const server = serve([row(1, 'processed'), row(2, 'pending'), row(3, 'failed')], 7);
    renderAt(<DashboardRoute />, '/dashboard');
    const list = await screen.findByRole('list', { name: 'Recent bank statements' });
    expect(server.calls.find((c) => c.url.pathname === '/api/v1/bank-statements')?.url.search).toBe(
      '?limit=5&offset=0',
    );
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('statement-1.pdf');
    expect(rows[0]).toHaveTextContent(new Date('2026-03-01T09:15:00.000Z').toLocaleDateString());
    expect(rows[0]).toHaveTextContent('Processed');
    expect(rows[1]).toHaveTextContent('Pending');
    expect(rows[2]).toHaveTextContent('Failed');
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toMatch(/^\/bank-analysis/);
    const stat = screen.getByText('Bank Statements', { selector: 'p' }).parentElement;
    expect(await within(stat!).findByText('7')).toBeInTheDocument();
  });

  it("says 'No bank statements uploaded yet' when there are none", async () => {
    serve([], 0);
    renderAt(<DashboardRoute />, '/dashboard');
    expect(await screen.findByText('No bank statements uploaded yet')).toBeInTheDocument();
  });
});
