import { toIsoDate } from '@invoicebox/core';
import { looseAmountToMinor } from './amounts';
import type { ReconcileInvoice } from './reconcile';

/**
 * The invoices of `invoicebox reconcile --invoices FILE`: a JSON array of
 * `{"id", "vendor", "amount", "currency", "invoice_date", "invoice_number"}` as the API shows invoices (amount a number
 * or a string that may carry symbols and separators; optional "vendor_iban"). Throws one clear message on bad input.
 */
export function parseInvoicesJson(text: string, defaultCurrency: string | null): ReconcileInvoice[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(data)) throw new Error('expected a JSON array of invoices');
  const seen = new Set<string>();
  return data.map((item: unknown, i): ReconcileInvoice => {
    if (item === null || typeof item !== 'object') throw new Error(`invoice ${i} is not an object`);
    const o = item as Record<string, unknown>;
    const id = typeof o.id === 'string' || typeof o.id === 'number' ? String(o.id) : null;
    if (!id) throw new Error(`invoice ${i} has no "id"`);
    if (seen.has(id)) throw new Error(`invoice id "${id}" appears twice`);
    seen.add(id);
    const currency =
      typeof o.currency === 'string' && /^[A-Za-z]{3}$/.test(o.currency.trim())
        ? o.currency.trim().toUpperCase()
        : null;
    const amount = typeof o.amount === 'number' || typeof o.amount === 'string' ? o.amount : null;
    const amountMinor = looseAmountToMinor(amount, currency ?? defaultCurrency ?? 'EUR');
    return {
      id,
      vendor: typeof o.vendor === 'string' ? o.vendor : null,
      amountMinor: amountMinor !== null && amountMinor > 0 ? amountMinor : null,
      currency,
      invoiceDate: typeof o.invoice_date === 'string' ? toIsoDate(o.invoice_date) : null,
      invoiceNumber:
        typeof o.invoice_number === 'string' || typeof o.invoice_number === 'number' ? String(o.invoice_number) : null,
      vendorIban: typeof o.vendor_iban === 'string' ? o.vendor_iban : null,
    };
  });
}
