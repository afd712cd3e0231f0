import fs from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { ImapFlow } from 'imapflow';
import { startDovecot, type TestDovecot } from '../apps/server/test/dovecot';
import { buildMail } from '../apps/server/test/mail/mail-builder';
import { readMailbox, startSmtpRelay, type TestSmtpRelay } from '../apps/server/test/smtp-relay';
import { invoicePdf, type JourneyInvoice, journeyInvoices } from './journey-invoices';
import { OWNER } from './owner';
import { shot } from './screenshot-path';

/**
 * One walk through the product as a person makes it, against the real parts of this run: the server of the e2e run,
 * a Dovecot holding invoices of over 1,000 in four number styles, the local drive, an SMTP relay into Dovecot.
 * Sign in → connect the mailbox → full sync → cards with the amounts the PDFs print → filters, search, View,
 * Download, Drive → a camt.053 statement pays one → the match → forwarding → History → Settings (scope, primary,
 * remove) → Log Out. The e2e server and its owner are shared by every spec: what the journey adds is removed again
 * and the owner's accounts, scope, forwarding and statements are put back as they were.
 */

// The server of this run sends forwarded invoices through SMTP_HOST:SMTP_PORT as `fwdsender` (playwright.config.ts);
// the relay listens there while this spec runs and delivers into this spec's Dovecot.
const relayPort = Number(process.env.E2E_SMTP_PORT);
const USERS = { journey: 'pw-journey', spare: 'pw-spare', ledger: 'pw-ledger', fwdsender: 'pw' };
const MAILBOX = 'journey@mail.test';
const SPARE = 'spare@mail.test';
const RECIPIENT = 'ledger@mail.test';

interface Accounts {
  accounts: Array<{ userId: string; email: string; isPrimary: boolean; isActive: boolean; provider: string }>;
  session: { activeUserId: string | null; selectedScope: 'current' | 'all' | 'custom'; selectedUserIds: string[] };
}
interface ForwardingConfig {
  enabled: boolean;
  target_emails: string[];
}

const invoices = journeyInvoices();
const pdfs = new Map<string, Buffer>();
let dovecot: TestDovecot;
let relay: TestSmtpRelay;

test.beforeAll(async () => {
  dovecot = await startDovecot(USERS);
  relay = await startSmtpRelay(dovecot, { fwdsender: USERS.fwdsender }, { port: relayPort });
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.imapPort,
    secure: false,
    auth: { user: 'journey', pass: USERS.journey },
    logger: false,
    doSTARTTLS: false,
  });
  await client.connect();
  for (const [i, invoice] of invoices.entries()) {
    const pdf = await invoicePdf(invoice);
    pdfs.set(invoice.number, pdf);
    await client.append(
      'INBOX',
      buildMail({
        from: invoice.from,
        subject: invoice.subject,
        messageId: `<e2e-journey-${i}@example.com>`,
        text: 'Please find your invoice attached.',
        attachments: [{ filename: invoice.file, content: pdf }],
      }),
    );
  }
  // Not an invoice: the sync reads it and leaves it out.
  await client.append(
    'INBOX',
    buildMail({
      from: 'Shop News <news@shop.example>',
      subject: 'Our autumn newsletter',
      messageId: '<e2e-journey-news@example.com>',
    }),
  );
  await client.logout();
});
test.afterAll(async () => {
  await relay?.close();
  await dovecot?.dispose();
});

