import { describe, expect, it } from 'vitest';
import { looseAmountToMinor, statedAmounts } from './amounts';
import { ImpliedRates, tableRate } from './fx-rates';
import { parseInvoicesJson } from './invoice-input';

describe('amounts for reconciliation', () => {
  it('reads amounts as invoices write them', () => {
    expect(looseAmountToMinor('€1,299.00', 'EUR')).toBe(129900);
    expect(looseAmountToMinor('1.299,00 €', 'EUR')).toBe(129900);
    expect(looseAmountToMinor("CHF 1'299.50", 'CHF')).toBe(129950);
    expect(looseAmountToMinor('12,5', 'EUR')).toBe(1250);
    expect(looseAmountToMinor('1.234', 'EUR')).toBe(123400);
    expect(looseAmountToMinor('1.234', 'KWD')).toBe(1234);
    expect(looseAmountToMinor(120.1, 'EUR')).toBe(12010);
    expect(looseAmountToMinor(1500, 'JPY')).toBe(1500);
    expect(looseAmountToMinor('n/a', 'EUR')).toBeNull();
    expect(looseAmountToMinor(null, 'EUR')).toBeNull();
  });

  it('finds original amounts stated with a currency code', () => {
    expect(statedAmounts('CARD FIGMA ORIG USD 49.99 KURS 0.9464')).toEqual([{ currency: 'USD', minor: 4999 }]);
    expect(statedAmounts('Kartenzahlung 1.234,56 GBP London')).toEqual([{ currency: 'GBP', minor: 123456 }]);
    expect(statedAmounts('REF 4711 USDT 12')).toEqual([]);
  });
});

describe('exchange rates', () => {
  it('crosses the bundled table through the euro and uses the nearest year it has', () => {
    expect(tableRate('EUR', 'USD', '2024-06-01')).toBeCloseTo(1.0824, 4);
    expect(tableRate('USD', 'EUR', '2024-06-01')).toBeCloseTo(1 / 1.0824, 4);
    expect(tableRate('GBP', 'USD', '2023-02-01')).toBeCloseTo(1.0813 / 0.8698, 3);
    expect(tableRate('USD', 'EUR', '2031-01-01')).toBe(tableRate('USD', 'EUR', '2025-01-01'));
    expect(tableRate('XYZ', 'EUR', '2024-01-01')).toBeNull();
  });

  it("uses a statement's own rates only near their date", () => {
    const rates = new ImpliedRates();
    rates.add('USD', 'EUR', 0.9, 1000);
    rates.add('USD', 'EUR', 0.92, 1010);
    rates.add('USD', 'EUR', 0.95, 1020);
    expect(rates.get('USD', 'EUR', 1010)).toBe(0.92);
    expect(rates.get('EUR', 'USD', 1010)).toBeCloseTo(1 / 0.92, 6);
    expect(rates.get('USD', 'EUR', 1200)).toBeNull();
    expect(rates.get('GBP', 'EUR', 1010)).toBeNull();
  });
});

describe('invoices JSON of the CLI', () => {
  it('reads the API fields and rejects what it cannot use with one message', () => {
    const invoices = parseInvoicesJson(
      JSON.stringify([
        {
          id: 'a',
          vendor: 'ACME',
          amount: '$1,299.00',
          currency: 'usd',
          invoice_date: '2026-03-02',
          invoice_number: 'X-1',
        },
        { id: 7, vendor: null, amount: null, currency: null, invoice_date: 'Mar 5, 2026', invoice_number: null },
      ]),
      'EUR',
    );
    expect(invoices).toEqual([
      {
        id: 'a',
        vendor: 'ACME',
        amountMinor: 129900,
        currency: 'USD',
        invoiceDate: '2026-03-02',
        invoiceNumber: 'X-1',
        vendorIban: null,
      },
      {
        id: '7',
        vendor: null,
        amountMinor: null,
        currency: null,
        invoiceDate: '2026-03-05',
        invoiceNumber: null,
        vendorIban: null,
      },
    ]);
    expect(() => parseInvoicesJson('{"id":1}', null)).toThrow('expected a JSON array of invoices');
    expect(() => parseInvoicesJson('[{"vendor":"x"}]', null)).toThrow('invoice 0 has no "id"');
    expect(() => parseInvoicesJson('[{"id":"a"},{"id":"a"}]', null)).toThrow('invoice id "a" appears twice');
  });
});
