import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AuthErrorListener } from '../app/provider';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY }, mutations: { retry: false } },
  });
}

export function TestProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <AuthErrorListener client={client} />
      {children}
    </QueryClientProvider>
  );
}

/** Renders one element at a path inside a memory router and a fresh query client. */
export function renderAt(element: ReactElement, path = '/', client = createTestQueryClient()) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  return {
    client,
    router,
    ...render(
      <TestProviders client={client}>
        <RouterProvider router={router} />
      </TestProviders>,
    ),
  };
}

type Handler = (url: URL, init: RequestInit | undefined) => { status?: number; body?: unknown } | undefined;

/** A fetch stand-in answering JSON by handler; unknown calls answer 404. */
export function mockFetch(handler: Handler) {
  const calls: Array<{ url: URL; init: RequestInit | undefined }> = [];
  const fn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({ url, init });
    const answer = handler(url, init) ?? { status: 404, body: { error: 'Not found' } };
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    // A plain stand-in rather than a real Response: its body stream would wait on timers that tests fake.
    return { ok: status >= 200 && status < 300, status, text: async () => text } as Response;
  };
  return { fn, calls };
}
