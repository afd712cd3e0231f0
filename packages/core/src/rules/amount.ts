/**
 * Money rules. Stored and computed money is integer minor units with an ISO 4217 currency; decimal strings are
 * parsed straight to integers (no float on the way). The spec's looser rules (sorting, display) sit beside them.
 */

/** SPEC §5: parses an amount for sorting: non-numeric characters are stripped, a comma becomes a dot, and an
 * unparsable value counts as 0. Only the first comma is swapped, as the spec's rule does: '1,234.56' sorts as 1.234. */
export function parseAmountForSorting(amount: string | number | null | undefined): number {
  if (typeof amount === 'number') return Number.isFinite(amount) ? amount : 0;
  if (!amount) return 0;
  const value = Number.parseFloat(amount.replace(/[^0-9.,-]/g, '').replace(',', '.'));
  return Number.isFinite(value) ? value : 0;
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

/** SPEC §9: an invoice amount as currency (default USD) with 0 to 2 fraction digits, e.g. '$1,299' or '$12.5'. */
export function formatCurrency(amount: number, currency = 'USD'): string {
  const code = (currency || 'USD').trim().toUpperCase();
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    // Not an ISO code Intl knows: show the number with the code in front rather than failing the whole card.
    const number = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(
      amount,
    );
    return `${code} ${number}`;
  }
}

/** SPEC §2: what an invoice card shows when it has no amount. */
export const AMOUNT_NOT_DETECTED = 'Amount not detected / Check attachments';

/**
 * An invoice's amount for its card: the stored amount string (which may carry symbols or commas) parsed as for sorting
 * and formatted as currency; a missing or unparsable amount shows AMOUNT_NOT_DETECTED. A real 0 is shown as '$0'.
 */
export function formatInvoiceAmount(amount: string | number | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || amount === '') return AMOUNT_NOT_DETECTED;
  if (typeof amount === 'string' && !/\d/.test(amount)) return AMOUNT_NOT_DETECTED;
  return formatCurrency(parseAmountForSorting(amount), currency || 'USD');
}
