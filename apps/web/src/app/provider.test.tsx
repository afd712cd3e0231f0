import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { FORCE_LOGOUT_EVENT } from '../lib/unauthorized-policy';
import { createTestQueryClient } from '../test/render';
import { ForceLogoutListener } from './provider';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

afterEach(() => {
  window.history.replaceState(null, '', '/');
  localStorage.clear();
});

describe('force logout (spec §8)', () => {
  it('clears the cache and the auth keys and shows the force-logout toast', () => {
    window.history.replaceState(null, '', '/auth/callback');
    const client = createTestQueryClient();
    client.setQueryData(['invoices'], 1);
    localStorage.setItem(STORAGE_KEYS.backendJwt, 'jwt');
    localStorage.setItem(STORAGE_KEYS.multiAuth, '{}');
    render(<ForceLogoutListener client={client} />);
    window.dispatchEvent(new Event(FORCE_LOGOUT_EVENT));
    expect(toast.error).toHaveBeenCalledWith(
      'You have been logged out due to authentication issues. Please sign in again.',
    );
    expect(client.getQueryData(['invoices'])).toBeUndefined();
    expect(localStorage.getItem(STORAGE_KEYS.backendJwt)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.multiAuth)).toBeNull();
    // Already on an auth path: it stays there.
    expect(window.location.pathname).toBe('/auth/callback');
  });
});
