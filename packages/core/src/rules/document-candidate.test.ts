import { describe, expect, it } from 'vitest';
import {
  classifyAttachmentFilename,
  DOCUMENT_ACCEPT_WORDS,
  DOCUMENT_EXTENSIONS,
  DOCUMENT_REJECT_WORD_GROUPS,
  DOCUMENT_REJECT_WORDS,
  decideInvoiceCandidate,
  type EmailDerivedRecord,
  isDocumentAttachment,
  isInvoiceCandidate,
  qualifyingAttachments,
  RECORD_REJECT_WORDS,
} from './document-candidate';

describe('word lists match SPEC §5 word for word', () => {
  it('has the accept words', () => {
    expect([...DOCUMENT_ACCEPT_WORDS]).toEqual([
      'invoice',
      'receipt',
      'bill',
      'statement',
      'factura',
      'fattura',
      'faktura',
    ]);
  });
  it('has the reject word groups', () => {
    expect(DOCUMENT_REJECT_WORD_GROUPS).toEqual({
      logoOrSocial: ['download-google', 'google-play', 'social-fb', 'social-in', 'logo', 'logotype', 'social', 'pfp'],
      termsOrConditions: ['terms', 'conditions'],
      travel: ['flight', 'boarding', 'pass', 'ticket', 'itinerary'],
      store: ['ghid', 'finantare', 'store', 'app-store'],
    });
  });
  it('has the extensions', () => {
    expect([...DOCUMENT_EXTENSIONS]).toEqual(['pdf', 'png', 'jpg', 'jpeg', 'gif', 'doc', 'docx', 'xls', 'xlsx']);
  });
  it('has the record rejection words', () => {
    expect([...RECORD_REJECT_WORDS]).toEqual([
      'newsletter',
      'marketing',
      'promotion',
      'survey',
      'feedback',
      'notification',
      'alert',
      'reminder',
      'welcome',
      'confirmation',
    ]);
  });
});

describe('isDocumentAttachment', () => {
  it.each(DOCUMENT_ACCEPT_WORDS.map((word) => [word]))(
    'accepts a name containing %s whatever its extension',
    (word) => {
      expect(isDocumentAttachment(`Your-${word.toUpperCase()}-2026.zip`)).toBe(true);
      expect(classifyAttachmentFilename(`${word}.txt`)).toEqual({ document: true, rule: 'accept_word', word });
    },
  );

  it.each(DOCUMENT_REJECT_WORDS.map((word) => [word]))('rejects a .pdf/.png name containing %s', (word) => {
    expect(isDocumentAttachment(`x-${word}-y.pdf`)).toBe(false);
    expect(isDocumentAttachment(`${word.toUpperCase()}.PNG`)).toBe(false);
  });

  it('lets an accept word win over a reject word', () => {
    expect(isDocumentAttachment('logo-invoice.png')).toBe(true);
    expect(isDocumentAttachment('boarding-pass-receipt.pdf')).toBe(true);
    expect(isDocumentAttachment('app-store-bill.png')).toBe(true);
    expect(isDocumentAttachment('terms-and-statement.pdf')).toBe(true);
  });

  it.each(DOCUMENT_EXTENSIONS.map((ext) => [ext]))('accepts a neutral name ending in .%s, any case', (ext) => {
    expect(isDocumentAttachment(`scan-0042.${ext}`)).toBe(true);
    expect(isDocumentAttachment(`SCAN-0042.${ext.toUpperCase()}`)).toBe(true);
    expect(classifyAttachmentFilename(`a.${ext}`)).toEqual({ document: true, rule: 'extension', extension: ext });
  });

  it.each([
    ['notes.txt'],
    ['archive.zip'],
    ['invite.ics'],
    ['pdf'],
    ['mypdf'],
    ['image.png.exe'],
    ['data.csv'],
    ['message.eml'],
  ])('rejects %s by extension', (name) => {
    expect(classifyAttachmentFilename(name)).toEqual({ document: false, rule: 'extension' });
  });

  it.each([[''], [null], [undefined]])('rejects a missing filename (%s)', (name) => {
    expect(classifyAttachmentFilename(name)).toEqual({ document: false, rule: 'no_filename' });
  });

  it('reports which reject word decided', () => {
    expect(classifyAttachmentFilename('company-logo.png')).toEqual({
      document: false,
      rule: 'reject_word',
      word: 'logo',
    });
    expect(classifyAttachmentFilename('Passport.jpg')).toEqual({ document: false, rule: 'reject_word', word: 'pass' });
  });

  it('keeps qualifying attachments in order', () => {
    const attachments = [
      { filename: 'logo.png' },
      { filename: 'b.pdf' },
      { filename: 'notes.txt' },
      { filename: 'invoice.zip' },
    ];
    expect(qualifyingAttachments(attachments)).toEqual([{ filename: 'b.pdf' }, { filename: 'invoice.zip' }]);
  });
});

const record = (overrides: Partial<EmailDerivedRecord> = {}): EmailDerivedRecord => ({
  vendor: 'Acme Corp',
  details: 'Your October invoice',
  email: 'billing@acme.com',
  amount: null,
  attachments: [{ filename: 'invoice.pdf' }],
  ...overrides,
});

describe('isInvoiceCandidate', () => {
  it('accepts a record with a qualifying attachment', () => {
    expect(isInvoiceCandidate(record())).toBe(true);
    expect(decideInvoiceCandidate(record())).toEqual({ accepted: true });
  });

  it.each(RECORD_REJECT_WORDS.map((word) => [word]))('rejects a record whose vendor or details contain %s', (word) => {
    expect(isInvoiceCandidate(record({ vendor: `Acme ${word.toUpperCase()} team` }))).toBe(false);
    expect(isInvoiceCandidate(record({ details: `Your ${word} for invoice 42` }))).toBe(false);
    expect(decideInvoiceCandidate(record({ details: word }))).toEqual({
      accepted: false,
      reason: 'rejection_word',
      word,
    });
  });

  it('rejection words win even when attachments are not required', () => {
    expect(isInvoiceCandidate(record({ details: 'Weekly newsletter' }), { attachmentsRequired: false })).toBe(false);
  });

  it('requires a qualifying attachment by default', () => {
    const none = record({ attachments: [] });
    const onlyLogo = record({ attachments: [{ filename: 'logo.png' }, { filename: 'notes.txt' }, { filename: null }] });
    expect(isInvoiceCandidate(none)).toBe(false);
    expect(isInvoiceCandidate(onlyLogo)).toBe(false);
    expect(isInvoiceCandidate(onlyLogo, { attachmentsRequired: true })).toBe(false);
    expect(decideInvoiceCandidate(none)).toEqual({ accepted: false, reason: 'no_qualifying_attachment' });
  });

  it('accepts without attachments when they are not required', () => {
    expect(isInvoiceCandidate(record({ attachments: [] }), { attachmentsRequired: false })).toBe(true);
  });

  it('ignores invoice/payment/subscription keywords: a record without them is still accepted', () => {
    expect(
      isInvoiceCandidate(
        record({ vendor: 'Someone', details: 'Hello there', attachments: [{ filename: 'scan.jpg' }] }),
      ),
    ).toBe(true);
    expect(isInvoiceCandidate(record({ vendor: null, details: null }))).toBe(true);
  });
});
