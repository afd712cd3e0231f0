import type { ForwardingConfig, ForwardingStats, Job } from '@invoicebox/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setActiveJobId } from '../../features/jobs/active-job-store';
import { mockFetch, renderAt } from '../../test/render';
import { ForwardingRoute } from './forwarding';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), loading: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const JOB = '22222222-2222-4222-8222-222222222222';
const RULE =
  'Only invoices found after forwarding was enabled are forwarded automatically; use Forward Now to send earlier invoices.';

const config = (over: Partial<ForwardingConfig> = {}): ForwardingConfig => ({
  enabled: false,
  target_emails: [],
  enabled_at: null,
  rule: RULE,
  max_recipients: 20,
  sender: { configured: true, kind: 'smtp', from: 'me@home.example', reason: null },
  backlog: 0,
  ...over,
});

const STATS: ForwardingStats = {
  total_forwarded: 42,
  total_failed: 3,
  total_pending: 0,
  success_rate: 93.33333,
  last_forwarded_at: '2026-03-04T09:15:00.000Z',
  recent_failures: [],
};

interface ServeOptions {
  config?: ForwardingConfig | { status: number; body: unknown };
  stats?: ForwardingStats | { status: number; body: unknown };
  put?: { status: number; body: unknown };
  start?: { status: number; body: unknown };
  job?: Job;
}

const isReply = (v: unknown): v is { status: number; body: unknown } =>
  typeof v === 'object' && v !== null && 'status' in v && 'body' in v;

function serve(options: ServeOptions = {}) {
  let saved = options.config && !isReply(options.config) ? options.config : config();
  const server = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    const p = url.pathname;
    if (p === '/api/v1/forwarding/config' && method === 'GET') {
      return isReply(options.config) ? options.config : { body: saved };
    }
    if (p === '/api/v1/forwarding/config' && method === 'PUT') {
      if (options.put) return options.put;
      const body = JSON.parse(String(init?.body)) as Pick<ForwardingConfig, 'enabled' | 'target_emails'>;
      saved = { ...saved, ...body, enabled_at: body.enabled ? '2026-03-05T08:00:00.000Z' : saved.enabled_at };
      return { body: saved };
    }
    if (p === '/api/v1/forwarding/stats') {
      const s = options.stats ?? STATS;
      return isReply(s) ? s : { body: s };
    }
    if (p === '/api/v1/forwarding/start') return options.start ?? { body: { job_id: JOB, queued: 6 } };
    if (p === `/api/v1/jobs/${JOB}` && options.job) return { body: options.job };
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, unknown>;
const forwardNow = () => screen.getByRole('button', { name: /Forward Now/ });
const addressInput = () => screen.getByLabelText('Recipient email address');

afterEach(() => {
  vi.unstubAllGlobals();
  for (const fn of Object.values(toast)) fn.mockReset();
});

async function ready() {
  await waitFor(() => expect(screen.getByRole('switch', { name: 'Enable forwarding' })).toBeEnabled());
}

describe('Forwarding screen: status and stats (spec §2, §3)', () => {
  it('shows the status, the recipient count and the five stats', async () => {
    serve({ config: config({ enabled: true, target_emails: ['a@firm.example', 'b@firm.example'] }) });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(screen.getByRole('heading', { name: 'Invoice Forwarding' })).toBeInTheDocument();
    const status = screen.getByRole('region', { name: 'Forwarding status' });
    expect(within(status).getByText('Active')).toBeInTheDocument();
    expect(status).toHaveTextContent('2 recipients');
    expect(status).toHaveTextContent('Sent with SMTP relay (Settings) as me@home.example');

    await waitFor(() => expect(screen.getByRole('group', { name: 'Successfully Forwarded' })).toHaveTextContent('42'));
    expect(screen.getByRole('group', { name: 'Failed Forwards' })).toHaveTextContent('3');
    expect(screen.getByRole('group', { name: 'Pending Forwards' })).toHaveTextContent('0');
    expect(screen.getByRole('group', { name: 'Success Rate' })).toHaveTextContent('93.3%');
    expect(screen.getByRole('group', { name: 'Last forwarded' })).toHaveTextContent(
      new Date('2026-03-04T09:15:00.000Z').toLocaleString(),
    );
  });

  it("says Inactive, 'Never' and 0% before anything was forwarded", async () => {
    serve({
      stats: { ...STATS, total_forwarded: 0, total_failed: 0, success_rate: 0, last_forwarded_at: null },
    });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(within(screen.getByRole('region', { name: 'Forwarding status' })).getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Forwarding status' })).toHaveTextContent('0 recipients');
    await waitFor(() => expect(screen.getByRole('group', { name: 'Last forwarded' })).toHaveTextContent('Never'));
    expect(screen.getByRole('group', { name: 'Success Rate' })).toHaveTextContent('0%');
  });

  it('lists the latest failures with the reason the provider gave', async () => {
    serve({
      stats: {
        ...STATS,
        recent_failures: [
          {
            invoice_id: 'i1',
            vendor: 'Acme GmbH',
            recipient: 'gone@firm.example',
            error: '550 5.1.1 No such user',
            at: '2026-03-04T09:00:00.000Z',
          },
        ],
      },
    });
    renderAt(<ForwardingRoute />, '/forwarding');
    expect(await screen.findByText('Acme GmbH → gone@firm.example')).toBeInTheDocument();
    expect(screen.getByText('550 5.1.1 No such user')).toBeInTheDocument();
  });

  it("shows 'Failed to load forwarding statistics: ' with the server's message", async () => {
    serve({ stats: { status: 500, body: { error: 'outbox unavailable' } } });
    renderAt(<ForwardingRoute />, '/forwarding');
    const message = 'Failed to load forwarding statistics: outbox unavailable';
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message, expect.anything()));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
  });

  it('shows the first-time load message when the configuration cannot be read, and can ask again', async () => {
    const server = serve({ config: { status: 500, body: { error: 'boom' } } });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    const message =
      'Failed to load forwarding configuration. This might be your first time setting up forwarding. Please refresh the page or try again later.';
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message, expect.anything()));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(forwardNow()).toBeDisabled();
    const before = server.calls.filter((c) => c.url.pathname === '/api/v1/forwarding/config').length;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.url.pathname === '/api/v1/forwarding/config').length).toBe(before + 1),
    );
  });
});

