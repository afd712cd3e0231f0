import { describe, expect, it } from 'vitest';
import { extractFieldsFromLines } from '../rules/fields.rules';
import { minorToNumber } from '../rules/money.parser';
import { htmlToText, looksLikeHtml } from './html';
import { linesFromPlainText } from './lines';

const RECEIPT_MAIL = `<!DOCTYPE html><html><head><title>Your receipt</title><style>td{color:red}</style></head>
<body><div class="logo">Nordlicht Reisen GmbH</div>
<p>Thank you for your order!</p>
<table>
  <tr><td>Receipt number</td><td>RC-2024-0815</td></tr>
  <tr><td>Date</td><td>12 March 2024</td></tr>
</table>
<table>
  <tr><th>Item</th><th>Qty</th><th>Price</th></tr>
  <tr><td>Rail pass <b>2nd class</b></td><td>1</td><td>&euro;&nbsp;89,00</td></tr>
  <tr><td>Seat reservation</td><td>2</td><td>&euro;&nbsp;9,00</td></tr>
  <tr><td>Subtotal</td><td></td><td>&euro;&nbsp;98,00</td></tr>
  <tr><td><strong>Total</strong></td><td></td><td><strong>&euro;&nbsp;98,00</strong></td></tr>
</table>
<p>Nordlicht Reisen GmbH &middot; Hafenstra&szlig;e 1 &middot; 20457 Hamburg</p>
<script>track()</script></body></html>`;

describe('HTML documents (mail bodies, saved receipts)', () => {
  it('keeps rows as lines and cells apart, drops scripts, styles and the head, decodes entities', () => {
    const text = htmlToText(RECEIPT_MAIL);
    expect(text).toContain('Receipt number   RC-2024-0815');
    expect(text).toContain('Rail pass 2nd class   1   € 89,00');
    expect(text).not.toMatch(/track\(\)|color:red|Your receipt/);
    expect(text.split('\n')[0]).toBe('Nordlicht Reisen GmbH');
  });

  it('gives the rules what they need to read the fields', () => {
    const r = extractFieldsFromLines(linesFromPlainText(htmlToText(RECEIPT_MAIL)));
    expect(r.amount && minorToNumber(r.amount.value.minor, r.amount.value.decimals)).toBe(98);
    expect(r.currency?.value).toBe('EUR');
    expect(r.invoice_number?.value).toBe('RC-2024-0815');
    expect(r.invoice_date?.value).toBe('2024-03-12');
  });

  it('tells HTML from e-invoice XML', () => {
    expect(looksLikeHtml('<!DOCTYPE html><html>', 'body')).toBe(true);
    expect(looksLikeHtml('<html lang="en">', 'x')).toBe(true);
    expect(looksLikeHtml('<?xml version="1.0"?><Invoice>', 'invoice.xml')).toBe(false);
    expect(looksLikeHtml('<rsm:CrossIndustryInvoice>', 'factur-x.xml')).toBe(false);
    expect(looksLikeHtml('anything', 'receipt.html')).toBe(true);
  });
});
