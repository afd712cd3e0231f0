import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

// The server of this run listens for invoice addresses at E2E port + 3 (playwright.config.ts).
const smtpPort = Number(process.env.E2E_PORT ?? 4318) + 3;

function invoicePdf(number: string): Buffer {
  // A small but real one-page PDF with a text layer, so the card gets read fields.
  const text = `BT /F1 12 Tf 72 720 Td (Northwind Traders GmbH  Invoice ${number}  Date 2026-11-02  Total EUR 1,234.56) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

test('an invoice mailed to the personal address arrives; a stranger and a relay are refused', async ({
  page,
  request,
}) => {
  await signInAsOwner(page, request);
  await page.goto('/settings');
  const card = page.getByRole('region', { name: 'Mail invoices in' });
  const shown = page.getByTestId('inbound-address');
  await expect(shown).toHaveText(/^invoices\+[0-9a-f]{20}@in\.invoicebox\.test$/);
  const address = (await shown.textContent()) ?? '';

  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
  const sent = await transport.sendMail({
    from: 'Northwind Billing <billing@northwind.example>',
    to: address,
    subject: 'Invoice NW-2026-311',
    text: 'Please find your invoice attached.',
    attachments: [{ filename: 'NW-2026-311.pdf', content: invoicePdf('NW-2026-311') }],
  });
  expect(sent.accepted).toEqual([address]);
  await expect(
    transport.sendMail({ from: 'x@example.com', to: 'someone@elsewhere.example', subject: 'relay?', text: 'no' }),
  ).rejects.toMatchObject({ responseCode: 550 });

  // The mail becomes an import job; once it has run, Settings lists it as an invoice.
  await expect(async () => {
    await page.reload();
    await expect(card.getByText('Invoice NW-2026-311')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(card.getByText('Invoice', { exact: true })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: shot('settings-inbound-address') });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(shown).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: shot('settings-inbound-address-phone') });
});
