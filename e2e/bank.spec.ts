import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, test } from '@playwright/test';
import type { TextRun } from '../apps/server/eval/invoice.generator';
import { renderPdf } from '../apps/server/eval/invoice.renderers';
import { importInvoiceMail } from './import-mail';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

// Screenshots of this spec are for looking at, not for the repository.
const invoicePdf = fileURLToPath(new URL('../../shared/datasets/invoices-pdf/NetpresseInvoice.pdf', import.meta.url));

interface Invoice {
  id: string;
  vendor: string | null;
  amount_minor: number | null;
  currency: string | null;
  invoice_date: string | null;
  invoice_number: string | null;
}

/** Imports one invoice mail as the owner and returns the invoice as the server read it from its PDF. */
async function importInvoice(request: APIRequestContext, token: string): Promise<Invoice> {
  const auth = { authorization: `Bearer ${token}` };
  await importInvoiceMail(request, token, {
    from: 'NETPRESSE <factures@netpresse.example>',
    subject: 'Votre facture',
    messageId: '<bank-e2e-netpresse@example.com>',
    pdf: invoicePdf,
    filename: 'facture-netpresse.pdf',
  });
  const accounts = (await (await request.get('/api/v1/gmail/accounts', { headers: auth })).json()) as {
    accounts: Array<{ userId: string }>;
  };
  const res = await request.get('/api/v1/invoices', {
    headers: auth,
    params: {
      search: 'NETPRESSE',
      has_attachments: 'false',
      user_ids: accounts.accounts.map((a) => a.userId).join(','),
    },
  });
  const invoice = ((await res.json()) as { invoices: Invoice[] }).invoices.find((i) => i.amount_minor !== null);
  if (!invoice?.amount_minor || !invoice.invoice_date) throw new Error('the imported invoice has no amount or date');
  return invoice;
}

const plusDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const money = (minor: number) => (minor / 100).toFixed(2);

const usDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** A text PDF statement as a bank prints it: header, opening and closing balance, a table with a signed amount. */
async function pdfStatement(invoice: Invoice): Promise<Buffer> {
  const start = plusDays(invoice.invoice_date!, 1);
  const end = plusDays(invoice.invoice_date!, 20);
  const opening = 540_000;
  const rows: Array<[string, string, number]> = [
    [
      plusDays(invoice.invoice_date!, 4),
      `Transfer to NETPRESSE ${invoice.invoice_number ?? ''}`,
      -invoice.amount_minor!,
    ],
    [plusDays(invoice.invoice_date!, 6), 'Card payment Corner Cafe', -2_480],
    [plusDays(invoice.invoice_date!, 9), 'Salary ACME GmbH', 310_000],
  ];
  const closing = rows.reduce((sum, [, , minor]) => sum + minor, opening);
  const amount = (minor: number) =>
    `${minor < 0 ? '-' : ''}${(Math.abs(minor) / 100).toLocaleString('en-GB', { minimumFractionDigits: 2 })}`;
  const runs: TextRun[] = [
    { page: 1, x: 40, y: 50, text: 'Northwind Bank', size: 16, bold: true },
    { page: 1, x: 555, y: 50, text: 'Account Statement', size: 12, bold: true, align: 'right' },
    { page: 1, x: 40, y: 80, text: 'Account holder: M. Example', size: 9 },
    { page: 1, x: 40, y: 94, text: 'IBAN: GB82WEST12345698765432', size: 9 },
    { page: 1, x: 40, y: 108, text: `Statement period: ${usDate(start)} to ${usDate(end)}`, size: 9 },
    { page: 1, x: 40, y: 122, text: 'Currency: EUR', size: 9 },
    { page: 1, x: 360, y: 94, text: 'Opening balance:', size: 9 },
    { page: 1, x: 555, y: 94, text: amount(opening), size: 9, align: 'right' },
    { page: 1, x: 360, y: 108, text: 'Closing balance:', size: 9 },
    { page: 1, x: 555, y: 108, text: amount(closing), size: 9, align: 'right' },
    { page: 1, x: 40, y: 160, text: 'Date', size: 9, bold: true },
    { page: 1, x: 110, y: 160, text: 'Description', size: 9, bold: true },
    { page: 1, x: 555, y: 160, text: 'Amount', size: 9, bold: true, align: 'right' },
    ...rows.flatMap(([date, text, minor], i): TextRun[] => [
      { page: 1, x: 40, y: 180 + 16 * i, text: usDate(date), size: 9 },
      { page: 1, x: 110, y: 180 + 16 * i, text, size: 9 },
      { page: 1, x: 555, y: 180 + 16 * i, text: amount(minor), size: 9, align: 'right' },
    ]),
  ];
  return Buffer.from(await renderPdf({ pages: 1, runs }));
}

