/** Invoice categories (spec §2 'Invoice Type' filter), decided by rules from the subject and filenames. */
export const INVOICE_CATEGORIES = ['Invoice', 'Receipt', 'Bill', 'Statement', 'Subscription', 'Other'] as const;
export type InvoiceCategory = (typeof INVOICE_CATEGORIES)[number];

/** Checked in this order: the first group with a word in the texts decides. Words in the seven languages we read. */
const CATEGORY_WORDS: Array<[InvoiceCategory, RegExp]> = [
  ['Receipt', /\b(receipt|quittung|reçu|recu|ricevuta|recibo|chitanță|chitanta|kwitantie|bon)\b/i],
  ['Subscription', /\b(subscription|renewal|abonnement|abo|abbonamento|suscripción|suscripcion|abonament)\b/i],
  ['Statement', /\b(statement|kontoauszug|relevé|releve|estratto|extracto|extras|afschrift)\b/i],
  ['Bill', /\b(bill|utility|bolletta|facture d'électricité)\b/i],
  ['Invoice', /\b(invoice|rechnung|facture|fattura|factura|faktura|factuur|nota fiscal|credit note|gutschrift)\b/i],
];

export function invoiceCategory(texts: Array<string | null | undefined>): InvoiceCategory {
  const haystack = texts
    .filter(Boolean)
    .join(' \n ')
    .replace(/[_.-]+/g, ' ');
  for (const [category, words] of CATEGORY_WORDS) if (words.test(haystack)) return category;
  return 'Other';
}
