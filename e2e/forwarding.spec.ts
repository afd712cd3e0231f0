import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ImapFlow } from 'imapflow';
import { startDovecot, type TestDovecot } from '../apps/server/test/dovecot';
import { buildMail } from '../apps/server/test/mail/mail-builder';
import { readMailbox, startSmtpRelay, type TestSmtpRelay } from '../apps/server/test/smtp-relay';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

const datasets = fileURLToPath(new URL('../../shared/datasets/invoices-pdf/', import.meta.url));
// The server of this run sends through SMTP_HOST:SMTP_PORT as `fwdsender` (playwright.config.ts); the relay listens
// there only while this spec runs and delivers into this spec's Dovecot.
const relayPort = Number(process.env.E2E_SMTP_PORT);

const USERS = { fwdinbox: 'pw', fwdsender: 'pw', books: 'pw', boss: 'pw' };
const MAILS: Array<[string, string, string]> = [
  ['Amazon Web Services <aws-billing@amazon.example>', 'Your AWS invoice', 'AmazonWebServices.pdf'],
  ['Coolblue <factuur@coolblue.example>', 'Je factuur', 'coolblue1.pdf'],
];

let dovecot: TestDovecot;
let relay: TestSmtpRelay;
test.beforeAll(async () => {
  dovecot = await startDovecot(USERS);
  relay = await startSmtpRelay(dovecot, { fwdsender: 'pw' }, { port: relayPort });
});
test.afterAll(async () => {
  await relay?.close();
  await dovecot?.dispose();
});

async function appendInvoices() {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.imapPort,
    secure: false,
    auth: { user: 'fwdinbox', pass: 'pw' },
    logger: false,
    doSTARTTLS: false,
  });
  await client.connect();
  for (const [i, [from, subject, file]] of MAILS.entries()) {
    await client.append(
      'INBOX',
      buildMail({
        from,
        subject,
        messageId: `<e2e-fwd-${i}@example.com>`,
        attachments: [{ filename: `invoice-${file}`, content: await fs.readFile(path.join(datasets, file)) }],
      }),
    );
  }
  await client.logout();
}

/** The Message-IDs of the originals forwarded into a recipient's inbox (each one attached to a cover mail). */
async function forwardedOriginals(user: keyof typeof USERS): Promise<string[]> {
  const mails = await readMailbox(dovecot, user, USERS[user]);
  return mails
    .flatMap((m) => [...m.source.toString('latin1').matchAll(/^Message-ID:\s*<(e2e-fwd-\d)@example\.com>/gim)])
    .map((match) => match[1] ?? '')
    .sort();
}

test('Forwarding: recipients with the spec §5 messages, the two warnings, save, sync, each invoice delivered once', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await signInAsOwner(page, request);
  const auth = { authorization: `Bearer ${token}` };
  const connected = await request.post('/api/v1/gmail/accounts/imap', {
    headers: auth,
    data: {
      email: 'fwdinbox@mail.test',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'fwdinbox',
      password: 'pw',
    },
  });
  expect(connected.ok()).toBe(true);
  const account = (await connected.json()) as { userId: string };
  await request.post(`/api/v1/gmail/accounts/${account.userId}/activate`, { headers: auth });
  await request.put('/api/v1/gmail/accounts/scope', {
    headers: auth,
    data: { selectedScope: 'current', selectedUserIds: [] },
  });

  await page.goto('/forwarding');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoice Forwarding' })).toBeVisible();
  const status = page.getByRole('region', { name: 'Forwarding status' });
  await expect(status.getByText('Inactive')).toBeVisible();
  await expect(status).toContainText('Sent with SMTP relay of this server as fwdsender@mail.test');
  await expect(page.getByRole('button', { name: 'Forward Now' })).toBeDisabled();
  await expect(
    page.getByText('Only invoices found after forwarding was enabled are forwarded automatically'),
  ).toBeVisible();

  // Enabled without recipients: the first warning.
  const toggle = page.getByRole('switch', { name: 'Enable forwarding' });
  await toggle.click();
  await expect(page.getByRole('alert').filter({ hasText: 'No recipients' })).toBeVisible();

  const address = page.getByLabel('Recipient email address');
  await address.fill('books.mail.test');
  await address.press('Enter');
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await address.fill('books@mail.test');
  await address.press('Enter');
  await address.fill('BOOKS@mail.test');
  await page.getByRole('button', { name: 'Add recipient' }).click();
  await expect(page.getByText('Email address already added')).toBeVisible();
  await address.fill('boss@mail.test');
  await address.press('Enter');
  await expect(page.getByRole('heading', { name: 'Recipients (2 of 20)' })).toBeVisible();

  // Recipients set but disabled: the second warning; enabled with recipients: none.
  await toggle.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Forwarding is disabled' })).toBeVisible();
  await toggle.click();
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByText('Forwarding configuration updated successfully')).toBeVisible();
  await expect(status.getByText('Active')).toBeVisible();
  await expect(status).toContainText('2 recipients');
  await expect(page.getByRole('button', { name: 'Forward Now' })).toBeEnabled();

  // Invoices found after enabling are forwarded on their own after the sync.
  await appendInvoices();
  await page.goto('/invoice-analysis');
  await page.getByRole('button', { name: 'Sync Gmail' }).click();
  await expect(page.getByRole('heading', { name: 'Amazon Web Services' })).toBeVisible({ timeout: 60_000 });

  const expected = ['e2e-fwd-0', 'e2e-fwd-1'];
  await expect.poll(() => forwardedOriginals('books'), { timeout: 60_000 }).toEqual(expected);
  await expect.poll(() => forwardedOriginals('boss'), { timeout: 30_000 }).toEqual(expected);

  await page.goto('/forwarding');
  await expect(page.getByRole('group', { name: 'Successfully Forwarded' })).toContainText('4', { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Failed Forwards' })).toContainText('0');
  await expect(page.getByRole('group', { name: 'Success Rate' })).toContainText('100%');
  await expect(page.getByRole('group', { name: 'Last forwarded' })).not.toContainText('Never');

  // Forward Now has nothing left to send: every invoice reached each recipient once.
  await page.getByRole('button', { name: 'Forward Now' }).click();
  await expect(page.getByText('Invoice forwarding started')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('forwarding'), fullPage: true });
  expect(await forwardedOriginals('books')).toEqual(expected);
  expect(await forwardedOriginals('boss')).toEqual(expected);

  await page.goto('/invoice-analysis');
  await expect(page.getByText('Forwarded to books@mail.test +1').first()).toBeVisible();

  // Later specs sync other mailboxes: forwarding is switched off again so that they send nothing.
  const off = await request.put('/api/v1/forwarding/config', {
    headers: auth,
    data: { enabled: false, target_emails: [] },
  });
  expect(off.ok()).toBe(true);
});
