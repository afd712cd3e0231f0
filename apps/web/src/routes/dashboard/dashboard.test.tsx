import type { BankStatement, Invoice, InvoiceStats } from '@invoicebox/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

const invoice = (n: number, amount: string | null, amountMinor: number | null, currency: string | null): Invoice => ({
  id: `22222222-2222-4222-8222-00000000000${n}`,
  vendor: `Vendor ${n}`,
  email: `billing${n}@vendor.example`,
  amount,
  amount_minor: amountMinor,
  currency,
  invoice_date: `2026-02-0${n}`,
  invoice_number: null,
  status: 'pending',
  drive_file_id: null,
  category: 'Invoice',
  details: null,
  frequency: 'One-time',
  drive_error: null,
  attachments: [],
});

// Amounts of 1,000 and more as each number style stores them; the stored exact amount is what is shown.
const INVOICES = [
  invoice(1, '€5,178.43', 517843, 'EUR'),
  invoice(2, 'RON 1,875.08', 187508, 'RON'),
  invoice(3, '€752.70', 75270, 'EUR'),
  invoice(4, '1.234,56 €', null, 'EUR'),
  invoice(5, "CHF 1'234.50", null, 'CHF'),
  invoice(6, '₹1,23,456.78', 12345678, 'INR'),
  invoice(7, '1 500,00', null, 'PLN'),
];

const STATS: InvoiceStats = {
  total_invoices: 57,
  total_amount: 12345.6,
  this_month_amount: 5178.43,
  last_month_amount: 1000,
  currency: 'EUR',
  by_currency: [
    { currency: 'EUR', invoices: 31, total_amount: 12345.6, this_month_amount: 5178.43, last_month_amount: 1000 },
    { currency: 'RON', invoices: 20, total_amount: 1875.08, this_month_amount: 0, last_month_amount: 0 },
    { currency: 'USD', invoices: 4, total_amount: 4110.5, this_month_amount: 0, last_month_amount: 0 },
    { currency: 'INR', invoices: 2, total_amount: 123456.78, this_month_amount: 0, last_month_amount: 0 },
  ],
  by_month: [],
};

/** YYYY-MM of the month `back` months before this one (the dashboard's 12 months are the local calendar's). */
const monthBack = (back: number) => {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
};

