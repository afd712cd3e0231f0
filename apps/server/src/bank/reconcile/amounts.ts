import { currencyDecimals, decimalToMinorUnits } from '@invoicebox/core';

/**
 * An amount as people and invoices write it ('1,299.00', '1.299,00', '€ 12,5', 120.1) to integer minor units of the
 * currency, or null. The last '.' or ',' followed by one to (the currency's decimals) digits is the decimal mark; any
 * other '.', ',', apostrophe or space groups thousands.
 */
export function looseAmountToMinor(value: string | number | null | undefined, currency: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return decimalToMinorUnits(value.toFixed(Math.max(currencyDecimals(currency), 2) + 2), currency);
  }
  const cleaned = value.replace(/[^\d.,'\s-]/g, '').trim();
  if (!/\d/.test(cleaned)) return null;
  const negative = cleaned.startsWith('-');
  const body = cleaned.replace(/[-\s']/g, '');
  const decimals = currencyDecimals(currency);
  const mark = /[.,](\d+)$/.exec(body);
  let whole = body;
  let fraction = '';
  // '1.234' with three digits after the only mark is a thousands group, except for currencies with three decimals.
  if (mark && (mark[1]!.length <= Math.max(decimals, 2) || mark[1]!.length !== 3 || decimals === 3)) {
    whole = body.slice(0, mark.index);
    fraction = mark[1]!;
  }
  whole = whole.replace(/[.,]/g, '');
  return decimalToMinorUnits(`${negative ? '-' : ''}${whole || '0'}.${fraction}`, currency);
}

/** Currency codes a statement line may state an original amount in (the table's and the euro). */
const STATED_CURRENCIES = 'EUR|USD|GBP|CHF|JPY|PLN|RON|SEK|DKK|NOK|CZK|HUF|CAD|AUD';
const NUMBER = String.raw`\d{1,3}(?:[.,' ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
const STATED = new RegExp(
  String.raw`(?<![A-Z])(${STATED_CURRENCIES})\s?(${NUMBER})(?!\d)|(?<![\d.,])(${NUMBER})\s?(${STATED_CURRENCIES})(?![A-Z])`,
  'g',
);

/** Amounts a transaction's text states with a currency code ('ORIG USD 120.00', '99,00 GBP'), in minor units. */
export function statedAmounts(text: string): Array<{ currency: string; minor: number }> {
  const found: Array<{ currency: string; minor: number }> = [];
  for (const m of text.toUpperCase().matchAll(STATED)) {
    const currency = (m[1] ?? m[4])!;
    const minor = looseAmountToMinor(m[2] ?? m[3]!, currency);
    if (minor !== null && minor > 0) found.push({ currency, minor });
  }
  return found;
}
