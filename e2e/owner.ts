import type { APIRequestContext, Page } from '@playwright/test';

/** The owner account the end-to-end run creates on its fresh server (auth.spec.ts) and signs in with. */
export const OWNER = { email: 'olive@example.com', password: 'correct horse battery staple', name: 'Olive Owner' };

/** Signs the owner in through the API and hands the session to the page's storage, as the sign-in form would. */
export async function signInAsOwner(page: Page, request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/auth/local/signin', {
    data: { email: OWNER.email, password: OWNER.password },
  });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
  const session = (await res.json()) as {
    token: string;
    session_token: string;
    session_expires_at: string;
    user: { id: string; email: string; display_name: string };
  };
  await page.addInitScript((s) => {
    if (window.sessionStorage.getItem('e2e-signed-in')) return;
    window.sessionStorage.setItem('e2e-signed-in', '1');
    window.localStorage.setItem('backend_jwt', s.token);
    window.localStorage.setItem(
      'multiAuth',
      JSON.stringify({
        users: [s.user],
        sessions: { [s.user.id]: { session_token: s.session_token, session_expires_at: s.session_expires_at } },
        activeUserId: s.user.id,
      }),
    );
  }, session);
  return session.token;
}
