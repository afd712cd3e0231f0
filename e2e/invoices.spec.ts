import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ImapFlow } from 'imapflow';
import { startDovecot, type TestDovecot } from '../apps/server/test/dovecot';
import { buildMail } from '../apps/server/test/mail/mail-builder';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

const datasets = fileURLToPath(new URL('../../shared/datasets/invoices-pdf/', import.meta.url));

let dovecot: TestDovecot;
test.beforeAll(async () => {
  dovecot = await startDovecot({ ivan: 'pw' });
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.imapPort,
    secure: false,
    auth: { user: 'ivan', pass: 'pw' },
    logger: false,
    doSTARTTLS: false,
  });
  await client.connect();
  const mails: Array<[string, string, string]> = [
    ['Amazon Web Services <aws-billing@amazon.example>', 'Your AWS invoice', 'AmazonWebServices.pdf'],
    ['Coolblue <factuur@coolblue.example>', 'Je factuur', 'coolblue1.pdf'],
    ['QualityHosting <billing@qualityhosting.example>', 'Rechnung', 'QualityHosting.pdf'],
  ];
  for (const [i, [from, subject, file]] of mails.entries()) {
    await client.append(
      'INBOX',
      buildMail({
        from,
        subject,
        messageId: `<e2e-${i}@example.com>`,
        attachments: [{ filename: `invoice-${file}`, content: await fs.readFile(path.join(datasets, file)) }],
      }),
    );
  }
  await client.append('INBOX', buildMail({ from: 'Shop News <news@shop.example>', subject: 'Our newsletter' }));
  await client.logout();
});
test.afterAll(async () => {
  await dovecot?.dispose();
});

