import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from '../components/route-error';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { createTestQueryClient, mockFetch, TestProviders } from '../test/render';
import { routes } from './routes';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), loading: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

const owner = { user: { id: 'u1', email: 'owner@invoicebox.local', display_name: 'Local owner' } };

// Real EdDSA tokens and a published key: the SPA checks what the identity service hands it.
let jwks: { keys: unknown[] } = { keys: [] };
const session = {
  session_token: '',
  session_expires_at: '2030-01-01T00:00:00.000Z',
  token: '',
  expires_at: '2030-01-01T00:00:00.000Z',
  user: owner.user,
};
beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' }] };
  const sign = (aud: string) =>
    new SignJWT({ sid: 's1' })
      .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
      .setSubject('u1')
      .setAudience(aud)
      .setExpirationTime('1h')
      .sign(privateKey);
  session.token = await sign('backend');
  session.session_token = await sign('session');
});

function serve({
  signedIn,
  ownerExists = true,
  extra,
}: {
  signedIn: boolean;
  ownerExists?: boolean;
  extra?: Parameters<typeof mockFetch>[0];
}) {
  let authenticated = signedIn;
  const server = mockFetch((url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url.pathname === '/api/v1/me')
      return authenticated ? { body: owner } : { status: 401, body: { error: 'Unauthorized' } };
    if (url.pathname === '/api/v1/jobs') return { body: { jobs: [] } };
    if (url.pathname === '/.well-known/jwks.json') return { body: jwks };
    if (url.pathname === '/api/v1/gmail/accounts') {
      const account = {
        userId: 'a1',
        email: 'owner@invoicebox.local',
        displayName: 'Owner',
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
            selectedScope: 'current',
            selectedUserIds: [],
            primaryUserId: 'a1',
            activeUserId: 'a1',
          },
        },
      };
    }
    if (url.pathname === '/api/v1/auth/methods') {
      return {
        body: {
          local: { enabled: true, owner_exists: ownerExists, signup_open: !ownerExists },
          oidc: [],
          mfa: { factor_types: ['totp'] },
        },
      };
    }
    // The server ends the session: /me answers 401 from then on.
    if (url.pathname === '/api/v1/auth/logout') {
      authenticated = false;
      return { body: { success: true } };
    }
    if (url.pathname === '/api/v1/auth/local/signup') {
      authenticated = true;
      return { status: 201, body: session };
    }
    if (url.pathname === '/api/v1/auth/local/signin') {
      const body = JSON.parse(String(init?.body)) as { password: string };
      if (body.password === 'the-right-password') {
        authenticated = true;
        return { body: session };
      }
      return { status: 401, body: { error: 'Invalid email or password', code: 'unauthorized' } };
    }
    return undefined;
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

function renderApp(path: string) {
  const client = createTestQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <TestProviders client={client}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { router, client };
}

function Broken(): never {
  throw new Error('render exploded');
}

afterEach(() => {
  vi.unstubAllGlobals();
  for (const fn of Object.values(toast)) fn.mockReset();
});

