import { describe, expect, it } from 'vitest';
import { DOCUMENT_TYPES, isFinancialDocument } from './document-type';

describe('isFinancialDocument', () => {
  it('counts invoices, credit notes, receipts and documents whose type is unknown', () => {
    expect(DOCUMENT_TYPES.filter((t) => isFinancialDocument(t))).toEqual(['invoice', 'credit_note', 'receipt']);
    expect(isFinancialDocument(null)).toBe(true);
    expect(isFinancialDocument(undefined)).toBe(true);
    expect(isFinancialDocument('order_confirmation')).toBe(false);
  });
});