function serveInvoices(stats: InvoiceStats) {
  const server = mockFetch((url) => {
    if (url.pathname === '/api/v1/invoices') return { body: { invoices: INVOICES, total: 57, total_emails: 150 } };
    if (url.pathname === '/api/v1/invoices/stats') return { body: stats };
    if (url.pathname === '/api/v1/bank-statements') return { body: { statements: [], total: 0 } };
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
}

const nbsp = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');

describe('Dashboard amounts of 1,000 and more', () => {
  it('lists each recent invoice with its exact amount and two fraction digits, in every number style', async () => {
    serveInvoices(STATS);
    renderAt(<DashboardRoute />, '/dashboard');
    const item = async (vendor: string) => (await screen.findByText(vendor)).closest('li');
    expect(nbsp((await item('Vendor 1'))!.textContent)).toContain('€5,178.43');
    expect(nbsp((await item('Vendor 2'))!.textContent)).toContain('RON 1,875.08');
    expect(nbsp((await item('Vendor 3'))!.textContent)).toContain('€752.70');
    expect(nbsp((await item('Vendor 4'))!.textContent)).toContain('€1,234.56');
    expect(nbsp((await item('Vendor 5'))!.textContent)).toContain('CHF 1,234.50');
    expect(nbsp((await item('Vendor 6'))!.textContent)).toContain('₹123,456.78');
    expect(nbsp((await item('Vendor 7'))!.textContent)).toContain('PLN 1,500.00');
  });

  it('sorts by price on the exact amount', async () => {
    serveInvoices(STATS);
    renderAt(<DashboardRoute />, '/dashboard');
    await screen.findByText('Vendor 1');
    await userEvent.click(screen.getByRole('button', { name: 'Date' }));
    const vendors = () =>
      within(screen.getByText('Vendor 1').closest('ul')!)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent);
    expect(vendors()).toEqual(['Vendor 6', 'Vendor 1', 'Vendor 2', 'Vendor 7', 'Vendor 4', 'Vendor 5', 'Vendor 3']);
    await userEvent.click(screen.getByRole('button', { name: 'Desc' }));
    expect(vendors()[0]).toBe('Vendor 3');
  });

  it('shows Total Amount in the main currency and every other currency on its own line, never summed', async () => {
    serveInvoices(STATS);
    renderAt(<DashboardRoute />, '/dashboard');
    const card = (await screen.findByText('Total Amount', { selector: 'p' })).parentElement!;
    expect(nbsp((await within(card).findByRole('heading', { name: /12,345/ })).textContent)).toBe('€12,345.60');
    await userEvent.click(within(card).getByRole('button', { name: '+ 3 currencies' }));
    const lines = within(within(card).getByRole('list', { name: 'Total amount per currency' })).getAllByRole(
      'listitem',
    );
    expect(lines.map((l) => nbsp(l.textContent))).toEqual([
      '€12,345.6031 invoices',
      'RON 1,875.0820 invoices',
      '$4,110.504 invoices',
      '₹123,456.782 invoices',
    ]);
    expect(within(card).getByRole('button', { name: 'Hide currencies' })).toHaveAttribute('aria-expanded', 'true');
    const month = screen.getByText('This Month', { selector: 'p' }).parentElement!;
    expect(nbsp(month.textContent)).toContain('€5,178.43');
    expect(month.textContent).toContain('vs last month (EUR)');
  });

  it('has no currency button when every invoice is in one currency', async () => {
    serveInvoices({ ...STATS, by_currency: STATS.by_currency.slice(0, 1), total_invoices: 31 });
    renderAt(<DashboardRoute />, '/dashboard');
    const card = (await screen.findByText('Total Amount', { selector: 'p' })).parentElement!;
    expect(nbsp((await within(card).findByRole('heading', { name: /12,345/ })).textContent)).toBe('€12,345.60');
    expect(within(card).queryByRole('button')).toBeNull();
  });
});

describe('Dashboard month trend', () => {
  const trend: InvoiceStats = {
    ...STATS,
    by_month: [
      { month: monthBack(0), currency: 'EUR', invoices: 3, total_amount: 5178.43 },
      { month: monthBack(0), currency: 'RON', invoices: 1, total_amount: 1875.08 },
      { month: monthBack(2), currency: 'EUR', invoices: 2, total_amount: 1000 },
    ],
  };

  it('shows invoices and amount per month for 12 months, in one currency at a time, the main one first', async () => {
    serveInvoices(trend);
    renderAt(<DashboardRoute />, '/dashboard');
    const table = await screen.findByRole('table', { name: 'Invoices and amount per month in EUR' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(nbsp(rows[11]!.textContent)).toBe(`${monthBack(0)}3€5,178.43`);
    expect(nbsp(rows[10]!.textContent)).toBe(`${monthBack(1)}0€0.00`);
    expect(nbsp(rows[9]!.textContent)).toBe(`${monthBack(2)}2€1,000.00`);
    expect(nbsp(rows[0]!.textContent)).toBe(`${monthBack(11)}0€0.00`);
    // The chart itself is drawn (an SVG), hidden from screen readers in favour of the table.
    expect(document.querySelector('.recharts-surface')).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'RON' }));
    const ron = screen.getByRole('table', { name: 'Invoices and amount per month in RON' });
    expect(nbsp(within(ron).getAllByRole('row')[12]!.textContent)).toBe(`${monthBack(0)}1RON 1,875.08`);
    expect(screen.getByRole('button', { name: 'RON' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows no trend before there are invoices with dates in the last 12 months', async () => {
    serveInvoices(STATS);
    renderAt(<DashboardRoute />, '/dashboard');
    await screen.findByText('Vendor 1');
    expect(screen.queryByText('Month Trend')).toBeNull();
  });
});

describe('Dashboard quick actions and recent invoices (spec §2)', () => {
  it('links the three quick actions and lists up to 10 recent invoices with View All past 5', async () => {
    const server = mockFetch((url) => {
      if (url.pathname === '/api/v1/invoices') {
        return { body: { invoices: [{ ...INVOICES[0]!, vendor: null }], total: 6, total_emails: 6 } };
      }
      if (url.pathname === '/api/v1/invoices/stats') return { body: STATS };
      if (url.pathname === '/api/v1/bank-statements') return { body: { statements: [], total: 0 } };
      return undefined;
    });
    vi.stubGlobal('fetch', server.fn);
    renderAt(<DashboardRoute />, '/dashboard');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(await screen.findByText('Unknown Vendor')).toBeInTheDocument();
    for (const [name, href] of [
      ['Sync Gmail Invoices', '/invoice-analysis'],
      ['Upload Bank Statement', '/bank-analysis'],
      ['View History', '/history'],
    ]) {
      // The empty bank-statements card links to /bank-analysis too; every link of that name goes to the same place.
      const links = screen.getAllByRole('link', { name });
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link).toHaveAttribute('href', href);
    }
    expect(screen.getByText('Recent Invoices')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View All Invoices' })).toHaveAttribute('href', '/invoice-analysis');
    const recent = server.calls.find((c) => c.url.pathname === '/api/v1/invoices' && c.url.searchParams.get('limit'));
    expect(recent?.url.searchParams.get('limit')).toBe('10');
  });

  it("says 'No invoices processed yet' and has no View All link without invoices", async () => {
    serve([], 0);
    renderAt(<DashboardRoute />, '/dashboard');
    expect(await screen.findByText('No invoices processed yet')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View All Invoices' })).toBeNull();
  });
});
