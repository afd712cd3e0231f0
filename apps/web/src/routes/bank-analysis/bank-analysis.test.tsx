import type { BankStatement, BankStatementAnalysis, BankTransaction, Invoice, Job } from '@invoicebox/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { BankAnalysisRoute } from './bank-analysis';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), loading: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

/** The invoice list of Invoice Analysis as it sits in the cache (features/invoices/api/invoices-api.ts). */
const INVOICE_LIST_KEY = ['invoices', 'list', { hasAttachments: true, page: 1, limit: 50 }];
const SID = '11111111-1111-4111-8111-111111111111';
const JOB = '22222222-2222-4222-8222-222222222222';
const TX1 = '33333333-3333-4333-8333-333333333331';
const TX2 = '33333333-3333-4333-8333-333333333332';
const TX3 = '33333333-3333-4333-8333-333333333333';
const INV = '44444444-4444-4444-8444-444444444444';
const A1 = '55555555-5555-4555-8555-555555555551';
const A2 = '55555555-5555-4555-8555-555555555552';

const STATEMENT: BankStatement = {
  id: SID,
  filename: 'march.pdf',
  upload_date: '2026-03-04T09:15:00.000Z',
  status: 'pending',
  format: 'pdf',
  bank_name: 'Demo Bank',
  account_number: 'DE89 3704 0044 0532 0130 00',
  start_date: '2026-03-01',
  end_date: '2026-03-31',
  currency: 'EUR',
  opening_balance: '1000.00',
  closing_balance: '1095.89',
  job_id: JOB,
  error: null,
  warnings: [],
  total_transactions: 0,
  matched_transactions: 0,
};

const tx = (over: Partial<BankTransaction>): BankTransaction => ({
  id: TX1,
  date: '2026-03-05',
  value_date: null,
  description: 'AWS EMEA 42183017',
  amount: 4.11,
  currency: 'USD',
  type: 'debit',
  matched_invoice_id: null,
  match_score: null,
  match_explanation: null,
  match_source: null,
  matched_invoice: null,
  ...over,
});

const MATCHED = tx({
  matched_invoice_id: INV,
  match_score: 0.97,
  match_explanation: "amount equal, paid 2 days after the invoice date, 'AWS' in the description",
  match_source: 'auto',
  matched_invoice: {
    id: INV,
    vendor: 'Amazon Web Services',
    amount: '4.11',
    currency: 'USD',
    invoice_date: '2026-03-03',
    invoice_number: '42183017',
  },
});

function analysis(over: Partial<BankStatementAnalysis> = {}): BankStatementAnalysis {
  const transactions = over.transactions ?? [
    MATCHED,
    tx({ id: TX2, description: 'Salary March', amount: 100, currency: 'EUR', type: 'credit' }),
    tx({ id: TX3, description: 'Coffee Bar', amount: 1234.5, currency: 'EUR' }),
  ];
  const matched = transactions.filter((t) => t.matched_invoice_id).length;
  return {
    ...STATEMENT,
    status: 'processed',
    total_transactions: transactions.length,
    matched_transactions: matched,
    reconciliation_result: {
      total_transactions: transactions.length,
      matched_transactions: matched,
      unmatched_transactions: transactions.length - matched,
    },
    transactions,
    ...over,
  };
}

const INVOICE: Invoice = {
  id: INV,
  vendor: 'Coffee Roasters',
  email: 'billing@coffee.example',
  amount: '1234.50',
  amount_minor: 123450,
  currency: 'EUR',
  invoice_date: '2026-03-01',
  invoice_number: 'CR-77',
  status: 'pending',
  drive_file_id: null,
  category: 'other',
  details: null,
  attachments: [],
  frequency: 'One-time',
  drive_error: null,
};

const jobAt = (progress: number): Job => ({
  id: JOB,
  type: 'bank_statement_analysis',
  status: 'running',
  progress,
  message: 'Reading transactions',
  error: null,
  created_at: '2026-03-04T09:15:00.000Z',
  started_at: null,
  finished_at: null,
});

interface ServeOptions {
  /** What GET /bank-statements?limit=1 answers, in turn (the last repeats). */
  newest?: BankStatement[];
  detail?: BankStatementAnalysis;
  upload?: { status: number; body: unknown };
  scope?: 'current' | 'all';
}

