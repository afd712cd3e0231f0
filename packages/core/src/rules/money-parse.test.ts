import { describe, expect, it } from 'vitest';
import { parseAmount } from './money-parse';

describe('parseAmount: the Indian lakh grouping', () => {
  it.each([
    ['1,23,456.78', 12345678],
    ['12,34,567.00', 123456700],
    ['1,00,000', 10000000],
    ['99,99,99,999.99', 99999999999],
  ])('%s → %s', (text, minor) => {
    expect(parseAmount(text)?.minor).toBe(minor);
  });

  it.each([['1,2,345.00'], ['1,23,45.00'], ['123,45,678'], ['1.23.456,78']])('refuses %s', (text) => {
    expect(parseAmount(text)).toBeNull();
  });
});
