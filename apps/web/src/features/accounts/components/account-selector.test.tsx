import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../../test/render';
import { AccountSelector } from './account-selector';
import { ADD_ACCOUNT_MARKER } from './use-add-account';

// Generous waits: the machine running the suite may be busy.
const WAIT = { timeout: 5000 };

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const account = (userId: string, email: string, isPrimary: boolean) => ({
  userId,
  email,
  displayName: '',
  isActive: isPrimary,
  isPrimary,
  lastSync: null,
  provider: 'imap',
  needsReauth: false,
  reauthReason: null,
});
const A = account('a1', 'a@example.com', true);
const B = account('a2', 'b@example.com', false);
const list = {
  accounts: [A, B],
  session: {
    connectedAccounts: [A, B],
    selectedScope: 'current',
    selectedUserIds: [],
    primaryUserId: 'a1',
    activeUserId: 'a1',
  },
};

function serve(oidc: Array<{ id: string; name: string }>) {
  const server = mockFetch((url, init) => {
    if (url.pathname === '/api/v1/gmail/accounts' && (init?.method ?? 'GET') === 'GET') return { body: list };
    if (url.pathname === '/api/v1/auth/methods') {
      return {
        body: { local: { enabled: true, owner_exists: true, signup_open: false }, oidc, mfa: { factor_types: [] } },
      };
    }
    if (url.pathname === '/api/v1/auth/oidc/google/start') return { body: { url: 'https://accounts.example/auth' } };
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.clearAllMocks();
  sessionStorage.clear();
});

describe('header account selector (spec §2)', () => {
  it("'+ Add Gmail Account' starts the provider sign-in for another account", async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    const server = serve([{ id: 'google', name: 'Google' }]);
    const user = userEvent.setup();
    renderAt(<AccountSelector />, '/dashboard');
    const select = screen.getByLabelText('Account');
    await screen.findByRole('option', { name: 'a@example.com (Primary)' }, WAIT);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All Gmail Accounts',
      'a@example.com (Primary)',
      'b@example.com',
      '+ Add Gmail Account',
    ]);
    await user.selectOptions(select, '+ Add Gmail Account');
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth'), WAIT);
    expect(toast.success).toHaveBeenCalledWith('Redirecting to Google for account connection...');
    const start = server.calls.find((c) => c.url.pathname === '/api/v1/auth/oidc/google/start');
    expect(JSON.parse(String(start?.init?.body))).toEqual({ purpose: 'add_account' });
    // The callback screen reads this to say 'Failed to add Gmail account. Please try again.' on a failure.
    expect(sessionStorage.getItem(ADD_ACCOUNT_MARKER)).not.toBeNull();
    // Picking it switches no account.
    expect(server.calls.some((c) => c.url.pathname.endsWith('/activate'))).toBe(false);
  });

  it("'+ Add Gmail Account' with no provider configured opens the mailbox form in Settings", async () => {
    serve([]);
    const user = userEvent.setup();
    const { router } = renderAt(<AccountSelector />, '/dashboard');
    await screen.findByRole('option', { name: 'b@example.com' }, WAIT);
    await user.selectOptions(screen.getByLabelText('Account'), '+ Add Gmail Account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'), WAIT);
    expect(router.state.location.state).toEqual({ addImap: true });
  });

  it("toasts 'Unknown error occurred' when switching fails with something that is not an Error", async () => {
    const server = serve([]);
    // A body read that rejects with a bare value (not an Error) reaches the selector as it is.
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/gmail/accounts/a2/activate') {
        return { ok: true, status: 200, text: () => Promise.reject('connection reset') } as unknown as Response;
      }
      return server.fn(input, init);
    });
    const user = userEvent.setup();
    renderAt(<AccountSelector />, '/dashboard');
    await screen.findByRole('option', { name: 'b@example.com' }, WAIT);
    await user.selectOptions(screen.getByLabelText('Account'), 'b@example.com');
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Unknown error occurred'), WAIT);
    expect(toast.success).not.toHaveBeenCalled();
  });
});