describe('routes', () => {
  it('shows the landing to a visitor', async () => {
    serve({ signedIn: false });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Smart Gmail Scanning' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Drive Organization' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Bank Statement Analysis' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Before' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'After' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Connect Gmail & Drive/ })).toBeInTheDocument();
  });

  it('says what the operator sets when Connect Gmail & Drive is pressed without Google configured', async () => {
    serve({ signedIn: false });
    // jsdom does not lay out: the button also scrolls to the sign-in card.
    HTMLElement.prototype.scrollIntoView = vi.fn();
    const user = userEvent.setup();
    renderApp('/');
    await screen.findByRole('heading', { name: 'Sign in' });
    await user.click(screen.getByRole('button', { name: /Connect Gmail & Drive/ }));
    expect(HTMLElement.prototype.scrollIntoView).toHaveBeenCalled();
    const help = await screen.findByText(/Gmail & Drive sign-in is not set up on this server/);
    expect(help).toHaveTextContent('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
    expect(screen.getByRole('link', { name: 'Configuration in the README' })).toHaveAttribute(
      'href',
      '/docs#configuration',
    );
  });

  it('creates the owner account on the first visit and signs in', async () => {
    serve({ signedIn: false, ownerExists: false });
    const user = userEvent.setup();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Create your Invoicebox' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'owner@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long password');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem(STORAGE_KEYS.backendJwt)).toBe(session.token);
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.multiAuth)!)).toMatchObject({ activeUserId: 'u1' });
  });

  it('shows the server message on a wrong password, then signs in', async () => {
    serve({ signedIn: false });
    const user = userEvent.setup();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'owner@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'the-right-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('sends a signed-in user from / to /dashboard inside the shell', async () => {
    serve({ signedIn: true });
    const { router } = renderApp('/');
    // The shell waits for /me, then the dashboard for its lists: give a loaded machine time for each step.
    const slow = { timeout: 20_000 };
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, slow)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(await screen.findByRole('option', { name: 'owner@invoicebox.local (Primary)' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'All Gmail Accounts' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: '+ Add Gmail Account' })).toBeInTheDocument();
    expect(await screen.findByText('No invoices processed yet', undefined, slow)).toBeInTheDocument();
    expect(await screen.findByText('No bank statements uploaded yet', undefined, slow)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const labels = within(nav)
      .getAllByRole('link')
      .map((a) => a.querySelector('span span')?.textContent);
    expect(labels).toEqual([
      'Dashboard',
      'Invoice Analysis',
      'Bank Statement Analysis',
      'Forwarding',
      'History',
      'Settings',
    ]);
    // Each entry has its short description.
    expect(within(nav).getByRole('link', { name: /Bank Statement Analysis/ })).toHaveTextContent(
      'Upload and reconcile a statement',
    );
    for (const link of within(nav).getAllByRole('link')) expect(link.querySelectorAll('span span')).toHaveLength(2);
    // Header: the toggle, the product name linking home, Refresh and Log Out; footer: links and the documentation.
    expect(screen.getByRole('button', { name: 'Toggle sidebar' })).toBeInTheDocument();
    expect(within(screen.getByRole('banner')).getByText('Invoicebox')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeInTheDocument();
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(within(footer).getByRole('link', { name: 'Documentation' })).toHaveAttribute('href', '/docs');
  });

  it('shows the sign-in screen on a signed-in route when the server answers 401', async () => {
    serve({ signedIn: false });
    const { router } = renderApp('/history');
    expect(await screen.findByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/history');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
  });

  it('shows the not-found page for any other path', async () => {
    serve({ signedIn: true });
    renderApp('/no/such/page');
    expect(await screen.findByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });

  it('toggles the sidebar with Ctrl+B and the header button', async () => {
    serve({ signedIn: true });
    const user = userEvent.setup();
    renderApp('/settings');
    expect(await screen.findByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await user.keyboard('{Control>}b{/Control}');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
    await user.keyboard('{Meta>}b{/Meta}');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(screen.getByRole('button', { name: 'Toggle sidebar' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('logs out: clears the auth keys and goes to /', async () => {
    serve({ signedIn: true });
    for (const key of Object.values(STORAGE_KEYS)) localStorage.setItem(key, 'x');
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(toast.success).toHaveBeenCalledWith('Logged out successfully');
    for (const key of ['backend_jwt', 'multiAuth', 'multi_account_session', 'last_auth_error', 'auth_error_count']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    // The landing waits for /me to answer 401 again; give a loaded machine time. It may render twice on the way, so
    // the button is looked up inside the retry (a node found before the second render is detached after it).
    await waitFor(
      () => {
        expect(screen.getByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
        expect(screen.getByText('You have been signed out successfully.')).toBeInTheDocument();
      },
      { timeout: 20_000 },
    );
  });

  it('stays signed in and says so when the server could not end the session', async () => {
    serve({
      signedIn: true,
      extra: (url) => (url.pathname === '/api/v1/auth/logout' ? { status: 503, body: { error: 'down' } } : undefined),
    });
    localStorage.setItem(STORAGE_KEYS.backendJwt, 'x');
    const user = userEvent.setup();
    const { router } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Log Out' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('An error occurred while signing out. Please try again.'),
    );
    expect(toast.success).not.toHaveBeenCalledWith('Logged out successfully');
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(localStorage.getItem(STORAGE_KEYS.backendJwt)).toBe('x');
  });

  it("shows 'Health check failed' when the server does not answer who is signed in and its health check fails", async () => {
    serve({
      signedIn: true,
      extra: (url) =>
        url.pathname === '/api/v1/me' || url.pathname === '/api/v1/health'
          ? { status: 503, body: { status: 'degraded' } }
          : undefined,
    });
    renderApp('/dashboard');
    expect(await screen.findByText('Could not reach the server')).toBeInTheDocument();
    expect(await screen.findByText('Health check failed')).toBeInTheDocument();
  });

  it('refreshes all data with a toast', async () => {
    const server = serve({ signedIn: true });
    const user = userEvent.setup();
    renderApp('/history');
    await screen.findByText('No activity yet');
    const before = server.calls.length;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Data refreshed successfully'));
    expect(server.calls.length).toBeGreaterThan(before);
  });

  it("toasts 'Failed to refresh data' when the data cannot be asked for again", async () => {
    let failing = false;
    serve({
      signedIn: true,
      extra: (url) =>
        failing && url.pathname === '/api/v1/jobs' ? { status: 500, body: { error: 'down' } } : undefined,
    });
    const user = userEvent.setup();
    renderApp('/history');
    await screen.findByText('No activity yet');
    failing = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to refresh data'));
    expect(toast.success).not.toHaveBeenCalledWith('Data refreshed successfully');
  });

  it('toasts which invoices are shown when the header account selector changes', async () => {
    const account = {
      userId: 'a1',
      email: 'owner@invoicebox.local',
      displayName: 'Owner',
      isActive: true,
      isPrimary: true,
      lastSync: null,
      provider: 'imap',
      needsReauth: false,
      reauthReason: null,
    };
    const list = (selectedScope: 'all' | 'current') => ({
      accounts: [account],
      session: {
        connectedAccounts: [account],
        selectedScope,
        selectedUserIds: [],
        primaryUserId: 'a1',
        activeUserId: 'a1',
      },
    });
    let failScope = false;
    serve({
      signedIn: true,
      extra: (url, init) => {
        if (init?.method === 'PUT' && url.pathname === '/api/v1/gmail/accounts/scope') {
          if (failScope) return { status: 500, body: { error: 'Scope not saved' } };
          const body = JSON.parse(String(init.body)) as { selectedScope: 'all' | 'current' };
          return { body: list(body.selectedScope) };
        }
        if (url.pathname === '/api/v1/gmail/accounts/a1/activate') return { body: account };
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderApp('/history');
    const selector = await screen.findByRole('combobox', { name: 'Account' });
    await screen.findByRole('option', { name: 'owner@invoicebox.local (Primary)' });
    await user.selectOptions(selector, 'All Gmail Accounts');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Now showing invoices from all Gmail accounts'));
    await user.selectOptions(selector, 'owner@invoicebox.local (Primary)');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Now showing invoices from owner@invoicebox.local'));
    // A failing server answer is shown as its message, not as a switch.
    failScope = true;
    toast.success.mockClear();
    await user.selectOptions(selector, 'All Gmail Accounts');
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Scope not saved'));
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('shows the auth callback error state with Retry and Go Home when no tokens came back', async () => {
    serve({ signedIn: false });
    renderApp('/auth/callback');
    expect(await screen.findByText('No OAuth tokens found in callback URL...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Home' })).toBeInTheDocument();
  });
});

describe('auth callback messages (spec §5, §8)', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    sessionStorage.clear();
  });

  it('says the access token is missing when the URL carries only a refresh token', async () => {
    serve({ signedIn: false });
    window.history.replaceState(null, '', '/auth/callback#refresh_token=r1');
    renderApp('/auth/callback');
    expect(await screen.findByText('Missing Google access token. Please try signing in again.')).toBeInTheDocument();
  });

  it("says 'Failed to set session: ...' when the session handed over does not verify", async () => {
    serve({
      signedIn: false,
      extra: (url) =>
        url.pathname === '/api/v1/auth/code' ? { body: { ...session, token: 'not-a-signed-token' } } : undefined,
    });
    window.history.replaceState(null, '', '/auth/callback?code=c1');
    renderApp('/auth/callback');
    expect(await screen.findByText(/^Failed to set session: /)).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEYS.backendJwt)).toBeNull();
  });

  it('refuses a URL with an access token but no refresh token', async () => {
    serve({ signedIn: false });
    window.history.replaceState(null, '', '/auth/callback#access_token=a1');
    renderApp('/auth/callback');
    expect(
      await screen.findByText(
        'Missing Google refresh token. This means the OAuth flow is not requesting offline access...',
      ),
    ).toBeInTheDocument();
  });

  it('refuses tokens in the URL without a session handed over by the server', async () => {
    serve({ signedIn: false });
    window.history.replaceState(null, '', '/auth/callback#access_token=a1&refresh_token=r1');
    renderApp('/auth/callback');
    expect(
      await screen.findByText('No authentication session found. Please try signing in again.'),
    ).toBeInTheDocument();
  });

  it("toasts 'Could not authenticate with backend' when the code is refused", async () => {
    serve({
      signedIn: false,
      extra: (url) =>
        url.pathname === '/api/v1/auth/code' ? { status: 401, body: { error: 'Code expired' } } : undefined,
    });
    window.history.replaceState(null, '', '/auth/callback?code=c1');
    renderApp('/auth/callback');
    expect(await screen.findByText('Backend authentication failed: Code expired')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Could not authenticate with backend');
  });

  it('connects, runs the first full sync with initial_setup until it ends, then goes to /', async () => {
    let polls = 0;
    const server = serve({
      signedIn: false,
      extra: (url, init) => {
        if (url.pathname === '/api/v1/auth/code') return { body: session };
        if (url.pathname === '/api/v1/sync/full' && init?.method === 'POST') {
          return { body: { job_id: 'job-1', status: 'pending' } };
        }
        if (url.pathname === '/api/v1/jobs/job-1') {
          polls += 1;
          const status = polls < 2 ? 'running' : 'completed';
          return {
            body: {
              id: 'job-1',
              type: 'full_sync',
              status,
              progress: status === 'completed' ? 100 : 50,
              message: null,
              error: null,
              created_at: '2026-11-27T07:00:00.000Z',
              started_at: '2026-11-27T07:00:00.000Z',
              finished_at: status === 'completed' ? '2026-11-27T07:00:05.000Z' : null,
            },
          };
        }
        return undefined;
      },
    });
    window.history.replaceState(null, '', '/auth/callback?code=c1');
    const { router } = renderApp('/auth/callback');
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Successfully connected to backend with OAuth tokens'),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 6000 });
    const sync = server.calls.find((c) => c.url.pathname === '/api/v1/sync/full');
    expect(sync?.url.searchParams.get('initial_setup')).toBe('true');
    expect(polls).toBe(2);
  }, 10_000);

  it("says 'Unexpected error: ...' when the first sync cannot be followed", async () => {
    serve({
      signedIn: false,
      extra: (url, init) => {
        if (url.pathname === '/api/v1/auth/code') return { body: session };
        if (url.pathname === '/api/v1/sync/full' && init?.method === 'POST') {
          return { status: 500, body: { error: 'queue down' } };
        }
        return undefined;
      },
    });
    window.history.replaceState(null, '', '/auth/callback?code=c1');
    renderApp('/auth/callback');
    expect(await screen.findByText('Unexpected error: queue down')).toBeInTheDocument();
  });

  it("toasts 'Failed to add Gmail account. Please try again.' when an add-account sign-in comes back failed", async () => {
    serve({ signedIn: false });
    sessionStorage.setItem('invoicebox:adding_account', '1');
    window.history.replaceState(null, '', '/auth/callback?error=Authentication%20failed%3A%20denied');
    renderApp('/auth/callback');
    expect(await screen.findByText('Authentication failed: denied')).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Failed to add Gmail account. Please try again.');
    expect(sessionStorage.getItem('invoicebox:adding_account')).toBeNull();
  });

  it('does not toast the add-account failure for a plain sign-in', async () => {
    serve({ signedIn: false });
    window.history.replaceState(null, '', '/auth/callback?error=Authentication%20failed%3A%20denied');
    renderApp('/auth/callback');
    expect(await screen.findByText('Authentication failed: denied')).toBeInTheDocument();
    expect(toast.error).not.toHaveBeenCalledWith('Failed to add Gmail account. Please try again.');
  });
});

describe('RouteErrorPage', () => {
  it('shows status and status text of a route error response', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const router = createMemoryRouter([
      {
        path: '/',
        errorElement: <RouteErrorPage />,
        loader: () => {
          throw new Response('', { status: 503, statusText: 'Service Unavailable' });
        },
        element: <p>never</p>,
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('Unexpected Application Error!')).toBeInTheDocument();
    expect(screen.getByText('503 Service Unavailable')).toBeInTheDocument();
    vi.restoreAllMocks();
  });

  it('shows the message of a thrown error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const router = createMemoryRouter([{ path: '/', errorElement: <RouteErrorPage />, element: <Broken /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('render exploded')).toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