/** A camt.053.001.02 statement: the invoice's payment 3 days after its date, a salary and an unrelated card payment. */
function camt053(invoice: Invoice): string {
  const paid = plusDays(invoice.invoice_date!, 3);
  const opening = 100_000;
  const closing = opening + 250_000 - invoice.amount_minor! - 1_234;
  const entry = (minor: number, dc: 'DBIT' | 'CRDT', date: string, name: string, text: string) => `
      <Ntry>
        <Amt Ccy="EUR">${money(minor)}</Amt><CdtDbtInd>${dc}</CdtDbtInd><Sts>BOOK</Sts>
        <BookgDt><Dt>${date}</Dt></BookgDt><ValDt><Dt>${date}</Dt></ValDt>
        <NtryDtls><TxDtls>
          <RltdPties>${dc === 'DBIT' ? `<Cdtr><Nm>${name}</Nm></Cdtr>` : `<Dbtr><Nm>${name}</Nm></Dbtr>`}</RltdPties>
          <RmtInf><Ustrd>${text}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;
  const balance = (code: string, minor: number, date: string) => `
      <Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${money(minor)}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const start = plusDays(invoice.invoice_date!, 1);
  const end = plusDays(invoice.invoice_date!, 10);
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>E2E-BANK-1</MsgId><CreDtTm>${end}T18:00:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>E2E-STMT-1</Id><CreDtTm>${end}T18:00:00</CreDtTm>
      <FrToDt><FrDtTm>${start}T00:00:00</FrDtTm><ToDtTm>${end}T23:59:59</ToDtTm></FrToDt>
      <Acct>
        <Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy>
        <Svcr><FinInstnId><BIC>COBADEFFXXX</BIC><Nm>Commerzbank</Nm></FinInstnId></Svcr>
      </Acct>
      ${balance('OPBD', opening, start)}
      ${balance('CLBD', closing, end)}
      ${entry(250_000, 'CRDT', plusDays(invoice.invoice_date!, 2), 'ACME GmbH', 'Salary')}
      ${entry(invoice.amount_minor!, 'DBIT', paid, 'NETPRESSE', `Facture ${invoice.invoice_number ?? ''}`)}
      ${entry(1_234, 'DBIT', plusDays(invoice.invoice_date!, 5), 'Corner Cafe', 'Card payment')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

test('Bank Analysis reads a camt.053 and a CSV statement, matches the invoice it paid, and keeps them in History', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await signInAsOwner(page, request);
  const invoice = await importInvoice(request, token);

  await page.goto('/bank-analysis');
  await expect(page.getByRole('heading', { level: 1, name: 'Bank Statement Analysis' })).toBeVisible();

  // Spec §5: only a PDF goes to the vision analysis.
  await page
    .getByLabel(/Bank statement PDF/)
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a statement') });
  await expect(page.getByRole('alert').filter({ hasText: 'Please select a PDF file.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start Vision Analysis' })).toHaveCount(0);
  await page.screenshot({ path: shot('bank-analysis-upload'), fullPage: true });

  // camt.053 through the export chooser and the same upload call.
  await page.getByLabel('Statement export file').setInputFiles({
    name: 'commerzbank-camt053.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(camt053(invoice)),
  });
  await page.getByRole('button', { name: 'Analyze Export' }).click();
  await expect(page.getByText('Your bank statement has been successfully analyzed.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('button', { name: 'Upload New Statement' })).toBeVisible();
  await expect(page.getByText('commerzbank-camt053.xml')).toBeVisible();
  const overview = page.getByLabel('Overview');
  await expect(overview).toContainText('Total Transactions3');
  await expect(overview).toContainText('Matched1');
  await expect(overview).toContainText('Unmatched2');
  const details = page.getByLabel('Statement details');
  await expect(details).toContainText('Commerzbank');
  await expect(details).toContainText('***3000');

  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(4);
  const paid = rows.filter({ hasText: 'NETPRESSE' });
  await expect(paid).toContainText(`-€${money(invoice.amount_minor!)}`);
  await expect(paid.getByText('Matched', { exact: true })).toBeVisible();
  await expect(paid).toContainText(invoice.invoice_number ?? '');
  await expect(rows.filter({ hasText: 'Salary' })).toContainText('+€2,500.00');
  await expect(rows.filter({ hasText: 'Salary' }).getByText('Unmatched', { exact: true })).toBeVisible();
  await expect(rows.filter({ hasText: 'Corner Cafe' }).getByText('Unmatched', { exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('bank-analysis-camt053'), fullPage: true });

  // Unmatch by hand, then match again through the invoice picker.
  await paid.getByRole('button', { name: 'Unmatch' }).click();
  await expect(paid.getByText('Unmatched', { exact: true })).toBeVisible();
  await expect(overview).toContainText('Matched0');
  await paid.getByRole('button', { name: 'Match' }).click();
  const dialog = page.getByRole('dialog', { name: 'Match with an invoice' });
  await dialog.getByLabel('Search invoices').fill('NETPRESSE');
  await dialog.getByLabel('Search invoices').press('Enter');
  await dialog
    .getByRole('button', { name: /NETPRESSE/i })
    .first()
    .click();
  await expect(dialog).toBeHidden();
  await expect(paid.getByText('Matched', { exact: true })).toBeVisible();
  await expect(overview).toContainText('Matched1');

  // A CSV export: no invoice paid by it.
  await page.getByRole('button', { name: 'Upload New Statement' }).click();
  const csv = [
    'Date,Description,Amount,Currency',
    '2024-05-02,Rent May,-850.00,EUR',
    '2024-05-03,Refund Shop,19.99,EUR',
  ];
  await page.getByLabel('Statement export file').setInputFiles({
    name: 'export.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${csv.join('\n')}\n`),
  });
  await page.getByRole('button', { name: 'Analyze Export' }).click();
  await expect(page.getByRole('button', { name: 'Upload New Statement' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('export.csv')).toBeVisible();
  await expect(page.getByLabel('Overview')).toContainText('Total Transactions2');
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'Rent May' })).toContainText('-€850.00');
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'Refund Shop' })).toContainText('+€19.99');

  // History → Bank Statements: both, newest first; a row opens its analysis.
  await page.goto('/history');
  await page.getByRole('tab', { name: 'Bank Statements' }).click();
  const history = page.getByRole('list', { name: 'Bank statements' }).getByRole('listitem');
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toContainText('export.csv');
  await expect(history.nth(1)).toContainText('commerzbank-camt053.xml');
  await expect(history.nth(1)).toContainText('Commerzbank');
  await expect(history.nth(1)).toContainText('***3000');
  await expect(history.nth(1)).toContainText('Processed');
  await page.screenshot({ path: shot('history-bank-statements'), fullPage: true });
  await history.nth(1).click();
  await expect(page).toHaveURL(/\/bank-analysis\?statement=/);
  await expect(page.getByText('commerzbank-camt053.xml')).toBeVisible();
  await expect(page.getByLabel('Overview')).toContainText('Matched1');

  // The dashboard counts them; then History clears them (leaving the run's other specs an empty list).
  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Recent bank statements' }).getByRole('listitem')).toHaveCount(2);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('dashboard-bank'), fullPage: true });
  await page.goto('/history');
  await page.getByRole('tab', { name: 'Bank Statements' }).click();
  await page.getByRole('button', { name: 'Clear All' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByText('All bank statement history cleared successfully')).toBeVisible();
  await expect(page.getByText('No bank statements uploaded yet')).toBeVisible();

  // A PDF statement through the spec's own path: one PDF, its size, 'Start Vision Analysis'.
  await page.goto('/bank-analysis');
  await page.getByLabel(/Bank statement PDF/).setInputFiles({
    name: 'northwind-statement.pdf',
    mimeType: 'application/pdf',
    buffer: await pdfStatement(invoice),
  });
  await expect(page.getByText('northwind-statement.pdf')).toBeVisible();
  await page.getByRole('button', { name: 'Start Vision Analysis' }).click();
  await expect(page.getByText('Your bank statement has been successfully analyzed.')).toBeVisible({
    timeout: 90_000,
  });
  await expect(page.getByLabel('Overview')).toContainText('Total Transactions3');
  await expect(page.getByLabel('Overview')).toContainText('Matched1');
  await expect(page.getByLabel('Statement details')).toContainText('Northwind Bank');
  const pdfRows = page.getByRole('table').getByRole('row');
  await expect(pdfRows.filter({ hasText: 'NETPRESSE' }).getByText('Matched', { exact: true })).toBeVisible();
  await expect(pdfRows.filter({ hasText: 'Salary ACME' })).toContainText('+€3,100.00');
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: shot('bank-analysis-pdf'), fullPage: true });
  await page.goto('/history');
  await page.getByRole('tab', { name: 'Bank Statements' }).click();
  await page.getByRole('button', { name: 'Clear All' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByText('No bank statements uploaded yet')).toBeVisible();
});
