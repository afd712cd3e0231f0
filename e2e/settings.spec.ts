import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startDovecot, type TestDovecot } from '../apps/server/test/dovecot';
import { signInAsOwner } from './owner';

const shot = (name: string) => fileURLToPath(new URL(`../docs/screenshots/${name}.png`, import.meta.url));

let dovecot: TestDovecot;
test.beforeAll(async () => {
  dovecot = await startDovecot({ olive: 'app-password' });
});
test.afterAll(async () => {
  await dovecot?.dispose();
});

test('Settings connects an IMAP mailbox against a real server and lists it in the header selector', async ({
  page,
  request,
}) => {
  await signInAsOwner(page, request);
  await page.goto('/settings');
  await expect(page.getByRole('tab', { name: 'Account Management' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No mail account is connected yet.', { exact: false })).toBeVisible();

  // 'Add Account' starts the provider sign-in (one is configured in this run); IMAP has its own button.
  await expect(page.getByRole('button', { name: 'Add Account' })).toBeVisible();
  await page.getByRole('button', { name: 'Add IMAP Mailbox' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an IMAP mailbox' });
  await dialog.getByLabel('Email address', { exact: true }).fill('olive@mail.test');
  await dialog.getByLabel('IMAP server', { exact: true }).fill('127.0.0.1');
  await dialog.getByLabel('Port', { exact: true }).fill(String(dovecot.imapPort));
  await dialog.getByLabel('Use TLS (port 993)', { exact: true }).uncheck();
  await dialog.getByLabel('User name (if not the email address)', { exact: true }).fill('olive');
  await dialog.getByLabel('Password or app password', { exact: true }).fill('wrong-password');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByRole('alert')).toContainText('refused the sign-in');

  await dialog.getByLabel('Password or app password', { exact: true }).fill('app-password');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('listitem').filter({ hasText: 'olive@mail.test' });
  await expect(row.getByText('Primary')).toBeVisible();
  await expect(row.getByText('Active')).toBeVisible();
  await expect(row.getByText('Last sync: Never')).toBeVisible();
  await expect(page.getByRole('option', { name: 'olive@mail.test (Primary)' })).toBeAttached();

  // The scope is saved on the server; the radio follows once it answers.
  await page.getByRole('radio', { name: /All Accounts/ }).click();
  await expect(page.getByText('Switched to all accounts scope')).toBeVisible();
  await expect(page.getByRole('radio', { name: /All Accounts/ })).toBeChecked();
  await expect(page.getByRole('combobox', { name: 'Account' })).toHaveValue('__all__');
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('settings'), fullPage: true });

  await page.getByRole('tab', { name: 'Data & Privacy' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(/drive/i);
});
