import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { importInvoiceMail } from './import-mail';
import { OWNER } from './owner';
import { shot } from './screenshot-path';

/**
 * Issue 16, keyboard-only use: the main actions with Tab, Shift+Tab, Enter, Space, the arrow keys and Escape alone —
 * sign in, the sidebar, the account scope in Settings, the invoice filters, an invoice's View, the dialogs (trapped,
 * closed with Escape, focus given back), Log Out. Every element the keys reach must show where the focus is.
 */
const pdf = fileURLToPath(new URL('../../shared/datasets/invoices-pdf/QualityHosting.pdf', import.meta.url));

interface Reached {
  what: string;
  ring: boolean;
}

/** What is focused, and whether it shows a focus indicator (an outline, or a ring drawn as a box shadow). */
const focused = (page: Page): Promise<Reached> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: 'body', ring: true };
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
    const what = `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    return { what, ring: outline || s.boxShadow !== 'none' };
  });

/** Every element reached without a visible focus indicator, for one assertion at the end. */
const unringed = new Set<string>();

/** Presses Tab (or Shift+Tab) until the target has the focus, checking each element passed on the way. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const reached = await focused(page);
    if (!reached.ring) unringed.add(reached.what);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${back ? 'Shift+Tab' : 'Tab'} did not reach ${target}`);
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);
const focusInside = (target: Locator) => target.evaluate((el) => el.contains(document.activeElement));

/** The performance metrics the app keeps in the tab (`invoicebox.metrics()`). */
const metrics = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as { invoicebox: { metrics: () => Array<{ name: string; value: number }> } }
    ).invoicebox.metrics(),
  );

