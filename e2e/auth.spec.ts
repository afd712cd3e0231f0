import { expect, test } from '@playwright/test';
import { OWNER } from './owner';
import { shot } from './screenshot-path';

// These run first on the fresh server (project 'auth' in playwright.config.ts): the first visit creates the owner.
test.describe.configure({ mode: 'serial' });

// The app runs under the server's CSP (no inline script or style): anything it refuses on our pages is a bug.
let cspViolations: string[] = [];
test.beforeEach(({ page, baseURL }) => {
  cspViolations = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy') && message.location().url.startsWith(baseURL ?? '')) {
      cspViolations.push(message.text());
    }
  });
});
test.afterEach(() => {
  expect(cspViolations).toEqual([]);
});

test('the first visit creates the owner account and lands on the dashboard', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Create your Invoicebox' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('landing'), fullPage: true });
  await page.getByLabel('Your name').fill(OWNER.name);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('backend_jwt'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
});

test('signing out ends the session; a wrong password is refused; the right one signs in again', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await page.evaluate(() => localStorage.getItem('backend_jwt'));

  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  // The toast's stylesheet is a file now (the CSP refuses sonner's inline one): it is laid out, not in the flow.
  expect(await page.locator('[data-sonner-toaster]').evaluate((e) => getComputedStyle(e).position)).toBe('fixed');
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('backend_jwt'))).toBeNull();
  // The server ended that session: its token no longer works.
  const revoked = await page.request.get('/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(401);

  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await page.getByRole('heading', { name: 'Sign in', exact: true }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('sign-in') });

  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the OIDC callback screen shows a server error with Retry and Go Home', async ({ page }) => {
  await page.goto('/auth/callback?error=Authentication%20failed%3A%20The%20user%20said%20no');
  await expect(page.getByText('Authentication failed: The user said no')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await page.getByRole('button', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('signs in through the OpenID Connect provider, run by the server, with the one-time code handoff', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Continue with Test ID' }).click();
  // The provider's own login and consent pages (any login; 'olive' has the owner's verified email).
  await page.locator('input[name="login"]').fill('olive');
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/auth\/callback\?code=/);
  const code = new URL(page.url()).searchParams.get('code');
  await expect(page.getByRole('heading', { name: "You're all set" })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  const auth = await page.evaluate(() => JSON.parse(localStorage.getItem('multiAuth') ?? '{}'));
  expect(auth.users[0].email).toBe('olive@example.com');
  // The code was for one use only.
  const replay = await page.request.post('/api/v1/auth/code', { data: { code } });
  expect(replay.status()).toBe(401);
});
