import { describe, expect, it } from 'vitest';
import { linesFromPlainText } from '../layout/lines';
import { extractFieldsFromLines } from './fields.rules';

/**
 * Layouts of real Factur-X / ZUGFeRD generators (the ZUGFeRD corpus read through its page text), rebuilt as plain-text
 * layouts: cells are separated by two or more spaces, 6 points per character.
 */
function fields(text: string, titleSize?: number) {
  const lines = linesFromPlainText(text);
  // The title in larger type than the body, as printed.
  if (titleSize) lines[0] = { ...lines[0]!, size: titleSize };
  const r = extractFieldsFromLines(lines);
  return {
    vendor: r.vendor?.value ?? null,
    amount: r.amount ? r.amount.value.minor / 10 ** r.amount.value.decimals : null,
    invoice_date: r.invoice_date?.value ?? null,
    invoice_number: r.invoice_number?.value ?? null,
  };
}

describe('rules learnt from real generators', () => {
  it('takes the sum row of a totals column whose rows add up, on a hyphenated correction title', () => {
    const r = fields(`
Lieferant                 Käufer                  RECHNUNGS-KORREKTUR
MUSTERLIEFERANT GMBH      MUSTER-KUNDE GMBH       Beleg-Nr        : RK21012345
                                                  Beleg-Datum     : 16.09.2013
BAHNHOFSTRASSE 99         KUNDENWEG 88
Warenwert    Nettobetrag    MwSt-Betrag    MwSt-%    Endbetrag
-5,00        -4,85          -0,92          19,0      -5,77
-2,90        -2,82          -0,20          7,0       -3,02
-7,90        -7,67          -1,12          EUR       -8,79`);
    expect(r).toEqual({
      vendor: 'MUSTERLIEFERANT GMBH',
      amount: -8.79,
      invoice_date: '2013-09-16',
      invoice_number: 'RK21012345',
    });
  });

  it('leaves out a balance carried over from earlier invoices', () => {
    const r = fields(`
Versicherungsverein Musterstadt a.G.
Beitragsrechnung Nr. 00.123.456.7                             11. März 2014
Kfz-Haftpflicht SF25                                          80,00 €
Vollkasko SF25                                                140,00 €
vierteljährlicher Beitrag inklusive 19 % Versicherungsteuer   220,00 €
Ausstehende Forderung am Ausstellungstag (Stand 04.03.2014)   220,00 €
zu zahlender Beitrag                                          440,00 €`);
    expect(r.amount).toBe(220);
    expect(r.invoice_date).toBe('2014-03-11');
  });

  it('skips a template version date and reads the date of a title wrapped onto the next line', () => {
    const r = fields(`
Stylesheet Lesbarmachung der XML-Daten von ZUGFeRD-Rechnungen
ZUGFeRD-Version  : 2.1 vom 24.03.2020
Stylesheet-Version: 2.0 vom 18.10.2018
Gutschrift (Selbst ausgestellte Rechnung) Nr. 471102 vom
05.03.2018
Verkäufer:
Lieferant GmbH
Bruttosumme      235,62
Zahlbetrag       235,62`);
    expect(r.invoice_date).toBe('2018-03-05');
    expect(r.amount).toBe(235.62);
  });

  it('names the issuer after the domain of its own mail address, not the customer in the window', () => {
    const r = fields(
      `
Invoice 103767
February 17, 2026
Adatum Corporation                                                        CRONUS DE
Station Road, 21                                                          Hofstraße 12
48436 Düsseldorf                                                          20097 Hamburg
                                                        Subtotal          573.00
                                                        19% VAT           108.87
                                                        Total € Incl. VAT 681.87
VAT Registration No.     Phone No.            Email
DE777777777              999 / 9 99 99 99     info@cronus.com`,
      18,
    );
    expect(r.vendor).toBe('CRONUS DE');
    expect(r.amount).toBe(681.87);
  });

  it('passes over banks in the footer and officers listed on two lines; reads "München, den"', () => {
    const r = fields(`
                          Alphabet Fuhrparkmanagement GmbH
                          Lilienthalallee 26, 80786 München
                          Geschäftsführer: Uwe Hildinger (Vors.),
                          Martin Stremplat
                          Sitz der Gesellschaft: München, HRB 181098
                          USt-IdNr. DE238574172
Muster GmbH                                   Rechnungsnummer:  2015738820
Musterweg 1                                   München, den      01.11.2024
Finanzrate vom 30.10.2024 bis 30.11.2024
Gesamtbetrag EUR                                                447,88
Volksbank Frankfurt · (BLZ 699922 99) 50 4999 09 SWIFT DXXX DE 6K`);
    expect(r.vendor).toBe('Alphabet Fuhrparkmanagement GmbH');
    expect(r.invoice_date).toBe('2024-11-01');
    expect(r.invoice_number).toBe('2015738820');
  });

  it("reads a yen sign before a total with cents as the page's other currency (OCR takes ₹ for ¥)", () => {
    const r = extractFieldsFromLines(
      linesFromPlainText(`
WS Retail Services Pvt. Ltd.
Invoice No: BLR_WFLD20151000982590
Rs 319.00 incl. taxes
Grand Total        ¥ 319.00`),
    );
    expect(r.currency?.value).toBe('INR');
    expect(r.amount?.value).toEqual({ minor: 31900, decimals: 2 });
  });
});
