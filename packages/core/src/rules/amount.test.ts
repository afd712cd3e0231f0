import { describe, expect, it } from 'vitest';
import {
  AMOUNT_NOT_DETECTED,
  currencyDecimals,
  decimalToMinorUnits,
  formatCurrency,
  formatInvoiceAmount,
  formatMinorUnits,
  minorUnitsToDecimal,
  parseAmountForSorting,
} from './amount';

describe('parseAmountForSorting (SPEC §5)', () => {
  it.each([
    ['$1299.99', 1299.99],
    ['€ 12,50', 12.5],
    ['12,5 EUR', 12.5],
    ['USD 100', 100],
    ['1,234.56', 1.234], // only the first comma becomes a dot: the spec's rule, kept as is
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

describe('formatCurrency (SPEC §9: USD default, 0 to 2 fraction digits)', () => {
  it.each([
    [1299, undefined, '$1,299'],
    [12.5, undefined, '$12.5'],
    [12.345, 'USD', '$12.35'],
    [0, 'USD', '$0'],
    [99.99, 'EUR', '€99.99'],
    [1000, 'gbp', '£1,000'],
    [-5, 'USD', '-$5'],
    [12.5, '', '$12.5'],
    [12.5, 'NOTACODE', 'NOTACODE 12.5'],
  ])('%s %s → %s', (amount, currency, expected) => {
    expect(formatCurrency(amount, currency)).toBe(expected);
  });
});

describe('formatInvoiceAmount', () => {
  it.each([
    ['1299.5', 'EUR', '€1,299.5'],
    ['$45.00', null, '$45'],
    ['12,50', 'EUR', '€12.5'],
    [42, undefined, '$42'],
    ['0', 'USD', '$0'],
    [0, 'USD', '$0'],
    [null, 'USD', AMOUNT_NOT_DETECTED],
    [undefined, 'USD', AMOUNT_NOT_DETECTED],
    ['', 'USD', AMOUNT_NOT_DETECTED],
    ['N/A', 'USD', AMOUNT_NOT_DETECTED],
  ])('%j %s → %s', (amount, currency, expected) => {
    expect(formatInvoiceAmount(amount, currency)).toBe(expected);
  });

  it('uses the spec wording', () => {
    expect(AMOUNT_NOT_DETECTED).toBe('Amount not detected / Check attachments');
  });
});
