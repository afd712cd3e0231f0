import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { type ReactNode, useEffect, useState } from 'react';
import { Toaster } from 'sonner';
import { meQueryKey } from '../features/auth/api/get-me';
import { onAuthError } from '../lib/auth-events';
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

/** The app's providers: the persisted query cache and the toaster. */
export function AppProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  const [persister] = useState(createQueryPersister);
  return (
    <PersistQueryClientProvider client={client} persistOptions={{ persister, maxAge: persistMaxAge }}>
      <AuthErrorListener client={client} />
      {children}
      <Toaster position="bottom-right" richColors closeButton />
    </PersistQueryClientProvider>
  );
}
