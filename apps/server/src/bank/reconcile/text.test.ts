import { describe, expect, it } from 'vitest';
import {
  containsInvoiceNumber,
  foldText,
  invoiceNumberKey,
  tokenSimilarity,
  transactionText,
  vendorEvidence,
  vendorTokens,
} from './text';

const text = (description: string, counterpartyName: string | null = null) =>
  transactionText({ description, reference: null, counterpartyName, counterpartyIban: null });

describe('reconciliation text', () => {
  it('folds case, diacritics and punctuation', () => {
    expect(foldText('Müller & Söhne — Straße, Œuvre ÉTÉ')).toBe('muller sohne strasse oeuvre ete');
  });

  it('drops legal forms and filler words from vendor names', () => {
    expect(vendorTokens('ACME Software GmbH')).toEqual(['acme', 'software']);
    expect(vendorTokens('Atelier Durée S.A.R.L.')).toEqual(['atelier', 'duree']);
    expect(vendorTokens('Vandelay Industries B.V.')).toEqual(['vandelay', 'industries']);
    expect(vendorTokens('Hofmann Logistik GmbH & Co. KG')).toEqual(['hofmann', 'logistik']);
    expect(vendorTokens('Studio Rossi S.r.l.')).toEqual(['studio', 'rossi']);
    // A name made only of such words keeps them rather than becoming empty.
    expect(vendorTokens('The Company Ltd')).toEqual(['the', 'company', 'ltd']);
  });

  it('compares tokens fuzzily: truncation and a typo or two, not short words', () => {
    expect(tokenSimilarity('amazon', 'amazon')).toBe(1);
    expect(tokenSimilarity('advertising', 'advert')).toBe(0.9);
    expect(tokenSimilarity('lefevre', 'lefebvre')).toBeGreaterThan(0.7);
    expect(tokenSimilarity('acme', 'acne')).toBe(0);
    expect(tokenSimilarity('globex', 'zalando')).toBe(0);
  });

  it('finds the vendor in the description, the counterparty, or run together', () => {
    const v = vendorTokens('Sterling Cooper Advertising');
    expect(vendorEvidence(v, text('CARD STERLING COOPER ADVERT')).score).toBeGreaterThan(0.9);
    expect(vendorEvidence(v, text('Lastschrift', 'STERLINGCOOPERADVERTISING')).score).toBe(1);
    const cp = vendorEvidence(v, text('Lastschrift', 'Sterling Cooper'));
    expect(cp.inCounterparty).toBe(true);
    expect(vendorEvidence(v, text('REWE SAGT DANKE')).score).toBe(0);
    // Only the generic tail of another company's name: weak.
    expect(vendorEvidence(vendorTokens('Wonka Industries Ltd'), text('STARK INDUSTRIES')).score).toBeLessThan(0.4);
  });

  it('finds invoice numbers whole, ignoring separators, never inside longer numbers', () => {
    const key = invoiceNumberKey('INV-2026/0042')!;
    expect(containsInvoiceNumber(key, text('Zahlung inv 2026 0042 danke'))).toBe(true);
    expect(containsInvoiceNumber(key, text('Zahlung INV-2026-00421'))).toBe(false);
    expect(containsInvoiceNumber(invoiceNumberKey('123456')!, text('REF 9123456'))).toBe(false);
    // Too short or without digits: would be found by chance.
    expect(invoiceNumberKey('2026')).toBeNull();
    expect(invoiceNumberKey('ABCD')).toBeNull();
    expect(invoiceNumberKey(null)).toBeNull();
  });

  it('reads IBANs from the counterparty and the description', () => {
    const t = transactionText({
      description: 'SEPA DE89 3704 0044 0532 0130 00 Miete',
      reference: null,
      counterpartyName: null,
      counterpartyIban: 'fr76 3000 6000 0112 3456 7890 189',
    });
    expect([...t.ibans].sort()).toEqual(['DE89370400440532013000', 'FR7630006000011234567890189']);
  });
});
