import { describe, expect, it } from 'vitest';
import { findAmounts, findCurrencies, parseAmount, parseXmlDecimal } from './money.parser';

describe('parseAmount: the four number styles', () => {
  it.each([
    ['1,234.56', 123456],
    ['1.234,56', 123456],
    ['1 234,56', 123456],
    ['1\u00a0234,56', 123456],
    ['1\u202f234,56', 123456],
    ["1'234.56", 123456],
    ['1’234.56', 123456],
    ['1234.56', 123456],
    ['1234,56', 123456],
    ['12.345.678,90', 1234567890],
    ['12,345,678.90', 1234567890],
    ['0,99', 99],
    ['7', 700],
    ['1.234', 123400],
    ['1,234', 123400],
    ['-12,50', -1250],
    ['(12.50)', -1250],
    ['12.50-', -1250],
  ])('%s → %i minor units', (text, minor) => {
    expect(parseAmount(text)?.minor).toBe(minor);
  });

  it('rejects text that is not one amount', () => {
    for (const bad of ['12.34.56,7,8', 'abc', '1 23', '', '1,2,3']) expect(parseAmount(bad)).toBeNull();
  });

  it('scales to the currency decimals without floats', () => {
    expect(parseAmount('1.234', 3, '.')?.minor).toBe(1234);
    expect(parseAmount('1,234', 0)?.minor).toBe(1234);
    expect(parseXmlDecimal('0.1', 2)).toBe(10);
    expect(parseXmlDecimal('1021.905', 2)).toBe(102191);
    expect(parseXmlDecimal('-8.79', 2)).toBe(-879);
  });
});

describe('currencies', () => {
  it('reads ISO codes and symbols', () => {
    expect(findCurrencies('Total 12,00 €')).toContain('EUR');
    expect(findCurrencies('£ 12.00')).toContain('GBP');
    expect(findCurrencies('$12.00')).toContain('USD');
    expect(findCurrencies("CHF 1'200.00")).toContain('CHF');
    expect(findCurrencies('120,00 lei')).toContain('RON');
    expect(findCurrencies('Rs 1939')).toContain('INR');
    expect(findCurrencies('Amount in PLN')).toContain('PLN');
    expect(findCurrencies('THE END')).toEqual([]);
  });

  it('finds amounts with their currency and skips years, dates and percentages', () => {
    const found = findAmounts('Total TTC : 56,02 € le 28/11/2022, TVA 20% en 2022');
    expect(found.map((a) => [a.minor, a.currency])).toEqual([[5602, 'EUR']]);
    expect(findAmounts('Gesamt EUR 1.234,56').map((a) => a.minor)).toEqual([123456]);
    expect(findAmounts('USD 99').map((a) => [a.minor, a.currency])).toEqual([[9900, 'USD']]);
    expect(findAmounts('19-10-2022', { allowIntegers: true })).toEqual([]);
  });

  it('finds amounts of 1,000 and more in every number style, the lakh grouping too', () => {
    const read = (text: string) => findAmounts(text).map((a) => [a.minor, a.currency]);
    expect(read('Total 5,178.43 EUR')).toEqual([[517843, 'EUR']]);
    expect(read('Gesamt 5.178,43 €')).toEqual([[517843, 'EUR']]);
    expect(read('Total TTC 5 178,43 €')).toEqual([[517843, 'EUR']]);
    expect(read("Total CHF 5'178.43")).toEqual([[517843, 'CHF']]);
    expect(read('Grand Total ₹1,23,456.78')).toEqual([[12345678, 'INR']]);
    expect(read('Total INR 12,34,567.00 due')).toEqual([[123456700, 'INR']]);
  });
});

describe('number conventions beyond the four styles', () => {
  it.each([
    ['7,08,000.00', 70800000],
    ['1,23,45,678.50', 1234567850],
    ['12,34,567', 123456700],
    ['1\u2009234,56', 123456],
    ['1 234.56−', -123456],
  ])('%s → %i minor units', (text, minor) => {
    expect(parseAmount(text)?.minor).toBe(minor);
  });

  it('finds an amount in Indian grouping whole, with its rupee sign', () => {
    expect(findAmounts('Total ₹7,08,000.00').map((a) => [a.minor, a.currency])).toEqual([[70800000, 'INR']]);
    expect(findAmounts('Amount INR 1,23,456.00').map((a) => a.minor)).toEqual([12345600]);
  });

  it('reads a trailing minus as the sign of the amount', () => {
    expect(findAmounts('Gutschrift 233,47-').map((a) => a.minor)).toEqual([-23347]);
  });
});

describe('whole amounts printed with a dash for the cents, and the krone and forint after a number', () => {
  it.each([
    ['Gesamt 1.234,- €', 123400, 'EUR'],
    ['Summe EUR 1.234,--', 123400, 'EUR'],
    ['Celkem 1 250,- Kč', 125000, 'CZK'],
    ['Fr. 120.–', 12000, 'CHF'],
    ["CHF 1'200.-", 120000, 'CHF'],
    ['Summa 1 250:-', 125000, null],
    ['Att betala 150 kr', 15000, null],
    ['Összesen: 12 000 Ft', 1200000, 'HUF'],
  ])('%s', (text, minor, currency) => {
    expect(findAmounts(text).map((a) => [a.minor, a.currency])).toEqual([[minor, currency]]);
  });

  it('keeps a trailing minus a sign, and a range of days or a phone number no amount', () => {
    expect(findAmounts('Gutschrift 1.234,56-').map((a) => a.minor)).toEqual([-123456]);
    expect(findAmounts('vom 10.-20. Mai')).toEqual([]);
    expect(findAmounts('Tel. 089-123')).toEqual([]);
  });
});
