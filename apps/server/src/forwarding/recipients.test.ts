import { FORWARDING_MESSAGES } from '@invoicebox/core';
import { describe, expect, it } from 'vitest';
import { normalizeRecipients, parseRecipient } from './recipients';

describe('forwarding recipients', () => {
  it.each([
    ['accountant@example.com', 'accountant@example.com'],
    ['  Books@Firm.Example.co.uk ', 'books@firm.example.co.uk'],
    ['first.last+invoices@example.org', 'first.last+invoices@example.org'],
    ["o'brien@example.ie", "o'brien@example.ie"],
  ])('accepts %s', (input, expected) => {
    expect(parseRecipient(input)).toBe(expected);
  });

  it.each([
    'a@b',
    'no-at.example.com',
    'two@@example.com',
    'a@b.',
    'a@.example.com',
    'Name <a@example.com>',
    'a@example.com, b@example.com',
    'a@[127.0.0.1]',
    'a b@example.com',
    'a@-bad-.example.com',
    '@example.com',
    '',
  ])('refuses %s', (input) => {
    expect(parseRecipient(input)).toBeNull();
  });

  it('refuses duplicates case-insensitively and bad addresses with the §5 messages', () => {
    expect(() => normalizeRecipients(['a@example.com', 'A@Example.COM'], 20)).toThrow(
      FORWARDING_MESSAGES.duplicateAddress,
    );
    expect(() => normalizeRecipients(['a@example'], 20)).toThrow(FORWARDING_MESSAGES.invalidAddress);
    expect(normalizeRecipients([' B@example.com ', '', 'c@example.com'], 20)).toEqual([
      'b@example.com',
      'c@example.com',
    ]);
  });

  it('refuses more recipients than the maximum', () => {
    const many = Array.from({ length: 4 }, (_, i) => `r${i}@example.com`);
    expect(() => normalizeRecipients(many, 3)).toThrow('At most 3 recipient addresses');
    expect(normalizeRecipients(many, 4)).toHaveLength(4);
  });
});
