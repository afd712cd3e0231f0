import { describe, expect, it } from 'vitest';
import {
  AMOUNT_NOT_DETECTED,
  currencyDecimals,
  decimalToMinorUnits,
  formatCurrency,
  formatInvoiceAmount,
  formatMinorUnits,
  invoiceAmountForSorting,
  invoiceAmountMinor,
  minorUnitsToDecimal,
  parseAmountForSorting,
  parseAmountText,
} from './amount';

describe('parseAmountForSorting (SPEC §5, read by the money parser)', () => {
  it.each([
    ['$1299.99', 1299.99],
    ['€ 12,50', 12.5],
    ['12,5 EUR', 12.5],
    ['USD 100', 100],
    // Thousands separators are read as such (the spec's "first comma becomes a dot" gave 1.234).
    ['1,234.56', 1234.56],
    ['€5,178.43', 5178.43],
    ['1.234,56 €', 1234.56],
    ['1 234,56 EUR', 1234.56],
    ["CHF 1'234.56", 1234.56],
    ['₹1,23,456.78', 123456.78],
    ['-45.10', -45.1],
    ['abc', 0],
    ['', 0],
    [null, 0],
    [undefined, 0],
    [42, 42],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
  ])('%s → %s', (input, expected) => {
    expect(parseAmountForSorting(input)).toBe(expected);
  });
});

