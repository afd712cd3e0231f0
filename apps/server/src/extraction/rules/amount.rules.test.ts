import { describe, expect, it } from 'vitest';
import { linesFromPlainText } from '../layout/lines';
import { findTotal } from './amount.rules';
import { AMOUNT_FEATURES, AMOUNT_WEIGHTS, amountScore } from './amount.weights';
import { prepareDoc } from './document';

/** The grand total the rules pick from a plain-text layout (cells are separated by two or more spaces). */
function total(text: string, invoiceNumber?: string) {
  const t = findTotal(prepareDoc(linesFromPlainText(text)), { invoiceNumber });
  return t ? t.value.minor / 10 ** t.value.decimals : null;
}

describe('grand total: scored candidates', () => {
  it('keeps every weight in one table, one per feature', () => {
    expect(Object.keys(AMOUNT_WEIGHTS).sort()).toEqual([...AMOUNT_FEATURES].sort());
    expect(amountScore({ labelStrong: 1, position: 1 })).toBeCloseTo(
      AMOUNT_WEIGHTS.labelStrong + AMOUNT_WEIGHTS.position,
    );
  });

  it('takes the invoice total, not the amount due that adds a previous unpaid balance', () => {
    expect(
      total(`
Northwind Traders                                  INVOICE
Description                 Qty     Price      Amount
Support plan                  1    200.00     $200.00
                          SUBTOTAL               $200.00
                          SALES TAX               $16.00
                          TOTAL                  $216.00
                          PREVIOUS UNPAID BALANCE $75.00
                          AMOUNT DUE             $291.00
`),
    ).toBe(216);
  });

  it('reads a total in Indian grouping whole', () => {
    expect(
      total(`
Tailspin Ltd                                   TAX INVOICE
Sub Total                                      ₹6,00,000.00
IGST 18%                                       ₹1,08,000.00
Total                                          ₹7,08,000.00
`),
    ).toBe(708000);
  });
});

describe('grand total on till receipts', () => {
  it('takes the card payment line when no total label was read', () => {
    expect(
      total(`
Emmentaler Stück                       2,69 A
Apfelsaft                              1,19 B
xx                                     3,88
Kreditkarte                            3,88
`),
    ).toBe(3.88);
  });

  it('does not take the cash tendered when change was given', () => {
    expect(
      total(`
BIO HONIG                              3,29
BARGELD                               10,00
ZURÜCK                                 6,71
`),
    ).toBe(3.29);
  });

  it('adds up one VAT row per rate to the grand total printed beside a payment line', () => {
    expect(
      total(`
SUPER SANDWICH                         1,79 B
VODKA                                 12,99 C
Mastercard          EUR               14,78
MwSt        NETTO        MwSt        UMSATZ
B 7%         1,67        0,12          1,79
C 19%       10,92        2,07         12,99
`),
    ).toBe(14.78);
  });

  it('does not take an amount from a sentence that mentions a total (explanation pages, payment plans)', () => {
    expect(
      total(`
Bonjour, voici votre facture du 2 novembre 2019 :
Vos services                    10,83      12,99
Montant prélevé                            12,99
Le montant restant dû après cette mensualité sera de 128,00€ soit 16 mensualités.
`),
    ).toBe(12.99);
  });

  it('reads Spanish partial totals as subtotals and the balance owed as the total', () => {
    expect(
      total(`
Rotulador de pizarra          50      1.20      60.00
Trituradora papel              5    100.25     500.00
TOTAL PARCIAL                                 560.00
TOTAL IMPUESTOS                                84.00
Saldo adeudado                                644.00
`),
    ).toBe(644);
  });
});
