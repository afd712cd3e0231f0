import { expect, type Page, test } from '@playwright/test';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Toasts and spinners come and go; the screenshot wants the page at rest.
  await page.evaluate(() => document.fonts.ready);
}

test.beforeEach(async ({ page, request }, testInfo) => {
  if (testInfo.title.startsWith('a visitor')) return;
  await signInAsOwner(page, request);
});

test('a visitor sees the product and the sign-in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: /Connect Gmail & Drive/ })).toBeVisible();
  for (const title of ['Smart Gmail Scanning', 'Drive Organization', 'Bank Statement Analysis']) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Before', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get Started Free' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
});

test('the signed-in owner goes from / to the dashboard inside the shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByText('No bank statements uploaded yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
  await settle(page);
  await page.screenshot({ path: shot('dashboard'), fullPage: true });
});

test('history lists the activity from the API', async ({ page }) => {
  const jobs = page.waitForResponse((r) => r.url().includes('/api/v1/jobs?limit=20') && r.status() === 200);
  await page.goto('/history');
  await jobs;
  await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Clear All' })).toBeVisible();
  await page.getByRole('tab', { name: 'Bank Statements' }).click();
  await expect(page.getByText('No bank statements uploaded yet')).toBeVisible();
  await page.getByRole('tab', { name: 'Activity' }).click();
  await settle(page);
  await page.screenshot({ path: shot('history'), fullPage: true });
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/this/page/does-not-exist');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  await settle(page);
  await page.screenshot({ path: shot('not-found'), fullPage: true });
});

test('Ctrl+B toggles the sidebar', async ({ page }) => {
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).toBeVisible();
  await page.keyboard.press('Control+b');
  await expect(nav).toBeHidden();
  await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Control+b');
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: /History/ }).click();
  await expect(page).toHaveURL(/\/history$/);
  // At 1024px and up a link click leaves the sidebar open.
  await expect(nav).toBeVisible();
});

test('below 1024px the sidebar starts closed and closes after a link click', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: /Settings/ }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(nav).toBeHidden();
});

test('Log Out clears the session keys and returns to the landing', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Get Started Free' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('backend_jwt'))).toBeNull();
});

test('the sidebar is 16rem wide and its white column runs the whole height of a long page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await settle(page);
  const measure = () =>
    page.evaluate(() => {
      const aside = document.getElementById('app-sidebar') as HTMLElement;
      const box = aside.getBoundingClientRect();
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
      return {
        widthRem: box.width / rem,
        top: box.top + window.scrollY,
        bottom: box.bottom + window.scrollY,
        page: document.documentElement.scrollHeight,
        viewport: window.innerHeight,
        background: getComputedStyle(aside).backgroundColor,
      };
    });
  const m = await measure();
  // Spec §9: 16rem.
  expect(m.widthRem).toBe(16);
  expect(m.background).toBe('rgb(255, 255, 255)');
  // Settings is a long page: the column starts under the 4rem header and ends where the page ends.
  expect(m.page).toBeGreaterThan(m.viewport * 1.5);
  expect(m.top).toBe(64);
  expect(Math.abs(m.bottom - m.page)).toBeLessThan(1);
  await page.screenshot({ path: shot('sidebar-long-page'), fullPage: true });
  // Scrolled to the end, the links are still in view.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: /^Dashboard/ })).toBeInViewport();
  await expect(nav.getByRole('link', { name: /^Settings/ })).toBeInViewport();
  await page.screenshot({ path: shot('sidebar-long-page-end') });
});
