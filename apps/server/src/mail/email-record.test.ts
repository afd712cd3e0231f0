import { describe, expect, it } from 'vitest';
import { senderDomain, toEmailDerivedRecord } from './email-record';
import type { MailMessage } from './mail-message';

const message = (overrides: Partial<MailMessage>): MailMessage => ({
  origin: 'x.eml',
  messageId: null,
  from: null,
  subject: null,
  date: null,
  textSnippet: '',
  attachments: [],
  skippedParts: [],
  ...overrides,
});

describe('senderDomain', () => {
  it.each([
    ['billing@acme.com', 'acme.com'],
    ['Billing@Mail.ACME.co.uk', 'mail.acme.co.uk'],
    ['"a@b"@example.org', 'example.org'],
    ['no-at-sign', null],
    ['trailing@', null],
    ['', null],
    [null, null],
  ])('%s → %s', (address, expected) => {
    expect(senderDomain(address)).toBe(expected);
  });
});

describe('toEmailDerivedRecord', () => {
  it.each([
    [{ name: 'Acme Billing', address: 'billing@acme.com' }, 'Acme Billing', 'billing@acme.com'],
    [{ name: null, address: 'billing@acme.com' }, 'acme.com', 'billing@acme.com'],
    [{ name: '', address: 'billing@acme.com' }, 'acme.com', 'billing@acme.com'],
    [{ name: 'Moderator', address: null }, 'Moderator', null],
    [null, null, null],
  ])('from %j → vendor %s, email %s', (from, vendor, email) => {
    const attachments = [
      { filename: 'invoice.pdf', contentType: 'application/pdf', size: 1, sha256: 'x', content: Buffer.from('x') },
    ];
    expect(toEmailDerivedRecord(message({ from, subject: 'Invoice 42', attachments }))).toEqual({
      vendor,
      details: 'Invoice 42',
      email,
      amount: null,
      attachments,
    });
  });
});
