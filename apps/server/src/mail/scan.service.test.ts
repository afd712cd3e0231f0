import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMail, buildMbox, FAKE_PDF, FAKE_PNG, mailDatasets } from '../../test/mail/mail-builder';
import type { ExtractedInvoiceFields, FieldExtractor } from './field-extractor';
import type { MailMessage, MailReadError } from './mail-message';
import { bodyDocument, scanPath } from './scan.service';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const XML = Buffer.from('<?xml version="1.0"?><Invoice/>');
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

const none: ExtractedInvoiceFields = {
  vendor: null,
  amount: null,
  currency: null,
  invoice_date: null,
  invoice_number: null,
};

/** Answers per filename and records the order it was asked in. */
function fakeExtractor(answers: Record<string, Partial<ExtractedInvoiceFields> | 'throw' | null>) {
  const calls: string[] = [];
  const extractor: FieldExtractor = {
    async extract(input) {
      calls.push(input.filename);
      const answer = answers[input.filename];
      if (answer === 'throw') throw new Error('extractor bug');
      return answer === undefined || answer === null ? null : { ...none, ...answer };
    },
  };
  return { extractor, calls };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'invoicebox-scan-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function mboxOf(name: string, mails: Buffer[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, buildMbox(mails));
  return file;
}

const invoiceMail = buildMail({
  from: 'Acme Billing <billing@acme.com>',
  subject: 'Your invoice INV-42',
  messageId: '<inv-42@acme.com>',
  attachments: [
    { filename: 'logo.png', contentType: 'image/png', content: FAKE_PNG, disposition: 'inline' },
    { filename: 'invoice.pdf', contentType: 'application/pdf', content: FAKE_PDF },
    { filename: 'terms.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 terms') },
  ],
});

