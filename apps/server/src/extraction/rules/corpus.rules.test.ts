import { describe, expect, it } from 'vitest';
import { linesFromPlainText } from '../layout/lines';
import { extractFieldsFromLines } from './fields.rules';

/**
 * Layouts of real Factur-X / ZUGFeRD generators (the ZUGFeRD corpus read through its page text), rebuilt as plain-text
 * layouts: cells are separated by two or more spaces, 6 points per character.
 */
function fields(text: string) {
  const r = extractFieldsFromLines(linesFromPlainText(text));
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
});
