/**
 * Money rules. Stored and computed money is integer minor units with an ISO 4217 currency; decimal strings are
 * parsed straight to integers (no float on the way). The spec's looser rules (sorting, display) sit beside them.
 */

import { parseAmount } from './money-parse';

/**
 * SPEC §5 amount parsing for sorting, for an amount string with no stored exact amount: what is not part of a number is
 * stripped and the rest is read by the project's money parser (so '1,234.56', '1.234,56', '1 234,56', "1'234.56" and
 * '1,23,456.78' all sort by their value; the spec's "swap a comma for a dot" would read '1,234.56' as 1.234).
 * An unparsable value counts as 0.
 */
export function parseAmountForSorting(amount: string | number | null | undefined): number {
  if (typeof amount === 'number') return Number.isFinite(amount) ? amount : 0;
  const minor = parseAmountText(amount, 2);
  return minor === null ? 0 : minor / 100;
}

/**
 * Minor units of an amount string as stored or printed ('€5,178.43', '1.234,56 EUR', 'RON 1 875,08'): currency
 * symbols, codes and words around the number are dropped and the number is read by `parseAmount`; null when there is
 * no single readable number.
 */
export function parseAmountText(text: string | null | undefined, decimals: number): number | null {
  if (!text) return null;
  const number = text
    .replace(/[^\d\s\u00a0\u202f\u2009'’.,()+\-−]/g, ' ')
    .trim()
    // A dot or comma left over from an abbreviation before the number ("Rs. 1,234"), and spaces around a sign.
    .replace(/^[.,]\s*/, '')
    .replace(/\s+[.,]$/, '')
    .replace(/^([-−+(])\s+/, '$1');
  return parseAmount(number, decimals)?.minor ?? null;
}

/** The fields of an invoice that say what it costs. */
export interface InvoiceMoney {
  amount: string | number | null | undefined;
  amount_minor?: number | null;
  currency?: string | null;
}

/**
 * An invoice's exact amount in minor units of its currency (default USD): the stored `amount_minor`, or, where none was
 * stored (no currency was found), the amount string read by the money parser. Null when there is no amount.
 */
export function invoiceAmountMinor(invoice: InvoiceMoney): { minor: number; currency: string } | null {
  const currency = (invoice.currency || 'USD').trim().toUpperCase();
  if (
    invoice.amount_minor !== null &&
    invoice.amount_minor !== undefined &&
    Number.isSafeInteger(invoice.amount_minor)
  ) {
    return { minor: invoice.amount_minor, currency };
  }
  const { amount } = invoice;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    const minor = decimalToMinorUnits(amount.toFixed(currencyDecimals(currency)), currency);
    return minor === null ? null : { minor, currency };
  }
  const minor = parseAmountText(amount, currencyDecimals(currency));
  return minor === null ? null : { minor, currency };
}

/** Sorting by price: the exact amount as a number (spec §5: an invoice without one counts as 0). */
export function invoiceAmountForSorting(invoice: InvoiceMoney): number {
  const exact = invoiceAmountMinor(invoice);
  return exact ? exact.minor / 10 ** currencyDecimals(exact.currency) : 0;
}

/** ISO 4217 minor-unit exponents that are not 2. */
const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Decimal places of a currency's minor unit (ISO 4217); 2 for any code not listed as different. */
export function currencyDecimals(currency: string): number {
  return CURRENCY_EXPONENTS[currency.trim().toUpperCase()] ?? 2;
}

/**
 * Parses a plain decimal string ('1299', '-12.5', '0.125') to integer minor units of the currency, rounding half away
 * from zero on the digits themselves. Returns null for anything else (thousands separators, symbols, exponents) and
 * for values outside the safe integer range.
 */
export function decimalToMinorUnits(decimal: string, currency: string): number | null {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(decimal.trim());
  if (!match) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  const decimals = currencyDecimals(currency);
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  const roundUp = (fraction[decimals] ?? '0') >= '5';
  let minor = BigInt(`${whole || '0'}${kept}`);
  if (roundUp) minor += 1n;
  if (sign === '-') minor = -minor;
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < BigInt(Number.MIN_SAFE_INTEGER)) return null;
  // Avoid -0 for '-0.00'.
  return minor === 0n ? 0 : Number(minor);
}

/** Integer minor units back to a plain decimal string with the currency's decimals: 129900 EUR → '1299.00'. */
export function minorUnitsToDecimal(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not a safe integer amount: ${minor}`);
  const decimals = currencyDecimals(currency);
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0');
  const sign = minor < 0 ? '-' : '';
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Minor units formatted for display with the currency's symbol and all of its decimals. */
export function formatMinorUnits(minor: number, currency: string, locale = 'en-US'): string {
  const decimals = currencyDecimals(currency);
  // Intl accepts a decimal string and formats it exactly, so no float is ever made.
  const value = minorUnitsToDecimal(minor, currency) as unknown as number;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(value);
  } catch {
    return `${currency.toUpperCase()} ${minorUnitsToDecimal(minor, currency)}`;
  }
}

/**
 * A money amount for a person to read: the currency's symbol and all of its minor-unit digits ('€752.70', '$1,299.00',
 * '¥1,500'), default USD. The spec's "0 to 2 fraction digits" (§9) would print €752.7; money always shows its cents.
 */
export function formatCurrency(amount: number, currency = 'USD'): string {
  const code = (currency || 'USD').trim().toUpperCase();
  const decimals = currencyDecimals(code);
  const digits = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code, ...digits }).format(amount);
  } catch {
    // Not an ISO code Intl knows: show the number with the code in front rather than failing the whole card.
    return `${code} ${new Intl.NumberFormat('en-US', digits).format(amount)}`;
  }
}

/** SPEC §2: what an invoice card shows when it has no amount. */
export const AMOUNT_NOT_DETECTED = 'Amount not detected / Check attachments';

/**
 * An invoice's amount for its card and the dashboard: the stored exact amount (`amount_minor` and currency) with every
 * minor digit; without one, the amount string read by the money parser; a missing or unreadable amount shows
 * AMOUNT_NOT_DETECTED. A real 0 is shown as '$0.00'.
 */
export function formatInvoiceAmount(invoice: InvoiceMoney): string {
  const exact = invoiceAmountMinor(invoice);
  return exact ? formatMinorUnits(exact.minor, exact.currency) : AMOUNT_NOT_DETECTED;
}
