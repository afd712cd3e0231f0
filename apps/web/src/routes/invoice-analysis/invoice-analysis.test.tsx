import { type Invoice, lastTwelveMonths } from '@invoicebox/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setActiveJobId } from '../../features/jobs/active-job-store';
import { mockFetch, renderAt } from '../../test/render';
import { InvoiceAnalysisRoute } from './invoice-analysis';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

/** An empty mailbox by default; total_emails makes the likely-invoices banner appear. */
function serve({
  totalEmails = 0,
  syncStatus = 200,
  scope = 'current',
  invoices = [],
}: {
  totalEmails?: number;
  syncStatus?: number;
  scope?: 'current' | 'all';
  invoices?: Invoice[];
} = {}) {
  const server = mockFetch((url, init) => {
    if (url.pathname === '/api/v1/gmail/accounts') {
      const account = {
        userId: 'a1',
        email: 'me@example.com',
        displayName: 'Me',
        isActive: true,
        isPrimary: true,
        lastSync: null,
        provider: 'imap',
        needsReauth: false,
        reauthReason: null,
      };
      return {
        body: {
          accounts: [account],
          session: {
            connectedAccounts: [account],
            selectedScope: scope,
            selectedUserIds: [],
            primaryUserId: 'a1',
            activeUserId: 'a1',
          },
        },
      };
    }
    if (url.pathname === '/api/v1/invoices/export') return { status: 500, body: { error: 'down' } };
    if (url.pathname === '/api/v1/invoices') {
      return { body: { invoices, total: invoices.length, total_emails: totalEmails } };
    }
    if (url.pathname.startsWith('/api/v1/sync/') && init?.method === 'POST') {
      return syncStatus === 200 ? { body: { job_id: 'job-1', status: 'pending' } } : { status: syncStatus, body: {} };
    }
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

const invoice = (n: number, vendor: string | null): Invoice => ({
  id: `33333333-3333-4333-8333-00000000000${n}`,
  vendor,
  email: `billing${n}@vendor.example`,
  amount: '$10.00',
  amount_minor: 1000,
  currency: 'USD',
  invoice_date: '2026-02-01',
  invoice_number: null,
  status: 'pending',
  drive_file_id: null,
  category: 'Invoice',
  details: null,
  frequency: 'One-time',
  drive_error: null,
  attachments: [],
});

const invoiceQueries = (server: ReturnType<typeof serve>) =>
  server.calls.filter((c) => c.url.pathname === '/api/v1/invoices').map((c) => c.url.searchParams);

beforeEach(() => {
  localStorage.clear();
  toast.success.mockReset();
  toast.error.mockReset();
});

afterEach(() => {
  setActiveJobId(null);
  vi.unstubAllGlobals();
});

describe('Invoice Analysis (spec §2)', () => {
  it("has the heading, the three action cards, and says 'No invoices found' on an empty mailbox", async () => {
    serve();
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    expect(screen.getByRole('heading', { name: 'Invoice Analysis' })).toBeInTheDocument();
    for (const title of ['Gmail Sync', 'Drive Upload', 'Full Sync'])
      expect(screen.getByText(title)).toBeInTheDocument();
    expect(await screen.findByText('No invoices found')).toBeInTheDocument();
    expect(screen.queryByText('Clear Filters')).toBeNull();
  });

  it("offers the last 12 months as YYYY-MM with the label 'Month Year', and 'Has Attachments' on by default", async () => {
    const server = serve();
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    const month = screen.getByLabelText('Month') as HTMLSelectElement;
    const options = [...month.options].filter((o) => o.value !== '');
    expect(options).toHaveLength(12);
    const expected = lastTwelveMonths(new Date());
    expect(options.map((o) => o.value)).toEqual(expected.map((m) => m.value));
    expect(options[0]?.value).toMatch(/^\d{4}-\d{2}$/);
    const now = new Date();
    expect(options.map((o) => o.textContent)).toContain(
      now.toLocaleDateString('en-US', { month: 'long', year: 'numeric' }),
    );
    expect(screen.getByRole('checkbox', { name: 'Has Attachments' })).toBeChecked();
    await waitFor(() => expect(invoiceQueries(server)[0]?.get('has_attachments')).toBe('true'));
  });

  it("searches only on Enter, then shows Clear Filters, '{n} invoices found' and 'No invoices match your filters'", async () => {
    const user = userEvent.setup();
    const server = serve();
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    await screen.findByText('No invoices found');
    const search = screen.getByLabelText('Search');
    await user.type(search, 'acme');
    expect(invoiceQueries(server).some((q) => q.has('search'))).toBe(false);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(invoiceQueries(server).at(-1)?.get('search')).toBe('acme'));
    expect(await screen.findByText('No invoices match your filters')).toBeInTheDocument();
    expect(screen.getByText('0 invoices found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(await screen.findByText('No invoices found')).toBeInTheDocument();
    expect(screen.queryByText('0 invoices found')).toBeNull();
  });

  it("filters the documents by type (All, 'Invoices & receipts', 'Other documents'), all listed by default", async () => {
    const user = userEvent.setup();
    const server = serve({ invoices: [{ ...invoice(1, 'Kontor'), document_type: 'order_confirmation' }] });
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    expect(await screen.findByText('Order confirmation')).toBeInTheDocument();
    expect(invoiceQueries(server)[0]?.has('document_type')).toBe(false);
    const documents = screen.getByLabelText('Documents') as HTMLSelectElement;
    expect([...documents.options].map((o) => o.textContent)).toEqual(['All', 'Invoices & receipts', 'Other documents']);
    await user.selectOptions(documents, 'other');
    await waitFor(() => expect(invoiceQueries(server).at(-1)?.get('document_type')).toBe('other'));
    await user.selectOptions(documents, 'financial');
    await waitFor(() => expect(invoiceQueries(server).at(-1)?.get('document_type')).toBe('financial'));
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(invoiceQueries(server).at(-1)?.has('document_type')).toBe(false));
  });

  it('says how many likely invoices out of how many emails are shown', async () => {
    serve({ totalEmails: 150 });
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    expect(
      await screen.findByText(
        'Showing 0 likely invoices out of 150 total emails. Non-invoice emails (newsletters, confirmations, etc.) have been filtered out.',
      ),
    ).toBeInTheDocument();
  });

  it.each([
    ['Sync Gmail', 'Failed to start Gmail sync'],
    ['Upload to Drive', 'Failed to start Drive upload'],
    ['Run Full Sync', 'Failed to start full sync'],
  ])('toasts the spec message when %s cannot start', async (button, message) => {
    const user = userEvent.setup();
    serve({ syncStatus: 500 });
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    await user.click(screen.getByRole('button', { name: button }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
  });

  it('disables the three sync buttons while a job is active', async () => {
    const user = userEvent.setup();
    serve();
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    const buttons = ['Sync Gmail', 'Upload to Drive', 'Run Full Sync'].map((name) =>
      screen.getByRole('button', { name }),
    );
    for (const b of buttons) expect(b).toBeEnabled();
    await user.click(buttons[0]!);
    await waitFor(() => {
      for (const b of buttons) expect(b).toBeDisabled();
    });
    expect(localStorage.getItem('active_job_id')).toContain('job-1');
  });

  it('shows a banner when viewing all accounts, and none for one account', async () => {
    serve({ scope: 'all' });
    const { unmount } = renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    expect(await screen.findByText('Showing invoices from all your connected accounts.')).toBeInTheDocument();
    unmount();
    serve({ scope: 'current' });
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    await screen.findByText('No invoices found');
    expect(screen.queryByText('Showing invoices from all your connected accounts.')).toBeNull();
  });

  it("toasts 'Export failed' when an export cannot be downloaded", async () => {
    const user = userEvent.setup();
    serve();
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Export failed'));
  });

  it('shows a loading state, then lists the distinct vendors of the results, sorted, in the Vendor filter', async () => {
    serve({
      invoices: [
        invoice(1, 'Zeta Ltd'),
        invoice(2, 'Alpha GmbH'),
        invoice(3, 'Mid SA'),
        invoice(4, 'Alpha GmbH'),
        invoice(5, null),
      ],
    });
    renderAt(<InvoiceAnalysisRoute />, '/invoice-analysis');
    expect(screen.getByText('Loading invoices…')).toBeInTheDocument();
    await screen.findByText('Zeta Ltd', { selector: 'h3' });
    const vendor = screen.getByLabelText('Vendor') as HTMLSelectElement;
    expect([...vendor.options].filter((o) => o.value !== '').map((o) => o.value)).toEqual([
      'Alpha GmbH',
      'Mid SA',
      'Zeta Ltd',
    ]);
    expect(screen.queryByText('Loading invoices…')).toBeNull();
  });
});