describe('Forwarding screen: recipients (spec §5)', () => {
  it('adds with Enter or the add button, trims, and ignores an empty value', async () => {
    serve();
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.type(addressInput(), '  books@firm.example {Enter}');
    expect(screen.getByText('books@firm.example')).toBeInTheDocument();
    expect(addressInput()).toHaveValue('');
    await user.type(addressInput(), 'boss@firm.example');
    await user.click(screen.getByRole('button', { name: 'Add recipient' }));
    expect(screen.getByText('boss@firm.example')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add recipient' }));
    expect(addressInput()).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recipients (2 of 20)' })).toBeInTheDocument();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
  });

  it("refuses an invalid address with 'Please enter a valid email address'", async () => {
    serve();
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.type(addressInput(), 'accountant.firm.example{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address');
    expect(addressInput()).toHaveAttribute('aria-invalid', 'true');
    expect(addressInput()).toHaveAccessibleDescription('Please enter a valid email address');
    expect(addressInput()).toHaveValue('accountant.firm.example');
    expect(screen.getByText('No recipient addresses yet.')).toBeInTheDocument();
    // Typing again clears the message.
    await user.type(addressInput(), 'x');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("refuses a duplicate, whatever its case, with 'Email address already added'", async () => {
    serve({ config: config({ enabled: true, target_emails: ['Books@Firm.example'] }) });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.type(addressInput(), 'books@firm.EXAMPLE{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Email address already added');
    expect(screen.getAllByText(/books@firm\.example/i)).toHaveLength(1);
  });

  it('refuses more recipients than the server allows', async () => {
    serve({ config: config({ enabled: true, target_emails: ['a@firm.example'], max_recipients: 1 }) });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.type(addressInput(), 'b@firm.example{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('At most 1 recipient addresses can be added');
  });

  it('removes a recipient with its remove button', async () => {
    serve({ config: config({ enabled: true, target_emails: ['a@firm.example', 'b@firm.example'] }) });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.click(screen.getByRole('button', { name: 'Remove a@firm.example' }));
    expect(screen.queryByText('a@firm.example')).not.toBeInTheDocument();
    expect(screen.getByText('b@firm.example')).toBeInTheDocument();
  });
});

describe('Forwarding screen: save (spec §7, §8)', () => {
  it('saves enabled and target_emails, toasts success and shows the saved status', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    const toggle = screen.getByRole('switch', { name: 'Enable forwarding' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    toggle.focus();
    await user.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.type(addressInput(), 'books@firm.example{Enter}');
    // Not yet saved: the status still shows the server's configuration.
    expect(within(screen.getByRole('region', { name: 'Forwarding status' })).getByText('Inactive')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Forwarding configuration updated successfully'));
    const put = server.calls.find((c) => c.init?.method === 'PUT');
    expect(put?.url.pathname).toBe('/api/v1/forwarding/config');
    expect(bodyOf(put?.init)).toEqual({ enabled: true, target_emails: ['books@firm.example'] });
    const status = screen.getByRole('region', { name: 'Forwarding status' });
    await waitFor(() => expect(within(status).getByText('Active')).toBeInTheDocument());
    expect(status).toHaveTextContent('1 recipient');
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    expect(forwardNow()).toBeEnabled();
  });

  it("toasts 'Failed to update forwarding configuration' with the server's reason and keeps the edits", async () => {
    serve({ put: { status: 400, body: { error: 'Please enter a valid email address' } } });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.type(addressInput(), 'books@firm.example{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save Configuration' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to update forwarding configuration', {
        description: 'Please enter a valid email address',
      }),
    );
    expect(screen.getByText('books@firm.example')).toBeInTheDocument();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
  });
});

describe('Forwarding screen: warnings (spec §2)', () => {
  it('warns when forwarding is enabled without recipients', async () => {
    serve({ config: config({ enabled: true }) });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(screen.getByRole('alert')).toHaveTextContent('No recipients');
    expect(screen.getByRole('alert')).toHaveTextContent('Forwarding is enabled but there are no recipient addresses');
  });

  it('warns when recipients are set but forwarding is disabled', async () => {
    serve({ config: config({ target_emails: ['a@firm.example'] }) });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(screen.getByRole('alert')).toHaveTextContent('Forwarding is disabled');
  });

  it('follows the edits: no warning when both are set, or neither', async () => {
    serve({ config: config({ target_emails: ['a@firm.example'] }) });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.click(screen.getByRole('switch', { name: 'Enable forwarding' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove a@firm.example' }));
    expect(screen.getByRole('alert')).toHaveTextContent('No recipients');
    await user.click(screen.getByRole('switch', { name: 'Enable forwarding' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Forwarding screen: Forward Now (spec §2, §7)', () => {
  it.each([
    ['disabled', config({ target_emails: ['a@firm.example'] })],
    ['enabled without recipients', config({ enabled: true })],
  ])('is disabled when forwarding is %s, and says why', async (_, saved) => {
    serve({ config: saved });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(forwardNow()).toBeDisabled();
    expect(forwardNow()).toHaveAccessibleDescription(
      'Enable forwarding and add at least one recipient, then save, to forward now.',
    );
  });

  it('explains that no sender is configured and stays disabled', async () => {
    const reason =
      'No sender is configured: sign in with a Google account, or set an SMTP relay in Settings, so invoices can be sent';
    serve({
      config: config({
        enabled: true,
        target_emails: ['a@firm.example'],
        sender: { configured: false, kind: null, from: null, reason },
      }),
    });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(forwardNow()).toBeDisabled();
    // The warning with the way out is the button's description, not a second copy of it.
    expect(forwardNow()).toHaveAccessibleDescription(`${reason} Open Settings`);
    expect(screen.getAllByText(reason)).toHaveLength(1);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(reason);
    expect(within(alert).getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('region', { name: 'Forwarding status' })).toHaveTextContent('No sender configured');
  });

  it('is disabled while edits are unsaved', async () => {
    serve({ config: config({ enabled: true, target_emails: ['a@firm.example'] }) });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(forwardNow()).toBeEnabled();
    await user.type(addressInput(), 'b@firm.example{Enter}');
    expect(forwardNow()).toBeDisabled();
    expect(forwardNow()).toHaveAccessibleDescription(
      'Save the configuration first: Forward Now uses the saved settings.',
    );
  });

  it('shows the rule, the backlog, and the How it works list', async () => {
    serve({ config: config({ enabled: true, target_emails: ['a@firm.example'], backlog: 7 }) });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(screen.getByText(RULE)).toBeInTheDocument();
    expect(screen.getByText('7 invoices are not yet forwarded to every recipient.')).toBeInTheDocument();
    expect(screen.getByText('New invoices are detected during mail sync')).toBeInTheDocument();
    expect(screen.getByText('Each invoice is forwarded only once to each recipient')).toBeInTheDocument();
  });

  it("starts forwarding, toasts 'Invoice forwarding started' and polls the stats while the job runs", async () => {
    const running: Job = {
      id: JOB,
      type: 'invoice_forwarding',
      status: 'running',
      progress: 30,
      message: 'Forwarding',
      error: null,
      created_at: '2026-03-05T08:00:00.000Z',
      started_at: null,
      finished_at: null,
    };
    const server = serve({ config: config({ enabled: true, target_emails: ['a@firm.example'] }), job: running });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.click(forwardNow());
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Invoice forwarding started', { description: '6 mails queued' }),
    );
    expect(server.calls.find((c) => c.url.pathname === '/api/v1/forwarding/start')?.init?.method).toBe('POST');
    expect(localStorage.getItem('active_job_id')).toContain(JOB);
    await waitFor(() => expect(forwardNow()).toBeDisabled());
    expect(forwardNow()).toHaveAccessibleDescription('A forwarding job is running.');
    const statsCalls = () => server.calls.filter((c) => c.url.pathname === '/api/v1/forwarding/stats').length;
    const before = statsCalls();
    await waitFor(() => expect(statsCalls()).toBeGreaterThan(before), { timeout: 5000 });
    act(() => setActiveJobId(null));
  });

  it("toasts 'Failed to start forwarding' with the server's reason", async () => {
    serve({
      config: config({ enabled: true, target_emails: ['a@firm.example'] }),
      start: { status: 409, body: { error: 'Forwarding is not enabled or has no recipient addresses' } },
    });
    const user = userEvent.setup();
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    await user.click(forwardNow());
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to start forwarding', {
        description: 'Forwarding is not enabled or has no recipient addresses',
      }),
    );
  });
});

describe('Forwarding screen: backlog wording', () => {
  it.each([
    [0, 'Every invoice has been forwarded, or is queued, for every recipient.'],
    [1, '1 invoice is not yet forwarded to every recipient.'],
  ])('with a backlog of %i says %j', async (backlog, text) => {
    serve({ config: config({ enabled: true, target_emails: ['a@firm.example'], backlog }) });
    renderAt(<ForwardingRoute />, '/forwarding');
    await ready();
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});