function serve(options: ServeOptions = {}) {
  const newest = options.newest ?? [{ ...STATEMENT, status: 'processed' }];
  let polls = 0;
  let detail = options.detail ?? analysis();
  const accounts = [A1, A2].map((id, i) => ({
    userId: id,
    email: `a${i}@mail.test`,
    displayName: `a${i}@mail.test`,
    isActive: i === 0,
    isPrimary: i === 0,
    lastSync: null,
    provider: 'imap',
    needsReauth: false,
    reauthReason: null,
  }));
  const server = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    const p = url.pathname;
    if (p === '/api/v1/gmail/accounts') {
      return {
        body: {
          accounts,
          session: {
            connectedAccounts: accounts,
            selectedScope: options.scope ?? 'current',
            selectedUserIds: [],
            primaryUserId: A1,
            activeUserId: A1,
          },
        },
      };
    }
    if (p === '/api/v1/bank-statements/upload' || p === '/api/v1/bank-statements/upload-multi') {
      return options.upload ?? { body: { bank_statement_id: SID, job_id: JOB } };
    }
    if (p === '/api/v1/bank-statements' && method === 'GET') {
      const row = newest[Math.min(polls, newest.length - 1)];
      polls += 1;
      return { body: { statements: row ? [row] : [], total: 1 } };
    }
    if (p === `/api/v1/bank-statements/${SID}` && method === 'GET') return { body: detail };
    if (p === `/api/v1/bank-statements/${SID}/retry`) return { body: { bank_statement_id: SID, job_id: JOB } };
    if (p === `/api/v1/bank-statements/${SID}/transactions/${TX3}/match` && method === 'POST') {
      const row = tx({
        id: TX3,
        description: 'Coffee Bar',
        amount: 1234.5,
        currency: 'EUR',
        matched_invoice_id: INV,
        match_explanation: 'matched by you',
        match_source: 'manual',
        matched_invoice: { ...MATCHED.matched_invoice!, vendor: 'Coffee Roasters', invoice_number: 'CR-77' },
      });
      detail = { ...detail, transactions: detail.transactions.map((t) => (t.id === TX3 ? row : t)) };
      return { body: row };
    }
    if (p === `/api/v1/bank-statements/${SID}/transactions/${TX1}/match` && method === 'DELETE') {
      const row = tx({ match_explanation: 'unmatched by you', match_source: 'manual' });
      detail = { ...detail, transactions: detail.transactions.map((t) => (t.id === TX1 ? row : t)) };
      return { body: row };
    }
    if (p === `/api/v1/jobs/${JOB}`) return { body: jobAt(40) };
    if (p === '/api/v1/invoices') return { body: { invoices: [INVOICE], total: 1, total_emails: 1 } };
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

const pdfFile = () => new File([new Uint8Array(3 * 1024 * 1024)], 'march.pdf', { type: 'application/pdf' });
const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, unknown>;

afterEach(() => {
  vi.unstubAllGlobals();
  for (const fn of Object.values(toast)) fn.mockReset();
});

async function uploadPdf(user: ReturnType<typeof userEvent.setup>, file = pdfFile()) {
  await user.upload(screen.getByLabelText(/Bank statement PDF/), file);
  await user.click(screen.getByRole('button', { name: 'Start Vision Analysis' }));
}

describe('Bank Analysis upload (spec §2, §5)', () => {
  it('accepts one PDF and shows its name and size in MB', async () => {
    serve();
    const user = userEvent.setup();
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    expect(screen.queryByRole('button', { name: 'Start Vision Analysis' })).not.toBeInTheDocument();
    await user.upload(screen.getByLabelText(/Bank statement PDF/), pdfFile());
    expect(screen.getByText('march.pdf')).toBeInTheDocument();
    expect(screen.getByText('3.00 MB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Vision Analysis' })).toBeEnabled();
  });

  it("refuses a file that is not a PDF with 'Please select a PDF file.'", async () => {
    const server = serve();
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await user.upload(
      screen.getByLabelText(/Bank statement PDF/),
      new File(['a,b'], 'march.csv', { type: 'text/csv' }),
    );
    expect(toast.error).toHaveBeenCalledWith('Please select a PDF file.');
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a PDF file.');
    expect(screen.queryByRole('button', { name: 'Start Vision Analysis' })).not.toBeInTheDocument();
    expect(server.calls.some((c) => c.url.pathname.includes('upload'))).toBe(false);
  });
});

