import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { SmtpRelayCard } from './smtp-relay-card';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

afterEach(() => {
  vi.unstubAllGlobals();
  for (const fn of Object.values(toast)) fn.mockReset();
});

function serve(put: { status?: number; body: unknown }) {
  const server = mockFetch((url, init) => {
    if (url.pathname !== '/api/v1/forwarding/smtp-relay') return undefined;
    return init?.method === 'PUT' ? put : { body: { relay: null } };
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('SMTP server'), ' smtp.mail.example ');
  await user.selectOptions(screen.getByLabelText('Encryption'), 'tls');
  await user.type(screen.getByLabelText('SMTP user name'), 'me@mail.example');
  await user.type(screen.getByLabelText('SMTP app password'), 'app-pass');
}

describe('Settings → SMTP relay', () => {
  it('saves the relay (the port follows the TLS mode) and then says what it sends through', async () => {
    const relay = {
      host: 'smtp.mail.example',
      port: 465,
      tls: 'tls',
      username: 'me@mail.example',
      from: 'me@mail.example',
    };
    const server = serve({ body: { relay } });
    const user = userEvent.setup();
    renderAt(<SmtpRelayCard />, '/settings');
    expect(await screen.findByText('No SMTP relay set.')).toBeInTheDocument();
    await fill(user);
    expect(screen.getByLabelText('SMTP port')).toHaveValue('465');
    await user.click(screen.getByRole('button', { name: 'Save SMTP relay' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Invoices will be forwarded through smtp.mail.example'),
    );
    const put = server.calls.find((c) => c.init?.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({
      host: 'smtp.mail.example',
      port: 465,
      tls: 'tls',
      username: 'me@mail.example',
      password: 'app-pass',
    });
    expect(screen.getByText('Sending through smtp.mail.example:465 as me@mail.example.')).toBeInTheDocument();
    expect(screen.getByLabelText('SMTP app password')).toHaveValue('');
  });

  it("shows the server's reason when it could not log in, and keeps the form", async () => {
    serve({ status: 400, body: { error: 'Could not connect and sign in to the SMTP server' } });
    const user = userEvent.setup();
    renderAt(<SmtpRelayCard />, '/settings');
    await screen.findByText('No SMTP relay set.');
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Save SMTP relay' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not connect and sign in to the SMTP server');
    expect(screen.getByLabelText('SMTP app password')).toHaveValue('app-pass');
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('refuses a port out of range without asking the server', async () => {
    const server = serve({ body: { relay: null } });
    const user = userEvent.setup();
    renderAt(<SmtpRelayCard />, '/settings');
    await screen.findByText('No SMTP relay set.');
    await fill(user);
    await user.clear(screen.getByLabelText('SMTP port'));
    await user.type(screen.getByLabelText('SMTP port'), '70000');
    await user.click(screen.getByRole('button', { name: 'Save SMTP relay' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a port between 1 and 65535');
    expect(server.calls.some((c) => c.init?.method === 'PUT')).toBe(false);
  });

  it('shows nothing when the server has no per-person relay', async () => {
    const server = mockFetch(() => undefined);
    vi.stubGlobal('fetch', server.fn);
    const { container } = renderAt(<SmtpRelayCard />, '/settings');
    await waitFor(() => expect(server.calls.length).toBe(1));
    await waitFor(() => expect(container).toBeEmptyDOMElement());
  });
});
