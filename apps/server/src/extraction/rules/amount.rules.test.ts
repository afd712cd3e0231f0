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

  it("a utility bill: a metered total ('Total Consumption 490 m3') is no money; the pre-authorized withdrawal is the total", () => {
    expect(
      total(`
Riverside Utilities                                Your Account Summary
                                                   Balance Forward:                 0.00
                                                   Gas & Water Charges:           197.90
                                                   Stormwater Rate Charges:        12.49
UTILITY BILL                                       Pre-authorized Withdrawal:     210.39
GAS                                                                 Rate     Charges
            Total Consumption                        490     m3
            Gas Variable Delivery                    481     m3   0.107090     51.51
Total Gas & Water Charges for 12 MAIN ST                                      197.90`),
    ).toBe(210.39);
    expect(
      total(`
Riverside Utilities
            Total Consumption                        490     m3
            Water                                      8     m3   2.239500     17.92
Total                                                                          17.92`),
    ).toBe(17.92);
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

  it('takes the total two lines repeat over one the card slip below misreads (OCR)', () => {
    const receipt = (slip: string) => `
KIWI 4009                              1,99
SUMME             EUR                 12,07
MasterCard        EUR                 12,07
Datum: 21.04.2020
Terminal-ID 65280397
Betrag EUR                            ${slip}
`;
    expect(total(receipt('12,01'))).toBe(12.07);
    // The same slip alone (no repetition above) is still read as it stands.
    expect(total('KIWI 4009       1,99\nBetrag EUR      12,01\n')).toBe(12.01);
  });

  it('reads a total label OCR misread by one letter, but not a real word one letter away', () => {
    expect(total('340 ZUBEHÖR SONSTIGES\nAS-Zeit 20.05. 14:57 Uhr\nBstrag EUR        99,86\n')).toBe(99.86);
    expect(total('KIWI            1,99\nSUNME  EUR      12,07\n')).toBe(12.07);
    // "Beitrag" (a contribution) is a word of its own: no total, so the amount with a currency is taken at most.
    expect(findTotal(prepareDoc(linesFromPlainText('Beitrag         12,00\n')))).toBeNull();
  });

  it('ranks a bare whole number under a total label low where the page prints its amounts with decimals', () => {
    const t = findTotal(
      prepareDoc(linesFromPlainText('REFRESCOS        3,50\nMENU            15,90\nTOTAL               1\n')),
    );
    expect(t?.confidence ?? 0).toBeLessThan(0.6);
  });

  it('does not count rows under one column header as a repeated total', () => {
    expect(
      total(`
Training Date   Description            Price     Line Total
12/5/2020       Manager Training       $3,500       $3,500
12/10/2020      Manager Training       $3,500       $3,500
                                     Subtotal      $7,000
                                     Sales Tax         3%
                                     Total         $7,210
`),
    ).toBe(7210);
  });

  it('completes a total OCR read one digit short from cash less change, or the VAT column above it', () => {
    // "16,62" read as "16.6": cash 20,00 less change 3,38 ("RÜCKGELD" read "ROCKGELD") is the one completion.
    expect(
      total(`
MOCCA TAFEL 100g                       5,79
SUMME             EUR                  16.6
Bar               EUR                 20,00
ROCKGELD          EUR                  3,38
`),
    ).toBe(16.62);
    // "17,33" read as "17,3" under a VAT table whose gross column adds up to 17,33.
    expect(
      total(`
MwSt-Gruppe      Netto    Brutto
A 19%            12,37     15,44
B 7%              1,77      1,89
Summe            14,14      17,3
`),
    ).toBe(17.33);
    // Nothing on the page completes it: the reading stays as it is.
    expect(total('SUMME   EUR   16.6\nKarte   EUR   16.6\n')).toBe(16.6);
  });

  it('adds what was paid to the amount due when the total itself could not be read', () => {
    expect(
      total(`
Balance Due:                          $4,647.68
Subtota                              $22,379.39
Tota                                  $19,64768
Amount Paid                          $15,000.00
`),
    ).toBe(19647.68);
    // The due amount less the payment printed too: the due amount is the total, nothing is added.
    expect(
      total(`
Amount due                            15'693.11
Amount paid                           -4'707.93
Balance due                           10'985.18
`),
    ).toBe(15693.11);
    // A negative invoice (a correction): the deposit counts the other way.
    expect(
      total(`
Facture                                       F-12
Acompte :                                    -10,00
NET A PAYER                              -90,00 EUR
`),
    ).toBe(-100);
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