describe('Bank Analysis flow (spec §4)', () => {
  it('uploads, polls the newest statement with limit 1, shows the job progress, then the completed analysis', async () => {
    const server = serve({ newest: [STATEMENT, { ...STATEMENT, status: 'processed' }] });
    const user = userEvent.setup();
    const { client } = renderAt(<BankAnalysisRoute />, '/bank-analysis');
    client.setQueryData(INVOICE_LIST_KEY, { invoices: [], total: 0, total_emails: 0 });
    await uploadPdf(user);

    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'));
    expect(screen.getByText('40% complete')).toBeInTheDocument();
    expect(screen.getByText('Reading transactions')).toBeInTheDocument();
    const upload = server.calls.find((c) => c.url.pathname === '/api/v1/bank-statements/upload');
    const body = bodyOf(upload?.init);
    expect(body.filename).toBe('march.pdf');
    expect(typeof body.file_data).toBe('string');
    expect(atob(body.file_data as string)).toHaveLength(3 * 1024 * 1024);
    expect(body).not.toHaveProperty('user_ids');
    const polls = server.calls.filter((c) => c.url.pathname === '/api/v1/bank-statements');
    expect(polls[0]?.url.search).toBe('?limit=1&offset=0');
    expect(toast.success).not.toHaveBeenCalled();

    await act(() => client.refetchQueries({ queryKey: ['bank-statements', 'newest'] }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Your bank statement has been successfully analyzed.'),
    );
    // Its matches make invoices paid: the cached invoice list is read again.
    await waitFor(() => expect(client.getQueryState(INVOICE_LIST_KEY)?.isInvalidated).toBe(true));

    expect(await screen.findByRole('button', { name: 'Upload New Statement' })).toBeInTheDocument();
    expect(screen.getByText('march.pdf')).toBeInTheDocument();
    const overview = screen.getByLabelText('Overview');
    expect(overview).toHaveTextContent('Total Transactions3');
    expect(overview).toHaveTextContent('Matched1');
    expect(overview).toHaveTextContent('Unmatched2');
    const details = screen.getByLabelText('Statement details');
    expect(details).toHaveTextContent(
      `${new Date(2026, 2, 1).toLocaleDateString()} – ${new Date(2026, 2, 31).toLocaleDateString()}`,
    );
    expect(details).toHaveTextContent('Demo Bank');
    expect(details).toHaveTextContent('***3000');

    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(0, 4)).toEqual(['Date', 'Description', 'Amount', 'Status']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    const debit = within(rows[0]!).getByText('-$4.11');
    expect(debit).toHaveClass('text-red-600');
    expect(rows[0]).toHaveTextContent('Matched');
    expect(rows[0]).toHaveTextContent('Amazon Web Services · No. 42183017');
    expect(rows[0]).toHaveTextContent("amount equal, paid 2 days after the invoice date, 'AWS' in the description");
    expect(within(rows[1]!).getByText('+€100.00')).toHaveClass('text-emerald-600');
    expect(rows[1]).toHaveTextContent('Unmatched');
    expect(within(rows[1]!).queryByRole('button', { name: 'Match' })).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText('-€1,234.50')).toHaveClass('text-red-600');

    await user.click(screen.getByRole('button', { name: 'Upload New Statement' }));
    expect(screen.getByRole('button', { name: 'Analyze Export' })).toBeDisabled();
    expect(screen.getByLabelText(/Bank statement PDF/)).toBeInTheDocument();
  });

  it('uses upload-multi with the selected accounts when more than one is in scope', async () => {
    const server = serve({ scope: 'all' });
    const user = userEvent.setup();
    const { client } = renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await waitFor(() => expect(client.getQueryData(['accounts'])).toBeDefined());
    await uploadPdf(user);
    await screen.findByRole('button', { name: 'Upload New Statement' });
    const multi = server.calls.find((c) => c.url.pathname === '/api/v1/bank-statements/upload-multi');
    expect(bodyOf(multi?.init).user_ids).toEqual([A1, A2]);
    expect(server.calls.some((c) => c.url.pathname === '/api/v1/bank-statements/upload')).toBe(false);
  });

  it('sends a structured export (camt.053) through the same upload call', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await user.upload(
      screen.getByLabelText('Statement export file'),
      new File(['<Document/>'], 'statement.xml', { type: 'application/xml' }),
    );
    await user.click(screen.getByRole('button', { name: 'Analyze Export' }));
    await screen.findByRole('button', { name: 'Upload New Statement' });
    const upload = server.calls.find((c) => c.url.pathname === '/api/v1/bank-statements/upload');
    expect(bodyOf(upload?.init)).toEqual({ filename: 'statement.xml', file_data: btoa('<Document/>') });
  });

  it('goes to the error state when the analysis fails, and offers a retry and another file', async () => {
    const server = serve({
      newest: [{ ...STATEMENT, status: 'failed', error: 'The balances do not add up from row 3' }],
    });
    const user = userEvent.setup();
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await uploadPdf(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('The balances do not add up from row 3');
    expect(toast.error).toHaveBeenCalledWith('Bank statement analysis failed. Please try uploading again.');

    await user.click(screen.getByRole('button', { name: 'Retry Analysis' }));
    await waitFor(() =>
      expect(server.calls.some((c) => c.url.pathname === `/api/v1/bank-statements/${SID}/retry`)).toBe(true),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The balances do not add up from row 3');
    await user.click(screen.getByRole('button', { name: 'Choose Another File' }));
    expect(screen.getByLabelText(/Bank statement PDF/)).toBeInTheDocument();
  });

  it("toasts the server's message when the upload is refused", async () => {
    serve({ upload: { status: 400, body: { error: 'Please select a PDF file.' } } });
    const user = userEvent.setup();
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await uploadPdf(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a PDF file.');
    expect(toast.error).toHaveBeenCalledWith('Please select a PDF file.');
  });

  it("toasts 'Failed to upload bank statement' without a server message", async () => {
    serve({ upload: { status: 500, body: undefined } });
    const user = userEvent.setup();
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await uploadPdf(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to upload bank statement');
    expect(toast.error).toHaveBeenCalledWith('Failed to upload bank statement');
  });

  it('toasts the analysis error when the statement cannot be read after processing', async () => {
    const server = serve();
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith(`/bank-statements/${SID}`)) return { ok: false, status: 500, text: async () => '' };
      return server.fn(input, init);
    });
    const user = userEvent.setup();
    renderAt(<BankAnalysisRoute />, '/bank-analysis');
    await uploadPdf(user);
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('There was an error analyzing your bank statement. Please try again.'),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There was an error analyzing your bank statement. Please try again.',
    );
  });
});