test('the main actions with the keyboard alone', async ({ page, request }) => {
  test.setTimeout(240_000);
  const signin = await request.post('/api/v1/auth/local/signin', {
    data: { email: OWNER.email, password: OWNER.password },
  });
  const token = ((await signin.json()) as { token: string }).token;
  const auth = { authorization: `Bearer ${token}` };
  // One invoice in the owner's mail, to have a card to open.
  await importInvoiceMail(request, token, {
    from: 'Quality Hosting <billing@qualityhosting.example>',
    subject: 'Keyboard invoice',
    messageId: '<keyboard-e2e-qualityhosting@example.com>',
    pdf,
    filename: 'qualityhosting.pdf',
  });
  // The scope is put back at the end: the other specs see the owner's accounts as they were.
  const before = (await (await request.get('/api/v1/gmail/accounts', { headers: auth })).json()) as {
    session: { selectedScope: string; selectedUserIds: string[] };
  };
  await request.put('/api/v1/gmail/accounts/scope', {
    headers: auth,
    data: { selectedScope: 'current', selectedUserIds: [] },
  });

  try {
    // Sign in: Tab to the form, type, Enter.
    await page.goto('/');
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByLabel('Password'))).toBe(true);
    await page.keyboard.type(OWNER.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The first Tab of a page offers to skip the header and the sidebar.
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    // Spec §9 performance metrics, kept by the tab: this load and its API calls are among them.
    await expect.poll(async () => (await metrics(page)).map((m) => m.name)).toContain('first-contentful-paint');
    expect((await metrics(page)).map((m) => m.name)).toEqual(expect.arrayContaining(['ttfb', 'api']));
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await isFocused(skip)).toBe(true);
    await expect(skip).toBeInViewport();

    // The sidebar: Tab to Settings, Enter.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await tabTo(page, nav.getByRole('link', { name: /^Settings/ }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    // Settings: the account scope with the arrow keys (a radio group), to All Accounts.
    await tabTo(page, page.getByRole('radio', { name: /Current Account/ }));
    await page.keyboard.press('ArrowDown');
    await expect(page.getByText('Switched to all accounts scope')).toBeVisible();
    await expect(page.getByRole('radio', { name: /All Accounts/ })).toBeChecked();

    // A dialog: opened with Enter, the focus inside and kept there, typing stays in its field, Escape closes it and
    // the focus goes back to the button that opened it.
    const addImap = page.getByRole('button', { name: /^Add (IMAP Mailbox|Account)$/ }).last();
    await expect(addImap).toBeVisible();
    const opener = (await page.getByRole('button', { name: 'Add IMAP Mailbox' }).count())
      ? page.getByRole('button', { name: 'Add IMAP Mailbox' })
      : addImap;
    await tabTo(page, opener, { back: true });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add an IMAP mailbox' });
    await expect(dialog).toBeVisible();
    expect(await focusInside(dialog)).toBe(true);
    await page.keyboard.type('me@example.com');
    expect(await isFocused(dialog.getByRole('textbox').first())).toBe(true);
    await expect(dialog.getByRole('textbox').first()).toHaveValue('me@example.com');
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInside(dialog), `Tab ${i + 1} left the dialog`).toBe(true);
      const reached = await focused(page);
      if (!reached.ring) unringed.add(reached.what);
    }
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInside(dialog), `Shift+Tab ${i + 1} left the dialog`).toBe(true);
    }
    await page.screenshot({ path: shot('keyboard-dialog') });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(await isFocused(opener)).toBe(true);

    // A confirmation: Space opens it, Escape cancels it, nothing removed.
    const remove = page.getByRole('button', { name: /^Remove / }).first();
    await tabTo(page, remove);
    await page.keyboard.press('Space');
    const confirm = page.getByRole('dialog');
    await expect(confirm).toBeVisible();
    expect(await focusInside(confirm)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    expect(await isFocused(remove)).toBe(true);

    // Back up the page with Shift+Tab to the sidebar, to Invoice Analysis.
    await tabTo(page, nav.getByRole('link', { name: /^Invoice Analysis/ }), { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/invoice-analysis$/);

    // Filters: search on Enter, a status with the arrow keys, Has Attachments with Space, then Clear.
    await tabTo(page, page.getByLabel('Search'));
    await page.keyboard.type('qualityhosting');
    await page.keyboard.press('Enter');
    const card = page.locator('div', { has: page.getByRole('heading', { level: 3 }) }).filter({
      hasText: 'qualityhosting.pdf',
    });
    await expect(card.first()).toBeVisible({ timeout: 15_000 });
    const status = page.getByLabel('Status');
    await tabTo(page, status);
    await page.keyboard.press('ArrowDown');
    await expect(status).toHaveValue('ready_to_process');
    await page.keyboard.press('Home');
    await expect(status).toHaveValue('');
    const attachments = page.getByRole('checkbox', { name: 'Has Attachments' });
    await tabTo(page, attachments);
    const wasChecked = await attachments.isChecked();
    await page.keyboard.press('Space');
    await expect(attachments).toBeChecked({ checked: !wasChecked });
    await page.keyboard.press('Space');
    await expect(attachments).toBeChecked({ checked: wasChecked });
    await expect(card.first()).toBeVisible();
    await page.screenshot({ path: shot('keyboard-invoices') });

    // View: Enter on the card's View opens the attachments' window.
    const view = page.getByRole('button', { name: 'View' }).first();
    await tabTo(page, view);
    const popup = page.waitForEvent('popup');
    await page.keyboard.press('Enter');
    const viewer = await popup;
    await expect(viewer.getByRole('heading', { name: 'qualityhosting.pdf' })).toBeVisible();
    await viewer.close();

    // The sidebar closes and opens with Ctrl+B.
    await page.keyboard.press('Control+b');
    await expect(nav).toBeHidden();
    await page.keyboard.press('Control+b');
    await expect(nav).toBeVisible();

    // Log Out: back up to the header, Enter.
    await tabTo(page, page.getByRole('button', { name: 'Log Out' }), { back: true, max: 200 });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();

    expect([...unringed], 'reached without a visible focus indicator').toEqual([]);
    const kept = await metrics(page);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(100);
  } finally {
    await request.put('/api/v1/gmail/accounts/scope', {
      headers: auth,
      data: { selectedScope: before.session.selectedScope, selectedUserIds: before.session.selectedUserIds },
    });
  }
});
