import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildForwardMessage, coverSubject, forwardingMessageId } from './forward-message';

const original = Buffer.from(
  [
    'From: Acme Billing <billing@acme.example>',
    'To: me@example.com',
    'Subject: Invoice 42',
    'Message-ID: <orig-42@acme.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Grüße, your invoice is attached.',
    '--b1',
    'Content-Type: application/pdf; name="invoice-42.pdf"',
    'Content-Disposition: attachment; filename="invoice-42.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('%PDF-1.4 invoice 42').toString('base64'),
    '--b1--',
    '',
  ].join('\r\n'),
);

describe('the forwarding mail', () => {
  it('has a deterministic Message-ID per invoice and recipient, case-insensitive in the address', () => {
    const a = forwardingMessageId('inv-1', 'Books@Example.com');
    expect(a).toBe(forwardingMessageId('inv-1', 'books@example.com'));
    expect(a).toMatch(/^<fwd-[0-9a-f]{32}@invoicebox>$/);
    expect(a).not.toBe(forwardingMessageId('inv-1', 'other@example.com'));
    expect(a).not.toBe(forwardingMessageId('inv-2', 'books@example.com'));
  });

  it('is a cover mail with the original attached byte for byte as message/rfc822', async () => {
    const messageId = forwardingMessageId('inv-1', 'books@example.com');
    const built = await buildForwardMessage(
      {
        invoiceId: 'inv-1',
        vendor: 'Acme',
        amount: '€12.50',
        invoiceDate: '2026-03-01',
        subject: 'Invoice 42',
        senderEmail: 'billing@acme.example',
        raw: original,
        attachments: [],
      },
      { from: 'me@example.com', to: 'books@example.com', messageId },
    );
    const text = built.toString('utf8');
    expect(built.includes(original)).toBe(true);
    expect(text).toMatch(/Content-Type: message\/rfc822/);
    expect(text).toMatch(/Content-Transfer-Encoding: 8bit/);
    const parsed = await simpleParser(built);
    expect(parsed.messageId).toBe(messageId);
    expect(parsed.subject).toBe('Invoice from Acme, €12.50, 2026-03-01');
    expect(parsed.attachments[0]?.contentType).toBe('message/rfc822');
    expect(Buffer.compare(parsed.attachments[0]!.content, original)).toBe(0);
  });

  it('names an unknown vendor as the screens do and leaves out what is missing', () => {
    expect(coverSubject({ vendor: null, amount: null, invoiceDate: null })).toBe('Invoice from Unknown Vendor');
  });
});
