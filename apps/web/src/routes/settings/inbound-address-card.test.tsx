import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { InboundAddressCard } from './inbound-address-card';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const ADDRESS = 'invoices+0123456789abcdef0123@in.example.com';
const NEW_ADDRESS = 'invoices+fedcba98765432100000@in.example.com';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('Settings → Mail invoices in', () => {
  it('says what the operator must set when the listener is off', async () => {
    const { fn } = mockFetch((url) =>
      url.pathname.endsWith('/settings/inbound-address')
        ? { body: { enabled: false, address: null, created_at: null, recent: [] } }
        : undefined,
    );
    vi.stubGlobal('fetch', fn);
    renderAt(<InboundAddressCard />);
    expect(await screen.findByText(/Not available on this server/)).toBeInTheDocument();
    expect(screen.getByText('SMTP_INBOUND_DOMAIN')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New address/ })).toBeNull();
  });

  it('shows the address with what arrived, copies it, and replaces it after a confirmation', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { fn, calls } = mockFetch((url, init) => {
      if (url.pathname.endsWith('/settings/inbound-address/rotate') && init?.method === 'POST') {
        return { body: { enabled: true, address: NEW_ADDRESS, created_at: '2026-11-27T08:00:00.000Z', recent: [] } };
      }
      if (url.pathname.endsWith('/settings/inbound-address')) {
        return {
          body: {
            enabled: true,
            address: ADDRESS,
            created_at: '2026-11-20T08:00:00.000Z',
            recent: [
              {
                received_at: '2026-11-26T10:00:00.000Z',
                from: 'Gmail Team <forwarding-noreply@google.com>',
                subject: '(#12345) Gmail Forwarding Confirmation',
                is_invoice: false,
              },
              {
                received_at: '2026-11-25T10:00:00.000Z',
                from: 'billing@acme.example',
                subject: 'Invoice 7',
                is_invoice: true,
              },
            ],
          },
        };
      }
      return undefined;
    });
    vi.stubGlobal('fetch', fn);
    renderAt(<InboundAddressCard />);
    expect(await screen.findByTestId('inbound-address')).toHaveTextContent(ADDRESS);
    const received = screen.getByRole('list', { name: 'Mails received at your address' });
    expect(within(received).getByText('(#12345) Gmail Forwarding Confirmation')).toBeInTheDocument();
    expect(within(received).getByText('Not an invoice')).toBeInTheDocument();
    expect(within(received).getByText('Invoice')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(toast.success).toHaveBeenCalledWith('Address copied');

    await user.click(screen.getByRole('button', { name: 'New address' }));
    // Nothing changes until the person confirms.
    expect(calls.some((c) => c.url.pathname.endsWith('/rotate'))).toBe(false);
    await user.click(await screen.findByRole('button', { name: 'Make new address' }));
    await waitFor(() => expect(screen.getByTestId('inbound-address')).toHaveTextContent(NEW_ADDRESS));
    expect(toast.success).toHaveBeenCalledWith('New address made; the old one no longer accepts mail');
  });
});
