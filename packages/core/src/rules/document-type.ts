/**
 * What a document is, read from its content by the extractor (issue 15): the §5 rules decide what is listed; the type
 * decides what is counted. Stats, drive filing and bank reconciliation take only the financial kinds; null (a
 * document not read yet by rules that know the type) counts as an invoice, as everything did before.
 */
export const DOCUMENT_TYPES = [
  'invoice',
  'credit_note',
  'receipt',
  'order_confirmation',
  'delivery_note',
  'payment_reminder',
  'statement',
  'contract',
  'other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const FINANCIAL_DOCUMENT_TYPES: readonly DocumentType[] = ['invoice', 'credit_note', 'receipt'];

export function isFinancialDocument(type: string | null | undefined): boolean {
  return type === null || type === undefined || (FINANCIAL_DOCUMENT_TYPES as readonly string[]).includes(type);
}

/** The card's badge for each kind (none for a plain invoice). */
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
  receipt: 'Receipt',
  order_confirmation: 'Order confirmation',
  delivery_note: 'Delivery note',
  payment_reminder: 'Payment reminder',
  statement: 'Statement',
  contract: 'Contract',
  other: 'Other document',
};
