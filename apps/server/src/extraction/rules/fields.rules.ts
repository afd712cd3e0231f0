import type { Line, PartyHints, RuleFields } from '../extraction.types';
import { findTotal } from './amount.rules';
import { findInvoiceDate } from './date.rules';
import { prepareDoc } from './document';
import { findDocumentType } from './document-type.rules';
import { currencyDecimals, findCurrencies } from './money.parser';
import { findInvoiceNumber } from './number.rules';
import { findVendor } from './vendor.rules';

const INDIAN_TAX = /(?<![a-z])(?:gstin|igst|cgst|sgst|hsn\/sac|utgst)(?![a-z])/;

const LANG_CURRENCY: Record<string, string> = { de: 'EUR', fr: 'EUR', it: 'EUR', es: 'EUR', nl: 'EUR', ro: 'RON' };

/** Runs every field rule over the lines of one document (text layer or OCR words). Pure; never throws on content. */
export function extractFieldsFromLines(lines: Line[], hints: PartyHints = {}): RuleFields {
  if (!lines.length) {
    return {
      vendor: null,
      amount: null,
      currency: null,
      invoice_date: null,
      invoice_number: null,
      document_type: null,
    };
  }
  const doc = prepareDoc(lines);
  const invoiceNumber = findInvoiceNumber(doc);
  const total = findTotal(doc, { invoiceNumber: invoiceNumber?.value });
  let currency: RuleFields['currency'] = null;
  if (total?.value.currency) currency = { value: total.value.currency, confidence: 0.9 };
  else if (total) {
    const onLine = findCurrencies(doc.lines[total.value.lineIndex]!.text)[0];
    if (onLine) currency = { value: onLine, confidence: 0.85 };
  }
  // A currency without minor units (yen, won) next to a total printed with cents is a misread symbol (OCR takes "₹"
  // for "¥"): the page's other currency, when it names one, is meant.
  if (currency && total && currencyDecimals(currency.value) === 0 && total.value.printedDecimals > 0) {
    const other = [...doc.currencies.entries()]
      .filter(([c]) => c !== currency!.value && currencyDecimals(c) > 0)
      .sort((a, b) => b[1] - a[1])[0];
    if (other) currency = { value: other[0], confidence: 0.6 };
  }
  // "₹" read as "¥" on an Indian invoice (GSTIN, IGST/CGST/SGST): rupees.
  if (
    currency?.value === 'JPY' &&
    total &&
    total.value.printedDecimals > 0 &&
    INDIAN_TAX.test(doc.folded.flat().join(' '))
  ) {
    currency = { value: 'INR', confidence: 0.6 };
  }
  if (!currency && doc.currencies.size) {
    const [code, n] = [...doc.currencies.entries()].sort((a, b) => b[1] - a[1])[0]!;
    currency = { value: code, confidence: n > 1 ? 0.75 : 0.6 };
  }
  if (!currency && LANG_CURRENCY[doc.lang]) currency = { value: LANG_CURRENCY[doc.lang]!, confidence: 0.3 };

  let amount: RuleFields['amount'] = null;
  if (total) {
    let { minor, decimals } = total.value;
    const want = currencyDecimals(currency?.value);
    if (want !== decimals) {
      minor = want > decimals ? minor * 10 ** (want - decimals) : Math.round(minor / 10 ** (decimals - want));
      decimals = want;
    }
    amount = { value: { minor, decimals }, confidence: total.confidence };
  }
  return {
    vendor: findVendor(doc, hints),
    amount,
    currency,
    invoice_date: findInvoiceDate(doc),
    invoice_number: invoiceNumber,
    document_type: findDocumentType(doc, { total: total !== null }),
  };
}
