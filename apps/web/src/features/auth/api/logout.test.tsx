import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestQueryClient, mockFetch } from '../../../test/render';
import { SIGN_OUT_ERROR, useLogout } from './logout';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

function wrapper({ children }: { children: ReactNode }) {
  const router = createMemoryRouter([{ path: '*', element: children }], { initialEntries: ['/settings'] });
  return (
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.clearAllMocks();
  localStorage.clear();
});

describe('Log Out (spec §4, §8)', () => {
  it("says 'Failed to logout' when the local session cannot be cleared, after the server ended it", async () => {
    vi.stubGlobal(
      'fetch',
      mockFetch((url) => (url.pathname.endsWith('/auth/logout') ? { body: { success: true } } : undefined)).fn,
    );
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new Error('storage is locked');
    });
    const { result } = renderHook(() => useLogout(), { wrapper });
    await result.current();
    expect(toast.error).toHaveBeenCalledWith('Failed to logout');
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('keeps the person signed in with the §8 message when the server could not end the session', async () => {
    localStorage.setItem('backend_jwt', 'still-valid');
    vi.stubGlobal('fetch', mockFetch(() => ({ status: 503, body: { error: 'down' } })).fn);
    const { result } = renderHook(() => useLogout(), { wrapper });
    await result.current();
    expect(toast.error).toHaveBeenCalledWith(SIGN_OUT_ERROR);
    expect(localStorage.getItem('backend_jwt')).toBe('still-valid');
  });
});
