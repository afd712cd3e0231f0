import type { SampleDataStatus } from '@invoicebox/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../../test/render';
import { getActiveJobId } from '../../jobs/active-job-store';
import { SampleDataBanner, SampleDataCard, TrySampleDataButton } from './sample-data';

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn(), dismiss: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const EMPTY: SampleDataStatus = {
  available: true,
  loaded: false,
  account_id: null,
  account_email: 'sample@invoicebox.example',
  statement_ids: [],
  invoices: 0,
  job_id: null,
  importing: false,
};
const LOADED: SampleDataStatus = {
  ...EMPTY,
  loaded: true,
  account_id: 'acc-1',
  statement_ids: ['st-1'],
  invoices: 8,
  job_id: '6f1c2b9e-1d2a-4c3b-9a8e-000000000001',
};

/** A server whose sample state changes with POST and DELETE, as the real one does. */
function serve(initial: SampleDataStatus, options: { deleteStatus?: number } = {}) {
  let state = initial;
  const server = mockFetch((url, init) => {
    if (url.pathname !== '/api/v1/sample-data') return undefined;
    const method = init?.method ?? 'GET';
    if (method === 'POST') {
      state = { ...LOADED, invoices: 0, importing: true };
      return { body: state };
    }
    if (method === 'DELETE') {
      if (options.deleteStatus) return { status: options.deleteStatus, body: { error: 'Still importing' } };
      state = EMPTY;
      return { body: { accounts: 1, invoices: 8, statements: 1 } };
    }
    return { body: state };
  });
  vi.stubGlobal('fetch', server.fn);
  return server;
}

const methods = (server: ReturnType<typeof serve>) =>
  server.calls.filter((c) => c.url.pathname === '/api/v1/sample-data').map((c) => c.init?.method ?? 'GET');

afterEach(() => {
  vi.unstubAllGlobals();
  for (const fn of Object.values(toast)) fn.mockReset();
  window.localStorage.clear();
});

describe('Try it with sample data', () => {
  it('loads the sample with one click from an empty screen and follows its job', async () => {
    const server = serve(EMPTY);
    renderAt(
      <>
        <SampleDataBanner />
        <TrySampleDataButton />
      </>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Try it with sample data' }));
    await waitFor(() => expect(methods(server)).toContain('POST'));
    expect(toast.success).toHaveBeenCalledWith('Loading sample data');
    expect(getActiveJobId()).toBe(LOADED.job_id);
    // Once loaded the button is gone and the banner says it is sample data.
    expect(await screen.findByText('Sample data')).toBeInTheDocument();
    expect(screen.getByText('Importing the sample mailbox and bank statement…')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try it with sample data' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove sample data' })).toBeDisabled();
  });

  it('shows the loaded sample with a badge and removes it with one click', async () => {
    const server = serve(LOADED);
    renderAt(<SampleDataBanner />);
    expect(await screen.findByText(/You are looking at sample data: 8 invoices/)).toBeInTheDocument();
    expect(screen.getByText('Sample data')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove sample data' }));
    await waitFor(() => expect(methods(server)).toContain('DELETE'));
    expect(toast.success).toHaveBeenCalledWith('Sample data removed (8 invoices)');
    await waitFor(() => expect(screen.queryByText('Sample data')).not.toBeInTheDocument());
  });

  it('says why a removal was refused', async () => {
    serve(LOADED, { deleteStatus: 409 });
    renderAt(<SampleDataCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove sample data' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Remove sample data' })).toBeInTheDocument();
  });

  it('offers nothing on an empty screen when the server has no sample, and Settings says why', async () => {
    serve({ ...EMPTY, available: false });
    renderAt(
      <>
        <TrySampleDataButton />
        <SampleDataCard />
      </>,
    );
    expect(await screen.findByText(/Sample data is not available on this server/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try it with sample data' })).not.toBeInTheDocument();
  });
});