/** A session of the owner's own for checks and clean-up, apart from the page's (which Log Out ends). */
async function apiSession(request: APIRequestContext) {
  const res = await request.post('/api/v1/auth/local/signin', {
    data: { email: OWNER.email, password: OWNER.password },
  });
  expect(res.ok()).toBe(true);
  const headers = { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
  return {
    get: async <T>(url: string): Promise<T> => (await (await request.get(`/api/v1${url}`, { headers })).json()) as T,
    post: (url: string, data?: unknown) => request.post(`/api/v1${url}`, { headers, data }),
    put: (url: string, data: unknown) => request.put(`/api/v1${url}`, { headers, data }),
    delete: (url: string) => request.delete(`/api/v1${url}`, { headers }),
  };
}

/** The card of one invoice on Invoice Analysis. */
function card(page: Page, invoice: JourneyInvoice): Locator {
  return page
    .locator('main div')
    .filter({ has: page.getByRole('heading', { name: invoice.vendor, exact: true }) })
    .filter({ has: page.getByRole('button', { name: 'View' }) })
    .last();
}

/** The Message-IDs of the journey's originals forwarded into the recipient's inbox (each attached to a cover mail). */
async function forwardedOriginals(): Promise<string[]> {
  const mails = await readMailbox(dovecot, 'ledger', USERS.ledger);
  return mails
    .flatMap((m) => [...m.source.toString('latin1').matchAll(/^Message-ID:\s*<(e2e-journey-[\w-]+)@example\.com>/gim)])
    .map((match) => match[1] ?? '')
    .sort();
}

async function connectImap(page: Page, user: keyof typeof USERS, email: string) {
  await page.getByRole('button', { name: 'Add IMAP Mailbox' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an IMAP mailbox' });
  await dialog.getByLabel('Email address', { exact: true }).fill(email);
  await dialog.getByLabel('IMAP server', { exact: true }).fill(dovecot.host);
  await dialog.getByLabel('Port', { exact: true }).fill(String(dovecot.imapPort));
  await dialog.getByLabel('Use TLS (port 993)', { exact: true }).uncheck();
  await dialog.getByLabel('User name (if not the email address)', { exact: true }).fill(user);
  await dialog.getByLabel('Password or app password', { exact: true }).fill(USERS[user]);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(
    page.getByRole('main').getByRole('listitem').filter({ hasText: email }).getByText('Last sync: Never'),
  ).toBeVisible();
}

test('a person signs in, syncs a mailbox, checks the invoices, files, reconciles and forwards them, and leaves', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  const api = await apiSession(request);
  const before = await api.get<Accounts>('/gmail/accounts');
  const forwardingBefore = await api.get<ForwardingConfig>('/forwarding/config');
  const statementsBefore = await api.get<{ statements: unknown[] }>('/bank-statements');
  const eur = invoices.filter((i) => i.currency === 'EUR');
  const paidInvoice = invoices.find((i) => i.number === 'KL-2026-311')!;

  try {
    await test.step('sign in with email and password', async () => {
      await page.goto('/');
      await page.getByLabel('Email').fill(OWNER.email);
      await page.getByLabel('Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    });

    await test.step('connect the IMAP mailbox in Settings and show its invoices only', async () => {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Settings/ })
        .click();
      await expect(page).toHaveURL(/\/settings$/);
      await connectImap(page, 'journey', MAILBOX);
      // The header's account selector: this mailbox, in the Current Account scope.
      const selector = page.getByRole('combobox', { name: 'Account' });
      const option = selector.getByRole('option', { name: new RegExp(`^${MAILBOX}`) });
      await selector.selectOption((await option.getAttribute('value')) ?? '');
      await expect(page.getByText(`Now showing invoices from ${MAILBOX}`)).toBeVisible();
      await expect(page.getByRole('radio', { name: /Current Account/ })).toBeChecked();
    });

    await test.step('run a full sync: mail, processing and drive upload', async () => {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Invoice Analysis/ })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Invoice Analysis' })).toBeVisible();
      await page.getByRole('button', { name: 'Run Full Sync' }).click();
      await expect(page.getByRole('button', { name: 'Sync Gmail' })).toBeDisabled();
      // The drive upload is the last part: every card is filed when the job is done.
      for (const invoice of invoices) {
        await expect(card(page, invoice).getByText('Ready to Process', { exact: true })).toBeVisible({
          timeout: 120_000,
        });
      }
      await expect(page.getByRole('button', { name: 'Run Full Sync' })).toBeEnabled({ timeout: 30_000 });
      await expect(
        page.getByText(`Showing ${invoices.length} likely invoices out of ${invoices.length + 1} total emails.`, {
          exact: false,
        }),
      ).toBeVisible();
    });

    await test.step('each card shows the amount, date and number its PDF prints', async () => {
      for (const invoice of invoices) {
        const c = card(page, invoice);
        await expect(c.getByText(invoice.shown, { exact: true })).toBeVisible();
        const [y, m, d] = invoice.date.split('-');
        await expect(c.getByText(`${m}/${d}/${y}`, { exact: true })).toBeVisible();
        await expect(c.getByText(`No. ${invoice.number}`, { exact: true })).toBeVisible();
        await expect(c.getByText(invoice.file, { exact: true })).toBeVisible();
      }
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: shot('journey-invoices'), fullPage: true });
    });

    await test.step('the dashboard lists them and totals each currency apart', async () => {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Dashboard/ })
        .click();
      const recent = page.getByRole('main').getByRole('listitem').filter({ hasText: invoices[0]!.vendor });
      await expect(recent).toContainText(invoices[0]!.shown);
      const eurTotal = eur.reduce((sum, i) => sum + i.amount_minor, 0);
      const eurText = `€${(eurTotal / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
      await expect(page.getByText(eurText, { exact: true }).first()).toBeVisible();
      await page.getByRole('button', { name: '+ 1 currency' }).click();
      await expect(page.getByRole('list', { name: 'Total amount per currency' })).toContainText('CHF 1,234.50');
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: shot('journey-dashboard'), fullPage: true });
    });

    await test.step('filters: vendor, month, search on Enter', async () => {
      await page.goto('/invoice-analysis');
      await expect(card(page, invoices[0]!)).toBeVisible();
      await page.getByLabel('Vendor').selectOption(paidInvoice.vendor);
      await expect(page.getByText('1 invoices found')).toBeVisible();
      await expect(card(page, paidInvoice)).toBeVisible();
      await expect(page.getByRole('heading', { name: invoices[0]!.vendor })).toHaveCount(0);
      await page.getByRole('button', { name: 'Clear Filters' }).click();

      const month = invoices[0]!.date.slice(0, 7);
      await page.getByLabel('Month').selectOption(month);
      const inMonth = invoices.filter((i) => i.date.startsWith(month));
      await expect(page.getByText(`${inMonth.length} invoices found`)).toBeVisible();
      for (const invoice of inMonth) await expect(card(page, invoice)).toBeVisible();
      await page.getByRole('button', { name: 'Clear Filters' }).click();

      // Typing alone does not search; Enter does.
      const search = page.getByLabel('Search');
      await search.fill('F-2026-0093');
      await expect(page.getByRole('button', { name: 'Clear Filters' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: invoices[0]!.vendor })).toBeVisible();
      await search.press('Enter');
      await expect(page.getByText('1 invoices found')).toBeVisible();
      await expect(card(page, invoices[3]!).getByText('€3,456.78', { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Clear Filters' }).click();
      await expect(search).toHaveValue('');
    });

    await test.step('View opens the PDF in a popup; Download saves the very file', async () => {
      const invoice = invoices[1]!;
      const c = card(page, invoice);
      const viewOpened = page.waitForEvent('popup');
      await c.getByRole('button', { name: 'View' }).click();
      const viewer = await viewOpened;
      await expect(viewer.locator(`iframe[title="${invoice.file}"]`)).toHaveAttribute(
        'src',
        /^data:application\/pdf;base64,JVBERi0/,
        { timeout: 15_000 },
      );
      await viewer.close();

      const downloading = page.waitForEvent('download');
      await c.getByRole('button', { name: 'Download' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(invoice.file);
      expect((await fs.readFile((await download.path())!)).equals(pdfs.get(invoice.number)!)).toBe(true);
    });

    await test.step('Drive: the card opens the filed file; the drive holds each one named by date, vendor, number', async () => {
      const invoice = invoices[0]!;
      let served: { status: number; body: Buffer } | undefined;
      await page.context().route('**/api/v1/drive/open?link=*', async (route) => {
        const response = await route.fetch();
        served = { status: response.status(), body: await response.body() };
        await route.fulfill({ response });
      });
      const popupOpened = page.waitForEvent('popup');
      await card(page, invoice).getByRole('button', { name: 'Drive', exact: true }).click();
      const popup = await popupOpened;
      await expect.poll(() => served?.status).toBe(200);
      expect(served!.body.equals(pdfs.get(invoice.number)!)).toBe(true);
      await popup.close();
      await page.context().unroute('**/api/v1/drive/open?link=*');

      // Settings → Drive names the folder of this server's local drive.
      await page.goto('/settings');
      const drive = page.getByRole('status').filter({ hasText: 'Local folder' });
      await expect(drive.getByText('Connected', { exact: true })).toBeVisible();
      const root = ((await drive.locator('p').nth(1).textContent()) ?? '').trim();
      for (const i of invoices) {
        const [y, m] = i.date.split('-');
        const file = path.join(root, 'Invoices', y!, m!, `${i.date} ${i.vendor} ${i.number}.pdf`);
        expect((await fs.readFile(file)).equals(pdfs.get(i.number)!), file).toBe(true);
      }
    });

    await test.step('a camt.053 statement pays one invoice; the match shows on the statement and the card', async () => {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Bank Statement Analysis/ })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Bank Statement Analysis' })).toBeVisible();
      await page.getByLabel('Statement export file').setInputFiles({
        name: 'journey-camt053.xml',
        mimeType: 'application/xml',
        buffer: Buffer.from(camt053(paidInvoice)),
      });
      await page.getByRole('button', { name: 'Analyze Export' }).click();
      await expect(page.getByText('Your bank statement has been successfully analyzed.')).toBeVisible({
        timeout: 60_000,
      });
      const overview = page.getByLabel('Overview');
      await expect(overview).toContainText('Total Transactions2');
      await expect(overview).toContainText('Matched1');
      const rows = page.getByRole('table').getByRole('row');
      const paid = rows.filter({ hasText: 'Kaufhaus Lindner' });
      await expect(paid).toContainText(`-${paidInvoice.shown}`);
      await expect(paid.getByText('Matched', { exact: true })).toBeVisible();
      await expect(paid).toContainText(paidInvoice.number);
      await expect(rows.filter({ hasText: 'Corner Cafe' }).getByText('Unmatched', { exact: true })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: shot('journey-bank'), fullPage: true });

      // By the sidebar, as a person goes: the list was cached before the statement came.
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Invoice Analysis/ })
        .click();
      const c = card(page, paidInvoice);
      await expect(c.getByText('Paid', { exact: true })).toBeVisible();
      await expect(c).toContainText(`Paid ${usDate(plusDays(paidInvoice.date, 3))}: ${paidInvoice.shown}`);
    });

    await test.step('forwarding to one recipient: Forward Now delivers each invoice once', async () => {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Forwarding/ })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'Invoice Forwarding' })).toBeVisible();
      const toggle = page.getByRole('switch', { name: 'Enable forwarding' });
      await expect(toggle).not.toBeChecked();
      await toggle.click();
      const address = page.getByLabel('Recipient email address');
      await address.fill(RECIPIENT);
      await address.press('Enter');
      await expect(page.getByRole('heading', { name: 'Recipients (1 of 20)' })).toBeVisible();
      await page.getByRole('button', { name: 'Save Configuration' }).click();
      await expect(page.getByText('Forwarding configuration updated successfully')).toBeVisible();
      const status = page.getByRole('region', { name: 'Forwarding status' });
      await expect(status.getByText('Active')).toBeVisible();
      await expect(status).toContainText('1 recipient');

      await page.getByRole('button', { name: 'Forward Now' }).click();
      await expect(page.getByText('Invoice forwarding started')).toBeVisible();
      const expected = invoices.map((_, i) => `e2e-journey-${i}`).sort();
      await expect.poll(forwardedOriginals, { timeout: 90_000 }).toEqual(expected);
      // The job ends; nothing more arrives, nothing twice.
      await expect
        .poll(
          async () => {
            const { jobs } = await api.get<{ jobs: Array<{ type: string; status: string }> }>('/jobs?limit=20');
            return jobs.find((j) => j.type === 'invoice_forwarding')?.status;
          },
          { timeout: 60_000 },
        )
        .toBe('completed');
      expect(await forwardedOriginals()).toEqual(expected);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: shot('journey-forwarding'), fullPage: true });

      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /Invoice Analysis/ })
        .click();
      for (const invoice of invoices) {
        await expect(card(page, invoice).getByText(`Forwarded to ${RECIPIENT}`).first()).toBeVisible();
      }

      // Switched off again, the recipient removed, as it was before.
      await page.goto('/forwarding');
      await page.getByRole('button', { name: `Remove ${RECIPIENT}` }).click();
      await page.getByRole('switch', { name: 'Enable forwarding' }).click();
      await page.getByRole('button', { name: 'Save Configuration' }).click();
      await expect(page.getByText('Forwarding configuration updated successfully')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Forwarding status' }).getByText('Inactive')).toBeVisible();
    });

    await test.step('History lists the jobs of the journey, finished', async () => {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: /History/ })
        .click();
      await expect(page.getByRole('tab', { name: 'Activity' })).toHaveAttribute('aria-selected', 'true');
      const activity = page.getByRole('list', { name: 'Activity' }).getByRole('listitem');
      for (const label of ['Full Sync', 'Bank Statement Analysis', 'Invoice Forwarding']) {
        await expect(activity.filter({ hasText: label }).first()).toContainText('Completed');
      }
      await page.getByRole('tab', { name: 'Bank Statements' }).click();
      await expect(
        page
          .getByRole('list', { name: 'Bank statements' })
          .getByRole('listitem')
          .filter({ hasText: 'journey-camt053.xml' }),
      ).toContainText('Processed');
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: shot('journey-history'), fullPage: true });
      // The statements are cleared again when the journey found none.
      if (statementsBefore.statements.length === 0) {
        await page.getByRole('button', { name: 'Clear All' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Clear All' }).click();
        await expect(page.getByText('No bank statements uploaded yet')).toBeVisible();
      }
    });

    await test.step('Settings: account scope, Set Primary, the primary cannot be removed, remove the mailboxes', async () => {
      await page.goto('/settings');
      await page.getByRole('radio', { name: /All Accounts/ }).click();
      await expect(page.getByText('Switched to all accounts scope')).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Account' })).toHaveValue('__all__');
      await page.getByRole('radio', { name: /Current Account/ }).click();
      await expect(page.getByText('Switched to current account scope')).toBeVisible();
      await expect(page.getByRole('radio', { name: /Current Account/ })).toBeChecked();

      await connectImap(page, 'spare', SPARE);
      const spare = page.getByRole('main').getByRole('listitem').filter({ hasText: SPARE });
      const mine = page.getByRole('main').getByRole('listitem').filter({ hasText: MAILBOX });
      await spare.getByRole('button', { name: 'Set Primary' }).click();
      await expect(page.getByText(`Set ${SPARE} as primary account`)).toBeVisible();
      await expect(spare.getByText('Primary', { exact: true })).toBeVisible();
      await expect(page.getByRole('option', { name: `${SPARE} (Primary)` })).toBeAttached();

      // The primary stays while other mailboxes exist.
      await spare.getByRole('button', { name: `Remove ${SPARE}` }).click();
      await page
        .getByRole('dialog', { name: `Remove ${SPARE}?` })
        .getByRole('button', { name: 'Remove' })
        .click();
      await expect(
        page.getByText('Cannot remove primary account. Set another account as primary first.'),
      ).toBeVisible();
      await expect(spare).toBeVisible();

      await mine.getByRole('button', { name: 'Set Primary' }).click();
      await expect(page.getByText(`Set ${MAILBOX} as primary account`)).toBeVisible();
      await spare.getByRole('button', { name: `Remove ${SPARE}` }).click();
      await page
        .getByRole('dialog', { name: `Remove ${SPARE}?` })
        .getByRole('button', { name: 'Remove' })
        .click();
      await expect(page.getByText(`Removed account: ${SPARE}`)).toBeVisible();
      await expect(spare).toHaveCount(0);

      // The owner's own primary (another spec's mailbox) takes over again before this one goes.
      const primary = before.accounts.find((a) => a.isPrimary);
      if (primary) {
        await page
          .getByRole('main')
          .getByRole('listitem')
          .filter({ hasText: primary.email })
          .getByRole('button', { name: 'Set Primary' })
          .click();
        await expect(page.getByText(`Set ${primary.email} as primary account`)).toBeVisible();
      }
      await mine.getByRole('button', { name: `Remove ${MAILBOX}` }).click();
      await page
        .getByRole('dialog', { name: `Remove ${MAILBOX}?` })
        .getByRole('button', { name: 'Remove' })
        .click();
      await expect(page.getByText(`Removed account: ${MAILBOX}`)).toBeVisible();
      await expect(mine).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: shot('journey-settings'), fullPage: true });
    });

    await test.step('Log Out', async () => {
      await page.getByRole('button', { name: 'Log Out' }).click();
      await expect(page.getByText('Logged out successfully')).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      expect(await page.evaluate(() => localStorage.getItem('backend_jwt'))).toBeNull();
    });
  } finally {
    // Whatever step stopped the journey, the owner is left as it was found.
    await api.put('/forwarding/config', {
      enabled: forwardingBefore.enabled,
      target_emails: forwardingBefore.target_emails,
    });
    const now = await api.get<Accounts>('/gmail/accounts');
    const primary = before.accounts.find((a) => a.isPrimary);
    if (primary) await api.post(`/gmail/accounts/${primary.userId}/primary`);
    for (const account of now.accounts.filter((a) => a.email === SPARE || a.email === MAILBOX)) {
      await api.delete(`/gmail/accounts/${account.userId}`);
    }
    if (before.session.activeUserId) await api.post(`/gmail/accounts/${before.session.activeUserId}/activate`);
    await api.put('/gmail/accounts/scope', {
      selectedScope: before.session.selectedScope,
      selectedUserIds: before.session.selectedUserIds,
    });
    if (statementsBefore.statements.length === 0) await api.delete('/bank-statements/clear-all');
  }

  // The owner as the journey found it, for the specs that run after it.
  const accountsOf = (a: Accounts) => ({
    accounts: a.accounts.map(({ userId, isPrimary, isActive }) => ({ userId, isPrimary, isActive })),
    scope: [a.session.activeUserId, a.session.selectedScope, a.session.selectedUserIds],
  });
  expect(accountsOf(await api.get<Accounts>('/gmail/accounts'))).toEqual(accountsOf(before));
  expect(await api.get<ForwardingConfig>('/forwarding/config')).toMatchObject({
    enabled: forwardingBefore.enabled,
    target_emails: forwardingBefore.target_emails,
  });
  expect((await api.get<{ statements: unknown[] }>('/bank-statements')).statements).toHaveLength(
    statementsBefore.statements.length,
  );
});

const plusDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const money = (minor: number) => (minor / 100).toFixed(2);

/** A camt.053.001.02 statement: the invoice paid 3 days after its date by transfer, and a card payment. */
function camt053(invoice: JourneyInvoice): string {
  const start = plusDays(invoice.date, 1);
  const end = plusDays(invoice.date, 10);
  const opening = 1_000_000;
  const closing = opening - invoice.amount_minor - 1_234;
  const entry = (minor: number, date: string, name: string, text: string) => `
      <Ntry>
        <Amt Ccy="${invoice.currency}">${money(minor)}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
        <BookgDt><Dt>${date}</Dt></BookgDt><ValDt><Dt>${date}</Dt></ValDt>
        <NtryDtls><TxDtls>
          <RltdPties><Cdtr><Nm>${name}</Nm></Cdtr></RltdPties>
          <RmtInf><Ustrd>${text}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  const balance = (code: string, minor: number, date: string) => `
      <Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${invoice.currency}">${money(minor)}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>E2E-JOURNEY-1</MsgId><CreDtTm>${end}T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>E2E-JOURNEY-STMT-1</Id><CreDtTm>${end}T18:00:00</CreDtTm>
      <FrToDt><FrDtTm>${start}T00:00:00</FrDtTm><ToDtTm>${end}T23:59:59</ToDtTm></FrToDt>
      <Acct>
        <Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>${invoice.currency}</Ccy>
        <Svcr><FinInstnId><BIC>COBADEFFXXX</BIC><Nm>Commerzbank</Nm></FinInstnId></Svcr>
      </Acct>
      ${balance('OPBD', opening, start)}
      ${balance('CLBD', closing, end)}
      ${entry(invoice.amount_minor, plusDays(invoice.date, 3), invoice.vendor, `Rechnung ${invoice.number}`)}
      ${entry(1_234, plusDays(invoice.date, 5), 'Corner Cafe', 'Card payment')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}