describe('scanPath', () => {
  it('lists the accepted emails with their qualifying attachments only, in the exact shape', async () => {
    const file = await mboxOf('mixed.mbox', [
      invoiceMail,
      buildMail({
        from: 'Acme Newsletter <news@acme.com>',
        subject: 'October news',
        attachments: [{ filename: 'invoice.pdf', content: FAKE_PDF }],
      }),
      buildMail({
        from: 'billing@shop.example',
        subject: 'Order confirmation',
        attachments: [{ filename: 'receipt.pdf', content: FAKE_PDF }],
      }),
      buildMail({
        from: 'friend@example.org',
        subject: 'Photos',
        attachments: [{ filename: 'notes.txt', content: 'hi' }],
      }),
      buildMail({
        from: 'no-reply@cloud.example',
        subject: 'Receipt',
        messageId: '',
        attachments: [{ filename: 'scan.jpg', content: JPG }],
      }),
    ]);
    const { extractor } = fakeExtractor({
      'invoice.pdf': {
        vendor: 'ACME Corporation',
        amount: 129.9,
        currency: 'EUR',
        invoice_date: '2026-11-01',
        invoice_number: 'INV-42',
      },
    });
    const result = await scanPath(file, { extractor });
    expect(result).toEqual({
      total_emails: 5,
      invoices: [
        {
          message_id: '<inv-42@acme.com>',
          email: 'billing@acme.com',
          vendor: 'ACME Corporation',
          amount: 129.9,
          currency: 'EUR',
          invoice_date: '2026-11-01',
          invoice_number: 'INV-42',
          document_type: null,
          attachments: [{ filename: 'invoice.pdf', size: FAKE_PDF.length, sha256: sha256(FAKE_PDF) }],
        },
        {
          message_id: null,
          email: 'no-reply@cloud.example',
          vendor: 'cloud.example',
          amount: null,
          currency: null,
          invoice_date: null,
          invoice_number: null,
          document_type: null,
          attachments: [{ filename: 'scan.jpg', size: JPG.length, sha256: sha256(JPG) }],
        },
      ],
    });
    expect(Object.keys(result)).toEqual(['total_emails', 'invoices']);
    expect(Object.keys(result.invoices[0]!)).toEqual([
      'message_id',
      'email',
      'vendor',
      'amount',
      'currency',
      'invoice_date',
      'invoice_number',
      'document_type',
      'attachments',
    ]);
  });

  it('takes the document type of the file that gave the amount, else of the first file that told one', async () => {
    const file = await mboxOf('types.mbox', [
      buildMail({
        messageId: '<t1@x>',
        attachments: [
          { filename: 'invoice-delivery.pdf', contentType: 'application/pdf', content: FAKE_PDF },
          { filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 other') },
        ],
      }),
      buildMail({
        messageId: '<t2@x>',
        attachments: [{ filename: 'invoice-order.pdf', contentType: 'application/pdf', content: FAKE_PDF }],
      }),
    ]);
    const { extractor } = fakeExtractor({
      'invoice-delivery.pdf': { document_type: 'delivery_note' },
      'invoice.pdf': { amount: 12, currency: 'EUR', document_type: 'invoice' },
      'invoice-order.pdf': { document_type: 'order_confirmation' },
    });
    const { invoices } = await scanPath(file, { extractor });
    expect(invoices.map((i) => i.document_type)).toEqual(['invoice', 'order_confirmation']);
  });

  it('tries PDFs, then XML, then images, then the rest, and stops at the first amount', async () => {
    const file = await mboxOf('order.mbox', [
      buildMail({
        attachments: [
          { filename: 'bill.docx', content: 'doc' },
          { filename: 'invoice-photo.jpg', contentType: 'image/jpeg', content: JPG },
          { filename: 'invoice.xml', contentType: 'application/xml', content: XML },
          { filename: 'invoice-summary.pdf', contentType: 'application/pdf', content: FAKE_PDF },
          { filename: 'invoice-detail.pdf', contentType: 'application/pdf', content: FAKE_PDF },
        ],
      }),
    ]);
    const { extractor, calls } = fakeExtractor({
      'invoice-summary.pdf': { invoice_number: 'A-1', vendor: 'Noise Ltd' },
      'invoice-detail.pdf': null,
      'invoice.xml': {
        amount: 10,
        currency: 'EUR',
        invoice_number: 'B-2',
        invoice_date: '2026-10-31',
        vendor: 'Real Seller',
      },
      'invoice-photo.jpg': { amount: 99 },
    });
    const [invoice] = (await scanPath(file, { extractor })).invoices;
    expect(calls).toEqual(['invoice-summary.pdf', 'invoice-detail.pdf', 'invoice.xml']);
    // Fields merge first-found; the vendor comes only from the attachment that gave the amount.
    expect(invoice).toMatchObject({
      vendor: 'Real Seller',
      amount: 10,
      currency: 'EUR',
      invoice_number: 'A-1',
      invoice_date: '2026-10-31',
    });
    expect(invoice?.attachments.map((a) => a.filename)).toEqual([
      'bill.docx',
      'invoice-photo.jpg',
      'invoice.xml',
      'invoice-summary.pdf',
      'invoice-detail.pdf',
    ]);
  });

  it('keeps the email vendor when no attachment gives an amount, and goes on when the extractor throws', async () => {
    const file = await mboxOf('noamount.mbox', [
      buildMail({
        from: 'Billing <billing@acme.com>',
        attachments: [
          { filename: 'invoice.pdf', contentType: 'application/pdf', content: FAKE_PDF },
          { filename: 'receipt.png', contentType: 'image/png', content: FAKE_PNG },
        ],
      }),
    ]);
    const { extractor, calls } = fakeExtractor({
      'invoice.pdf': 'throw',
      'receipt.png': { vendor: 'Fo', invoice_date: '2026-01-02' },
    });
    const failures: string[] = [];
    const [invoice] = (
      await scanPath(file, { extractor, onExtractionError: (_origin, filename) => failures.push(filename) })
    ).invoices;
    expect(calls).toEqual(['invoice.pdf', 'receipt.png']);
    expect(failures).toEqual(['invoice.pdf']);
    expect(invoice).toMatchObject({ vendor: 'Billing', amount: null, invoice_date: '2026-01-02' });
  });

  it('accepts emails without attachments when they are optional', async () => {
    const file = await mboxOf('optional.mbox', [buildMail({ subject: 'Invoice paid' })]);
    expect((await scanPath(file)).invoices).toHaveLength(0);
    expect((await scanPath(file, { attachmentsRequired: false })).invoices).toMatchObject([
      { vendor: 'Acme Billing', attachments: [] },
    ]);
  });

  it('reads the fields of an invoice that exists only as an HTML mail body; the sender stays the vendor', async () => {
    const mail = Buffer.from(
      [
        'From: Rides <receipts@rides.example>',
        'To: me@example.com',
        'Subject: Your Tuesday evening trip receipt',
        'Date: Tue, 04 Mar 2025 21:14:00 +0000',
        'Message-ID: <trip-1@rides.example>',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<html><body><p>Thanks for riding</p><table><tr><td>Total</td><td>&euro;14.20</td></tr></table></body></html>',
        '',
      ].join('\r\n'),
    );
    const file = await mboxOf('html-body.mbox', [mail]);
    const seen: Array<{ filename: string; body: string }> = [];
    const extractor: FieldExtractor = {
      async extract(input) {
        seen.push({ filename: input.filename, body: Buffer.from(input.bytes).toString('utf8') });
        return { ...none, vendor: 'Thanks for riding', amount: 14.2, currency: 'EUR' };
      },
    };
    expect((await scanPath(file, { extractor })).invoices).toHaveLength(0);
    const [invoice] = (await scanPath(file, { extractor, attachmentsRequired: false })).invoices;
    expect(seen).toEqual([
      { filename: 'Your Tuesday evening trip receipt.html', body: expect.stringContaining('<td>Total</td>') },
    ]);
    expect(invoice).toMatchObject({ vendor: 'Rides', amount: 14.2, currency: 'EUR', attachments: [] });
  });

  it('keeps an HTML body as a document: safe name from any subject, UTF-8, no script or remote load when opened', () => {
    const html = '<html><body><script>alert(1)</script><img src="https://t.example/p.gif">Total 9,90 €</body></html>';
    const of = (subject: string | null, body: MailMessage['body']) =>
      bodyDocument({
        origin: 'x',
        messageId: null,
        from: null,
        subject,
        date: null,
        textSnippet: '',
        attachments: [],
        skippedParts: [],
        ...(body ? { body } : {}),
      });
    const long = 'Receipt '.repeat(63).slice(0, 500);
    const names = ['../../etc/passwd', 'a\u0000b/..\\c', long, '...', '', null, 'CON', '\u202egpj.exe'].map(
      (subject) => of(subject, { html, text: 'Total 9,90 €' })!.filename,
    );
    expect(names.slice(0, 2)).toEqual(['-..-etc-passwd.html', 'a b-..-c.html']);
    // Cut to 120 bytes with the extension kept.
    expect(names[2]).toBe(`${long.slice(0, 115)}.html`);
    expect(names.slice(3)).toEqual(['mail.html', 'mail.html', 'mail.html', '_CON.html', 'gpj.exe.html']);
    for (const name of names) {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      expect(name).not.toMatch(/[\u0000-\u001f/\\]|^\./);
    }
    const document = of('Your order', { html, text: 'Total 9,90 €' })!;
    const text = document.content.toString('utf8');
    expect(document).toMatchObject({
      filename: 'Your order.html',
      contentType: 'text/html',
      size: document.content.length,
    });
    expect(document.sha256).toBe(sha256(document.content));
    // A byte order mark (the browser's charset whatever the mail's tags claim), then a policy, then the body unchanged.
    expect([...document.content.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text).toMatch(/^\ufeff<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*">\n/);
    expect(text.endsWith(html)).toBe(true);
    expect(of('Your order', { html: null, text: 'Total 9,90 €' })).toMatchObject({
      filename: 'Your order.txt',
      contentType: 'text/plain',
      content: Buffer.from('\ufeffTotal 9,90 €'),
    });
    expect(of('Empty', { html: '  ', text: ' ' })).toBeNull();
    expect(of('Added file', undefined)).toBeNull();
  });

  it('counts unreadable messages, reports them, and goes on', async () => {
    const file = path.join(dir, 'hostile.mbox');
    await writeFile(
      file,
      Buffer.concat([
        buildMbox([invoiceMail]),
        Buffer.from('From junk@x Mon Nov  2 10:00:00 2026\n\u0000\u0001binary\u0002junk\n\n'),
        buildMbox([invoiceMail]),
      ]),
    );
    const errors: MailReadError[] = [];
    const result = await scanPath(file, { onUnreadable: (error) => errors.push(error) });
    expect(result.total_emails).toBe(3);
    expect(result.invoices).toHaveLength(2);
    expect(errors).toMatchObject([{ origin: `${file}#2`, code: 'not_a_message' }]);
  });

  it('scans the dataset mails', async () => {
    const result = await scanPath(mailDatasets);
    expect(result.total_emails).toBe(37);
    // Sample mails with images and PDFs-by-extension: those with a document-like attachment and no rejection word.
    expect(result.invoices).toHaveLength(17);
    expect(result.invoices.find((i) => i.email === 'andris@kreata.ee')).toMatchObject({
      message_id: '<012d606e-3550-2d94-b566-6cd996de88e3@kreata.ee>',
      vendor: 'Andris Kreata',
      attachments: [
        { filename: 'image.png', size: 126 },
        { filename: 'nyan cat ✔.gif', size: 29361 },
      ],
    });
    for (const invoice of result.invoices) {
      expect(invoice.attachments.length).toBeGreaterThan(0);
      for (const attachment of invoice.attachments) expect(attachment.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
