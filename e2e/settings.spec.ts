import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startDovecot, type TestDovecot } from '../apps/server/test/dovecot';
import { buildMail } from '../apps/server/test/mail/mail-builder';
import { OWNER, signInAsOwner } from './owner';
import { shot } from './screenshot-path';
import { totp } from './totp';

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
  await expect(page.getByRole('heading', { name: 'Connected Accounts' })).toBeVisible();

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
  // The same answer as for a wrong port or host: the server never tells which one it was.
  await expect(dialog.getByRole('alert')).toContainText('Could not connect and sign in to the mail server');

  await dialog.getByLabel('Password or app password', { exact: true }).fill('app-password');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('listitem').filter({ hasText: 'olive@mail.test' });
  await expect(row.getByText('Last sync: Never')).toBeVisible();
  // The mailbox of the invoice test came first and is primary; this one becomes primary on request.
  await row.getByRole('button', { name: 'Set Primary' }).click();
  await expect(page.getByText('Set olive@mail.test as primary account')).toBeVisible();
  await expect(row.getByText('Primary', { exact: true })).toBeVisible();
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

test('two-step verification: turn on with an authenticator code, sign in with it, turn off', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000); // it waits for the authenticator's next 30-second step
  await signInAsOwner(page, request);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Set up' }).click();
  const secret = (await page.getByLabel('Secret key').inputValue()).trim();
  await page.getByLabel('Code from the app').fill(totp(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Save these recovery codes now', { exact: false })).toBeVisible();

  await page.getByRole('button', { name: 'Log Out' }).click();
  // Log Out ends the session on the server first; the sign-in form is there once it has landed.
  await expect(page.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(OWNER.email);
  await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  // A fresh time step: the code used to turn it on cannot be replayed.
  await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 200);
  await page.getByLabel('Verification code').fill(totp(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/settings');
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Two-step verification turned off')).toBeVisible();
});

test('Settings shows the drive and imports an uploaded mbox file as a job; the imported mailbox is listed', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const token = await signInAsOwner(page, request);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Drive' })).toBeVisible();
  await expect(page.getByText('Local folder', { exact: true })).toBeVisible();
  await expect(page.getByText('Connected', { exact: true })).toBeVisible();

  const pdf = await fs.readFile(
    fileURLToPath(new URL('../../shared/datasets/invoices-pdf/coolblue1.pdf', import.meta.url)),
  );
  const mail = buildMail({
    from: 'Takeout Vendor <billing@takeout-vendor.example>',
    subject: 'Invoice from your takeout',
    messageId: '<takeout-1@example.com>',
    attachments: [{ filename: 'takeout-invoice.pdf', content: pdf }],
  });
  const mbox = Buffer.concat([
    Buffer.from('From billing@takeout-vendor.example Mon Jan  1 00:00:00 2024\n'),
    mail,
    Buffer.from('\n'),
  ]);
  await page
    .getByLabel('Mail file')
    .setInputFiles({ name: 'takeout.mbox', mimeType: 'application/mbox', buffer: mbox });
  await expect(page.getByText('takeout.mbox ·')).toBeVisible();
  await page.getByRole('button', { name: 'Upload and import' }).click();
  await expect(page.getByText('Importing takeout.mbox')).toBeVisible();
  await expect
    .poll(
      async () => {
        const jobs = (await (
          await request.get('/api/v1/jobs', { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { jobs: Array<{ type: string; status: string; message: string | null }> };
        const job = jobs.jobs.find((j) => j.type === 'mail_import');
        return job ? `${job.status}: ${job.message}` : 'none';
      },
      { timeout: 60_000 },
    )
    .toMatch(/^completed: Imported 1 new message\(s\) of 1 .*1 new invoice/);
  // The end of the job refreshes the accounts: the imported mail is a mailbox of its own.
  await expect(page.getByRole('listitem').filter({ hasText: 'Imported mail' })).toBeVisible();

  const attachmentsRequired = page.getByLabel(/Only emails with a document attached/);
  await expect(attachmentsRequired).toBeChecked();
  await attachmentsRequired.uncheck();
  await expect(page.getByText('Preferences saved; they apply to the next sync or import')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/Only emails with a document attached/)).not.toBeChecked();
  await page.getByLabel(/Only emails with a document attached/).check();
  await expect(page.getByLabel(/Only emails with a document attached/)).toBeChecked();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('settings-drive-import'), fullPage: true });
});