test('Invoice Analysis syncs a real mailbox and shows the invoices read from their PDFs; the dashboard sums them', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await signInAsOwner(page, request);
  const connected = await request.post('/api/v1/gmail/accounts/imap', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      email: 'ivan@mail.test',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'ivan',
      password: 'pw',
    },
  });
  expect(connected.ok()).toBe(true);
  const account = (await connected.json()) as { userId: string };
  await request.post(`/api/v1/gmail/accounts/${account.userId}/activate`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await request.put('/api/v1/gmail/accounts/scope', {
    headers: { authorization: `Bearer ${token}` },
    data: { selectedScope: 'current', selectedUserIds: [] },
  });

  await page.goto('/invoice-analysis');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoice Analysis' })).toBeVisible();
  await page.getByRole('button', { name: 'Sync Gmail' }).click();
  await expect(page.getByRole('button', { name: 'Run Full Sync' })).toBeDisabled();
  await expect(page.getByRole('heading', { name: 'Amazon Web Services' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Showing 3 likely invoices out of 4 total emails.', { exact: false })).toBeVisible();
  // Read from the PDF itself: the AWS total and its invoice number.
  await expect(page.getByText('$4.11')).toBeVisible();
  await expect(page.getByText('No. 42183017')).toBeVisible();
  await expect(
    page.locator('main').getByText('Needs Action', { exact: true }).locator('visible=true').first(),
  ).toBeVisible();

  await page.getByLabel('Vendor').selectOption('Coolblue B.V.');
  await expect(page.getByText('1 invoices found')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await page.getByLabel('Search').fill('Rechnung');
  await page.getByLabel('Search').press('Enter');
  await expect(page.getByText('1 invoices found')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('invoice-analysis'), fullPage: true });

  await page.goto('/dashboard');
  await expect(page.getByText('Total Invoices')).toBeVisible();
  await expect(page.getByRole('heading', { name: '3', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('dashboard'), fullPage: true });
});

test('Drive Upload files the synced invoices in the local drive; the Drive button opens one; exports download', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signInAsOwner(page, request);
  await page.goto('/invoice-analysis');
  await expect(page.getByRole('heading', { name: 'Amazon Web Services' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Upload to Drive' }).click();
  await expect(page.locator('main').getByText('Ready to Process', { exact: true }).locator('visible=true')).toHaveCount(
    3,
    { timeout: 60_000 },
  );

  // The popup is sent to the file's link (a PDF may be shown or downloaded, depending on the browser's settings).
  // The link opens once: the popup's own request is made here and its answer handed on, so it is read exactly once.
  let served: { status: number; body: Buffer } | undefined;
  await page.context().route('**/api/v1/drive/open?link=*', async (route) => {
    const response = await route.fetch();
    served = { status: response.status(), body: await response.body() };
    await route.fulfill({ response });
  });
  const linkRequested = page.context().waitForEvent('request', (r) => r.url().includes('/api/v1/drive/open?link='));
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Drive', exact: true }).first().click();
  const popup = await popupOpened;
  const link = (await linkRequested).url();
  await expect.poll(() => served?.status).toBe(200);
  expect(served!.body.subarray(0, 5).toString()).toBe('%PDF-');
  // Spent: a second open of the same link is refused.
  expect((await request.get(link)).status()).toBe(404);
  await popup.close();
  await page.context().unroute('**/api/v1/drive/open?link=*');

  // Light pages: the list carries no file bytes; View and Download fetch them from the download route at the click.
  const card = page
    .locator('main div')
    .filter({ has: page.getByRole('heading', { name: 'Amazon Web Services' }) })
    .filter({ has: page.getByRole('button', { name: 'View' }) })
    .last();
  const fileRequested = page.waitForRequest((r) => /\/api\/v1\/invoices\/[^/]+\/attachments\/\d+$/.test(r.url()));
  const viewOpened = page.waitForEvent('popup');
  await card.getByRole('button', { name: 'View' }).click();
  const viewer = await viewOpened;
  await fileRequested;
  const frame = viewer.locator('iframe[title="invoice-AmazonWebServices.pdf"]');
  await expect(frame).toHaveAttribute('src', /^data:application\/pdf;base64,JVBERi0/, { timeout: 15_000 });
  await viewer.close();
  const downloaded = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download' }).click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toBe('invoice-AmazonWebServices.pdf');
  const saved = await fs.readFile((await file.path())!);
  expect(saved.subarray(0, 5).toString()).toBe('%PDF-');
  expect(saved.length).toBe((await fs.stat(path.join(datasets, 'AmazonWebServices.pdf'))).size);

  for (const format of ['CSV', 'ZIP'] as const) {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: `Export ${format}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^invoices-\\d{4}-\\d{2}-\\d{2}\\.${format.toLowerCase()}$`),
    );
  }
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('invoice-analysis-drive'), fullPage: true });
});

test('the dashboard draws the month trend and lists every currency of Total Amount under the app CSP', async ({
  page,
  request,
}) => {
  await signInAsOwner(page, request);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // The real stats of the synced mailbox, with a mixed-currency month trend added (its PDFs are years old).
  await page.route('**/api/v1/invoices/stats', async (route) => {
    const real = await (await route.fetch()).json();
    const month = new Date().toISOString().slice(0, 7);
    await route.fulfill({
      json: {
        ...real,
        by_currency: [
          ...real.by_currency,
          { currency: 'RON', invoices: 1, total_amount: 1875.08, this_month_amount: 1875.08, last_month_amount: 0 },
        ],
        by_month: [
          { month, currency: real.currency, invoices: 2, total_amount: 5178.43 },
          { month, currency: 'RON', invoices: 1, total_amount: 1875.08 },
        ],
      },
    });
  });
  await page.goto('/dashboard');
  await expect(page.getByText('Month Trend')).toBeVisible();
  await expect(page.locator('.recharts-surface')).toBeVisible();
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeAttached();
  await page.getByRole('button', { name: /^\+ \d+ currenc/ }).click();
  await expect(page.getByRole('list', { name: 'Total amount per currency' })).toContainText('RON 1,875.08');
  await page.getByRole('button', { name: 'RON', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Invoices and amount per month in RON' })).toBeAttached();
  expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
});
