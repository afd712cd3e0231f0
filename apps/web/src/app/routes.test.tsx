import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from '../components/route-error';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { createTestQueryClient, mockFetch, TestProviders } from '../test/render';
import { routes } from './routes';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), loading: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

const owner = { user: { id: 'u1', email: 'owner@invoicebox.local', display_name: 'Local owner' } };

function serve({ signedIn }: { signedIn: boolean }) {
  const server = mockFetch((url) => {
    if (url.pathname === '/api/v1/me')
      return signedIn ? { body: owner } : { status: 401, body: { error: 'Unauthorized' } };
    if (url.pathname === '/api/v1/jobs') return { body: { jobs: [] } };
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

  it('the connect button toasts when the server does not know the visitor', async () => {
    serve({ signedIn: false });
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: /Connect Gmail & Drive/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Could not authenticate with backend'));
  });

  it('sends a signed-in user from / to /dashboard inside the shell', async () => {
    serve({ signedIn: true });
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.getByText('owner@invoicebox.local')).toBeInTheDocument();
    expect(screen.getByText('No invoices processed yet')).toBeInTheDocument();
    expect(screen.getByText('No bank statements uploaded yet')).toBeInTheDocument();
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
    expect(await screen.findByRole('button', { name: 'Get Started Free' })).toBeInTheDocument();
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

  it('shows the auth callback error state with Retry and Go Home when no tokens came back', async () => {
    serve({ signedIn: false });
    renderApp('/auth/callback');
    expect(await screen.findByText('No OAuth tokens found in callback URL...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Home' })).toBeInTheDocument();
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
