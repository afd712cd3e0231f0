import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { type ReactNode, useEffect, useState } from 'react';
import { Toaster, toast } from 'sonner';
// Its stylesheet as a file: the CSP refuses the inline <style> sonner would inject (see vite.config.ts).
import 'sonner/dist/styles.css';
import { meQueryKey } from '../features/auth/api/get-me';
import { onAuthError } from '../lib/auth-events';
import { clearAuthStorage, QUERY_CACHE_STORAGE_KEY } from '../lib/storage-keys';
import { FORCE_LOGOUT_EVENT, FORCE_LOGOUT_MESSAGE } from '../lib/unauthorized-policy';
import { createQueryClient, createQueryPersister, persistMaxAge } from './query-client';

export function AuthErrorListener({ client }: { client: QueryClient }) {
  useEffect(
    // A 401 anywhere means the cached user is no longer valid: drop it so the guard asks the server again.
    // The /me call reporting its own 401 is already the answer; re-asking it would loop.
    () =>
      onAuthError(({ path }) => {
        if (path !== '/me') client.removeQueries({ queryKey: meQueryKey });
      }),
    [client],
  );
  return null;
}

/** Spec §8 full logout: everything cleared, the toast, and back to / unless already on an auth path. */
export function ForceLogoutListener({ client }: { client: QueryClient }) {
  useEffect(() => {
    const handler = () => {
      void client.cancelQueries();
      client.clear();
      clearAuthStorage();
      window.localStorage.removeItem(QUERY_CACHE_STORAGE_KEY);
      toast.error(FORCE_LOGOUT_MESSAGE);
      const path = window.location.pathname;
      if (path !== '/' && !path.startsWith('/auth/')) window.location.assign('/');
    };
    window.addEventListener(FORCE_LOGOUT_EVENT, handler);
    return () => window.removeEventListener(FORCE_LOGOUT_EVENT, handler);
  }, [client]);
  return null;
}

/** The app's providers: the persisted query cache and the toaster. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  const [persister] = useState(createQueryPersister);
  useEffect(() => {
    window.addEventListener('pagehide', persister.flush);
    return () => window.removeEventListener('pagehide', persister.flush);
  }, [persister]);
  return (
    <PersistQueryClientProvider client={client} persistOptions={{ persister, maxAge: persistMaxAge }}>
      <AuthErrorListener client={client} />
      <ForceLogoutListener client={client} />
      {children}
      <Toaster position="bottom-right" richColors closeButton />
    </PersistQueryClientProvider>
  );
}