describe('currencyDecimals', () => {
  it.each([
    ['USD', 2],
    ['eur', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['XYZ', 2],
  ])('%s → %s', (currency, expected) => {
    expect(currencyDecimals(currency)).toBe(expected);
  });
});

describe('decimalToMinorUnits', () => {
  it.each([
    ['1299', 'EUR', 129900],
    ['1299.00', 'EUR', 129900],
    ['0.1', 'USD', 10],
    ['0.07', 'USD', 7],
    ['.5', 'USD', 50],
    ['5.', 'USD', 500],
    ['12.345', 'USD', 1235], // half away from zero
    ['12.344', 'USD', 1234],
    ['-12.345', 'USD', -1235],
    ['+3', 'USD', 300],
    ['-0.00', 'USD', 0],
    ['1500', 'JPY', 1500],
    ['1500.5', 'JPY', 1501],
    ['12.345', 'BHD', 12345],
    ['12.3', 'KWD', 12300],
    ['0.29', 'USD', 29], // 0.29 * 100 is 28.999999999999996 as a float
    ['90071992547409.91', 'USD', 9007199254740991],
    [' 7.25 ', 'USD', 725],
  ])('%s %s → %s', (decimal, currency, expected) => {
    expect(decimalToMinorUnits(decimal, currency)).toBe(expected);
  });

  it.each([[''], ['.'], ['-'], ['1,299.00'], ['$12'], ['1e3'], ['12.3.4'], ['abc'], ['90071992547409.92']])(
    'rejects %j',
    (decimal) => {
      expect(decimalToMinorUnits(decimal, 'USD')).toBeNull();
    },
  );
});

describe('minorUnitsToDecimal', () => {
  it.each([
    [129900, 'EUR', '1299.00'],
    [7, 'USD', '0.07'],
    [-7, 'USD', '-0.07'],
    [0, 'USD', '0.00'],
    [1500, 'JPY', '1500'],
    [12345, 'BHD', '12.345'],
    [5, 'KWD', '0.005'],
  ])('%s %s → %s', (minor, currency, expected) => {
    expect(minorUnitsToDecimal(minor, currency)).toBe(expected);
  });

  it('refuses non-integers', () => {
    expect(() => minorUnitsToDecimal(1.5, 'USD')).toThrow(RangeError);
  });

  it('round-trips with decimalToMinorUnits', () => {
    for (const [minor, currency] of [
      [123456789, 'USD'],
      [-1, 'BHD'],
      [42, 'JPY'],
    ] as const) {
      expect(decimalToMinorUnits(minorUnitsToDecimal(minor, currency), currency)).toBe(minor);
    }
  });
});

describe('formatMinorUnits', () => {
  it.each([
    [129900, 'EUR', '€1,299.00'],
    [1500, 'JPY', '¥1,500'],
    [12345, 'BHD', 'BHD 12.345'],
    [-250, 'USD', '-$2.50'],
    [9007199254740991, 'USD', '$90,071,992,547,409.91'],
    [100, 'ZZZ1', 'ZZZ1 1.00'],
  ])('%s %s → %s', (minor, currency, expected) => {
    expect(formatMinorUnits(minor, currency).replace(/\u00a0/g, ' ')).toBe(expected);
  });
});

describe('formatCurrency (money: USD default, every minor digit of the currency)', () => {
  it.each([
    [1299, undefined, '$1,299.00'],
    [12.5, undefined, '$12.50'],
    [752.7, 'EUR', '€752.70'],
    [12.345, 'USD', '$12.35'],
    [0, 'USD', '$0.00'],
    [99.99, 'EUR', '€99.99'],
    [1000, 'gbp', '£1,000.00'],
    [5178.43, 'EUR', '€5,178.43'],
    [1500, 'JPY', '¥1,500'],
    [-5, 'USD', '-$5.00'],
    [12.5, '', '$12.50'],
    [12.5, 'NOTACODE', 'NOTACODE 12.50'],
  ])('%s %s → %s', (amount, currency, expected) => {
    expect(formatCurrency(amount, currency)).toBe(expected);
  });
});

describe('parseAmountText: amount strings in every number style', () => {
  it.each([
    ['€5,178.43', 2, 517843],
    ['RON 1,875.08', 2, 187508],
    ['1.234,56 EUR', 2, 123456],
    ['1 234,56 €', 2, 123456],
    ['1\u00a0234,56\u00a0€', 2, 123456],
    ['1\u202f234,56 €', 2, 123456],
    ["CHF 1'234.56", 2, 123456],
    ['₹1,23,456.78', 2, 12345678],
    ['Rs. 12,34,567', 2, 123456700],
    ['1,234,567.89 USD', 2, 123456789],
    ['-$1,000.00', 2, -100000],
    ['(1.000,00) EUR', 2, -100000],
    ['¥150,000', 0, 150000],
    ['12.5', 2, 1250],
    ['1,234.56 Fr.', 2, 123456],
  ])('%j → %s', (text, decimals, expected) => {
    expect(parseAmountText(text, decimals)).toBe(expected);
  });

  it.each([[''], [null], ['N/A'], ['1,2,3'], ['12.34.56,7']])('%j is not an amount', (text) => {
    expect(parseAmountText(text, 2)).toBeNull();
  });
});

describe('invoiceAmountMinor', () => {
  it('takes the stored exact amount over the string', () => {
    expect(invoiceAmountMinor({ amount: '€5.18', amount_minor: 517843, currency: 'EUR' })).toEqual({
      minor: 517843,
      currency: 'EUR',
    });
  });

  it('reads the string with the money parser when no exact amount was stored (USD by default)', () => {
    expect(invoiceAmountMinor({ amount: '$5,178.43', amount_minor: null, currency: null })).toEqual({
      minor: 517843,
      currency: 'USD',
    });
    expect(invoiceAmountMinor({ amount: '1.875,08', amount_minor: null, currency: 'ron' })).toEqual({
      minor: 187508,
      currency: 'RON',
    });
    expect(invoiceAmountMinor({ amount: null, amount_minor: null, currency: 'EUR' })).toBeNull();
  });

  it('sorts by the exact amount', () => {
    const list = [
      { amount: '€999.99', amount_minor: 99999, currency: 'EUR' },
      { amount: '€5,178.43', amount_minor: 517843, currency: 'EUR' },
      { amount: '1.234,56', amount_minor: null, currency: 'EUR' },
      { amount: null, amount_minor: null, currency: null },
      { amount: '¥150,000', amount_minor: 150000, currency: 'JPY' },
    ];
    expect(list.map(invoiceAmountForSorting)).toEqual([999.99, 5178.43, 1234.56, 0, 150000]);
  });
});

describe('formatInvoiceAmount', () => {
  it.each([
    [{ amount: '€5,178.43', amount_minor: 517843, currency: 'EUR' }, '€5,178.43'],
    [{ amount: 'RON 1,875.08', amount_minor: 187508, currency: 'RON' }, 'RON 1,875.08'],
    [{ amount: '€752.70', amount_minor: 75270, currency: 'EUR' }, '€752.70'],
    [{ amount: '₹1,23,456.78', amount_minor: 12345678, currency: 'INR' }, '₹123,456.78'],
    // No exact amount stored: the string, read by the money parser in each number style.
    [{ amount: '$5,178.43', amount_minor: null, currency: null }, '$5,178.43'],
    [{ amount: '1.234,56 €', amount_minor: null, currency: 'EUR' }, '€1,234.56'],
    [{ amount: '1 234,56', amount_minor: null, currency: 'EUR' }, '€1,234.56'],
    [{ amount: "1'234.56", amount_minor: null, currency: 'CHF' }, 'CHF 1,234.56'],
    [{ amount: '1,23,456.78', amount_minor: null, currency: 'INR' }, '₹123,456.78'],
    [{ amount: '1299.5', amount_minor: null, currency: 'EUR' }, '€1,299.50'],
    [{ amount: '$45.00', amount_minor: null, currency: null }, '$45.00'],
    [{ amount: 42, amount_minor: null, currency: undefined }, '$42.00'],
    [{ amount: '0', amount_minor: 0, currency: 'USD' }, '$0.00'],
    [{ amount: null, amount_minor: null, currency: 'USD' }, AMOUNT_NOT_DETECTED],
    [{ amount: '', amount_minor: null, currency: 'USD' }, AMOUNT_NOT_DETECTED],
    [{ amount: 'N/A', amount_minor: null, currency: 'USD' }, AMOUNT_NOT_DETECTED],
  ])('%j → %s', (invoice, expected) => {
    expect(formatInvoiceAmount(invoice).replace(/\u00a0/g, ' ')).toBe(expected);
  });

  it('uses the spec wording', () => {
    expect(AMOUNT_NOT_DETECTED).toBe('Amount not detected / Check attachments');
  });
});
