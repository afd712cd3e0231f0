import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { AccountManagement } from './account-management';

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
const PRIMARY_REFUSAL = 'Cannot remove primary account. Set another account as primary first.';

function serve({ oidc = [] as Array<{ id: string; name: string }>, oidcStart = 200 } = {}) {
  let scope: 'current' | 'all' | 'custom' = 'current';
  let selected: string[] = [];
  const list = () => ({
    accounts: [A, B],
    session: {
      connectedAccounts: [A, B],
      selectedScope: scope,
      selectedUserIds: selected,
      primaryUserId: 'a1',
      activeUserId: 'a1',
    },
  });
  const server = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/v1/gmail/accounts' && method === 'GET') return { body: list() };
    if (url.pathname === '/api/v1/gmail/accounts/scope' && method === 'PUT') {
      const body = JSON.parse(String(init?.body)) as { selectedScope: typeof scope; selectedUserIds: string[] };
      scope = body.selectedScope;
      selected = body.selectedUserIds;
      return { body: list() };
    }
    if (url.pathname === '/api/v1/gmail/accounts/a2/primary') return { body: { ...B, isPrimary: true } };
    if (url.pathname === '/api/v1/gmail/accounts/a2' && method === 'DELETE') return { body: { removed: B } };
    if (url.pathname === '/api/v1/gmail/accounts/a1' && method === 'DELETE') {
      return { status: 409, body: { error: PRIMARY_REFUSAL } };
    }
    if (url.pathname === '/api/v1/auth/methods') {
      return {
        body: { local: { enabled: true, owner_exists: true, signup_open: false }, oidc, mfa: { factor_types: [] } },
      };
    }
    if (url.pathname === '/api/v1/auth/oidc/google/start') {
      return oidcStart === 200
        ? { body: { url: 'https://accounts.example/authorize' } }
        : { status: oidcStart, body: { error: 'down' } };
    }
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

beforeEach(() => {
  toast.success.mockReset();
  toast.error.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('Settings → Account Management (spec §2, §5, §8)', () => {
  it('switches the scope between Current Account, All Accounts and Custom Selection with a checkbox per account', async () => {
    const server = serve();
    const user = userEvent.setup();
    renderAt(<AccountManagement />, '/settings');
    expect(await screen.findByRole('radio', { name: /Current Account/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /All Accounts/ })).not.toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Custom Selection/ }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Switched to custom scope'));
    const selection = await screen.findByRole('group', { name: 'Accounts in the selection' });
    await user.click(within(selection).getByRole('checkbox', { name: 'b@example.com' }));
    await waitFor(() => {
      const puts = server.calls.filter((c) => c.init?.method === 'PUT').map((c) => JSON.parse(String(c.init?.body)));
      expect(puts.at(-1)).toEqual({ selectedScope: 'custom', selectedUserIds: ['a2'] });
    });
    await user.click(screen.getByRole('radio', { name: /Current Account/ }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Switched to current account scope'));
  });

  it("lists each account with its badges and 'Never', sets a primary, and removes after confirmation", async () => {
    serve();
    const user = userEvent.setup();
    renderAt(<AccountManagement />, '/settings');
    const rowA = (await screen.findByText('a@example.com', { selector: 'p' })).closest('li')!;
    const rowB = screen.getByText('b@example.com', { selector: 'p' }).closest('li')!;
    expect(within(rowA).getByText('Primary')).toBeInTheDocument();
    expect(within(rowA).getByText('Active')).toBeInTheDocument();
    expect(rowA).toHaveTextContent('Last sync: Never');
    expect(within(rowA).queryByRole('button', { name: 'Set Primary' })).toBeNull();

    await user.click(within(rowB).getByRole('button', { name: 'Set Primary' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Set b@example.com as primary account'));

    await user.click(within(rowB).getByRole('button', { name: 'Remove b@example.com' }));
    let dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(toast.success).not.toHaveBeenCalledWith('Removed account: b@example.com');
    await user.click(within(rowB).getByRole('button', { name: 'Remove b@example.com' }));
    dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Removed account: b@example.com'));
  });

  it('shows the server’s refusal to remove the primary while others exist', async () => {
    serve();
    const user = userEvent.setup();
    renderAt(<AccountManagement />, '/settings');
    const rowA = (await screen.findByText('a@example.com', { selector: 'p' })).closest('li')!;
    await user.click(within(rowA).getByRole('button', { name: 'Remove a@example.com' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(PRIMARY_REFUSAL));
  });

  it("'Add Account' starts the provider sign-in with a toast, and says so when it cannot start", async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    serve({ oidc: [{ id: 'google', name: 'Google' }] });
    const user = userEvent.setup();
    const { unmount } = renderAt(<AccountManagement />, '/settings');
    await user.click(await screen.findByRole('button', { name: 'Add Account' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Redirecting to Google for account connection...'));
    expect(assign).toHaveBeenCalledWith('https://accounts.example/authorize');
    unmount();

    serve({ oidc: [{ id: 'google', name: 'Google' }], oidcStart: 500 });
    renderAt(<AccountManagement />, '/settings');
    await user.click(await screen.findByRole('button', { name: 'Add Account' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to start account connection process'));
  });
});
