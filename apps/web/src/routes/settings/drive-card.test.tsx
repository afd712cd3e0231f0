import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderAt } from '../../test/render';
import { DriveCard } from './drive-card';

const WARNING =
  'A folder on this machine: workers on other machines cannot write to it. With an external database, job workers ' +
  'may run elsewhere.';

function serve(warning: string | null) {
  return mockFetch((url) => {
    if (url.pathname.endsWith('/sync/drive/status')) {
      return {
        body: {
          drive: { kind: 'local', root: '/srv/invoicebox/drive', reachable: true, error: null, warning },
          accounts: [],
          totals: { uploaded: 3, pending: 1, failed: 0 },
        },
      };
    }
    if (url.pathname.endsWith('/drive/connection')) {
      return { body: { kind: 'local', root: '/srv/invoicebox/drive', google_account: null, webdav: null } };
    }
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Settings → Drive', () => {
  it('shows the warning the server gives for a local folder on a deployment of several machines', async () => {
    vi.stubGlobal('fetch', serve(WARNING).fn);
    renderAt(<DriveCard />);
    expect(await screen.findByText(WARNING)).toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
  });

  it('shows no warning when the server has none', async () => {
    vi.stubGlobal('fetch', serve(null).fn);
    renderAt(<DriveCard />);
    expect(await screen.findByText('/srv/invoicebox/drive')).toBeInTheDocument();
    expect(screen.getByText(/3 filed · 1 waiting · 0 failed/)).toBeInTheDocument();
    expect(screen.queryByText(/workers on other machines/)).toBeNull();
  });
});