describe('Bank Analysis completed (spec §2)', () => {
  it('says so when the statement has no transactions', async () => {
    serve({ detail: analysis({ transactions: [] }) });
    renderAt(<BankAnalysisRoute />, `/bank-analysis?statement=${SID}`);
    expect(await screen.findByText('No transactions found in this bank statement')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the range of the bookings where the file states no period (a CSV export)', async () => {
    serve({ detail: analysis({ format: 'csv', start_date: null, end_date: null }) });
    renderAt(<BankAnalysisRoute />, `/bank-analysis?statement=${SID}`);
    const details = await screen.findByLabelText('Statement details');
    const day = new Date(2026, 2, 5).toLocaleDateString();
    expect(details).toHaveTextContent(`Not stated; bookings ${day} – ${day}`);
  });

  it('shows the balance-check warnings', async () => {
    serve({
      detail: analysis({
        warnings: [{ code: 'balance_mismatch', message: 'The running balance breaks at row 2', at: 1 }],
      }),
    });
    renderAt(<BankAnalysisRoute />, `/bank-analysis?statement=${SID}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('The running balance breaks at row 2');
  });

  it('matches a debit with a picked invoice and unmatches another', async () => {
    const server = serve();
    const user = userEvent.setup();
    const { client } = renderAt(<BankAnalysisRoute />, `/bank-analysis?statement=${SID}`);
    const table = await screen.findByRole('table');
    const rows = () => within(table).getAllByRole('row').slice(1);
    client.setQueryData(INVOICE_LIST_KEY, { invoices: [], total: 0, total_emails: 0 });

    await user.click(within(rows()[2]!).getByRole('button', { name: 'Match' }));
    const dialog = screen.getByRole('dialog', { name: 'Match with an invoice' });
    await user.type(within(dialog).getByLabelText('Search invoices'), 'coffee{Enter}');
    await user.click(await within(dialog).findByRole('button', { name: /Coffee Roasters/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = server.calls.find((c) => c.init?.method === 'POST' && c.url.pathname.endsWith('/match'));
    expect(bodyOf(post?.init)).toEqual({ invoice_id: INV });
    const search = server.calls.filter((c) => c.url.pathname === '/api/v1/invoices').at(-1);
    expect(search?.url.searchParams.get('search')).toBe('coffee');
    expect(search?.url.searchParams.get('user_ids')).toBe(`${A1},${A2}`);
    await waitFor(() => expect(rows()[2]).toHaveTextContent('Coffee Roasters · No. CR-77'));
    expect(rows()[2]).toHaveTextContent('Matched');
    // The invoice it matched is paid now: the invoice list in the cache is read again.
    expect(client.getQueryState(INVOICE_LIST_KEY)?.isInvalidated).toBe(true);
    client.setQueryData(INVOICE_LIST_KEY, { invoices: [], total: 0, total_emails: 0 });

    await user.click(within(rows()[0]!).getByRole('button', { name: 'Unmatch' }));
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Unmatched'));
    expect(rows()[0]).toHaveTextContent('unmatched by you');
    expect(client.getQueryState(INVOICE_LIST_KEY)?.isInvalidated).toBe(true);
    expect(within(rows()[0]!).getByRole('button', { name: 'Match' })).toBeInTheDocument();
  });
});
