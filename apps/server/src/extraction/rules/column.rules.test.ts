import { describe, expect, it } from 'vitest';
import { linesFromPlainText } from '../layout/lines';
import { findDates } from './date.parser';
import { extractFieldsFromLines } from './fields.rules';
import { headerNumberScore } from './number.rules';
import { companyLike } from './vendor.rules';

/** Runs the rules over a plain-text layout (cells are separated by two or more spaces; 6 points per character). */
function fields(text: string) {
  const r = extractFieldsFromLines(linesFromPlainText(text));
  return {
    vendor: r.vendor?.value ?? null,
    amount: r.amount ? r.amount.value.minor / 10 ** r.amount.value.decimals : null,
    invoice_date: r.invoice_date?.value ?? null,
    invoice_number: r.invoice_number?.value ?? null,
  };
}

const totals = `
Description                 Qty        Amount
Consulting                    1        100,00
Total                                  100,00 EUR`;

describe('value below its label in the same column', () => {
  // Header rows (labels over values, left- or right-aligned), headers wrapped over two lines, stacked label/value.
  it.each([
    [
      'header row, the delivery date first',
      `Acme GmbH\nLieferdatum     Rechnungsdatum     Rechnungsnr.     Kundennr.\n02.03.2024      05.03.2024         RE-117           47774`,
      '2024-03-05',
      'RE-117',
    ],
    [
      'header wrapped over two lines',
      `Acme Ltd\nDelivery    Invoice     Invoice     Account\ndate        date        No.         no.\n02/03/2024  05/03/2024  INV-0042    88120`,
      '2024-03-05',
      'INV-0042',
    ],
    [
      'right-aligned columns',
      `Acme B.V.\n    Klantnummer   Factuurdatum    Factuur\n          4477     5-3-2024   VF1005193039`,
      '2024-03-05',
      'VF1005193039',
    ],
    [
      'stacked in a side column',
      `Acme SARL\n                                Échéance\n                                05/04/2024\n                                N° de commande\n                                495983\n                                N° de facture\n                                2024-09105\n                                Date\n                                05/03/2024`,
      '2024-03-05',
      '2024-09105',
    ],
    [
      'a bare "Nummer" label',
      `Acme B.V.\nKlantnummer    43802      Datum factuur   5 maart 2024\nNummer         R338224    Vervaldatum     19-03-2024`,
      '2024-03-05',
      'R338224',
    ],
  ])('%s', (_name, head, date, number) => {
    const r = fields(`${head}\n${totals}`);
    expect([r.invoice_date, r.invoice_number]).toEqual([date, number]);
  });

  it.each([
    ['invoice no.', 0.88],
    ['invoice', 0.8],
    ['n° facture :', 0.88],
    ['number', 0.6],
    ['customer no.', null],
    ['invoice date', null],
    ['invoice total', null],
  ])('headerNumberScore(%j)', (header, want) => {
    expect(headerNumberScore(header)).toBe(want);
  });
});

describe('dates the invoice date is not', () => {
  it.each([
    [
      'a table column of service dates under "Datum"',
      `Acme GmbH\n                                   Datum\n                                   12.06.2023\nDatum        Bezeichnung      Betrag\n14.05.2023   Wartung          100,00\n07.05.2023   Wartung          100,00\nGesamtbetrag                  200,00 EUR`,
      '2023-06-12',
    ],
    [
      'the corrected invoice named on a credit note',
      `Acme GmbH\nGUTSCHRIFT\nGutschrift zu Rechnung Nr. 2024-001 vom 05.11.2024\nDatum     12.12.2024\n${totals}`,
      '2024-12-12',
    ],
    [
      'letter style place and date, a delivery-note date in the header row',
      `Ferrari Impianti Srl\n                                       Roma, 08.10.2024\nData DDT      Cod. cliente      Numero fattura\n03/10/2024    14470             R357365\n${totals}`,
      '2024-10-08',
    ],
    [
      'a bare "le" after a due-date label',
      `Atelier Durand SARL\nDate              05.12.25\nDate d’échéance   le 5 janvier 2026\n${totals}`,
      '2025-12-05',
    ],
    [
      'one label for invoice and delivery date',
      `Acme GmbH\nRechnungsdatum = Leistungsdatum:   05.03.2024\nZahlbar bis:    19.03.2024\n${totals}`,
      '2024-03-05',
    ],
    [
      'a weekday in front of the date',
      `Acme GmbH\nLieferung:        Montag, 4. März 2024\nRechnungsdatum:   Dienstag, 5. März 2024\n${totals}`,
      '2024-03-05',
    ],
  ])('%s', (_name, text, want) => {
    expect(fields(text).invoice_date).toBe(want);
  });

  it('reads dotted numeric dates day first even in a month-first document', () => {
    expect(findDates('09.04.25', 'mdy')[0]?.iso).toBe('2025-04-09');
    expect(findDates('09/04/25', 'mdy')[0]?.iso).toBe('2025-09-04');
  });
});

describe('invoice numbers the invoice number is not', () => {
  it.each([
    ['Avoir sur facture n° F-2024-17 du 05/11/2024\nAvoir n° AV-2024-3', 'AV-2024-3'],
    ['Rif. fattura n. 12/2024 del 05/11/2024\nNota di credito n. NC-7', 'NC-7'],
    ['Creditering van factuur 2024-551 van 05-11-2024\nCreditnota nr. CN-88', 'CN-88'],
  ])('%s', (head, want) => {
    expect(fields(`Acme SARL\n${head}\n${totals}`).invoice_number).toBe(want);
  });
});

describe('totals', () => {
  it.each([
    [
      'a credit note printed negative is answered positive (EN 16931 type 381), net plus tax both negative',
      `Atelier Durand SARL\nAVOIR\nSous-total     -14 214,67\nTVA 20 %        -2 842,93\nReste à payer  -17 057,60 EUR`,
      17057.6,
    ],
    [
      'allowances and charges are not the total; a corrected invoice (type 384) keeps its negative sign',
      `Musterlieferant GmbH\nRechnungskorrektur\nPositionssumme                  -7,90\nGesamtbetrag der Zuschläge       0,00\nGesamtbetrag der Abschläge       0,23\nSteuerbetrag                    -1,12\nBruttosumme                     -8,79\nZahlbetrag                      -8,79 EUR`,
      -8.79,
    ],
    [
      'the label nearest to an amount, not the first cell of its line',
      `Ionescu Construct SRL\nTermen de plata   2025-01-22   Cod client   25070\nValoare fara TVA          817,77\nTVA 19%                   155,38\nTotal cu TVA              973,15 RON`,
      973.15,
    ],
    [
      'a deduction on an ordinary invoice stays a deduction',
      `Acme Ltd\nSubtotal      1,000.00\nVAT 20%         200.00\nTotal         1,200.00 GBP\nAmount paid    -300.00`,
      1200,
    ],
  ])('%s', (_name, text, want) => {
    expect(fields(text).amount).toBe(want);
  });
});

describe('vendor and customer labels', () => {
  it.each([
    [
      'Mittente:                     Intestatario:',
      'Marino Costruzioni S.r.l.          Hotel Belvedere S.p.A.',
      'Marino Costruzioni S.r.l.',
    ],
    [
      'Emitent:                      Client:',
      'Ionescu Construct SRL              Clinica Medis SRL',
      'Ionescu Construct SRL',
    ],
    [
      'Absender:                     Rechnungsempfänger:',
      'Brandt Elektrotechnik KG           Stadtwerke Lindau GmbH',
      'Brandt Elektrotechnik KG',
    ],
  ])('%s', (labels, names, want) => {
    expect(
      fields(`FACTURA STORNO\n${labels}\n${names}\nStr. Victoriei 12             Bd. Unirii 45\n${totals}`).vendor,
    ).toBe(want);
  });
});

describe('the issuer is the block that carries the bank account, registration or tax id', () => {
  const body = `INVOICE\nInvoice No.    INV-0042\nDate           05/03/2024\nTotal          100.00 GBP`;
  it.each([
    [
      'issuer at the top right in small type, the customer (with a legal form) at the left without a label',
      `                                                  Kestrel Logistics\n                                                  5 Harbour Way, Bristol\n                                                  VAT No. GB450031007\n                                                  IBAN GB11 2164 8379 4292 7451 34\nGreenway Foods Ltd\n88 Mill Lane\nLeeds LS1 4DT\n${body}`,
    ],
    [
      'issuer named only in a one-line footer',
      `Greenway Foods Ltd\n88 Mill Lane\nLeeds LS1 4DT\n${body}\n\n\n\n\n\nKestrel Logistics · 5 Harbour Way · Bristol · VAT No. GB450031007 · IBAN GB11 2164 8379 4292 7451 34`,
    ],
    [
      'issuer block at the bottom, its tax id and IBAN on one line',
      `Greenway Foods Ltd\n88 Mill Lane\nLeeds LS1 4DT\n${body}\nKestrel Logistics\n5 Harbour Way, Bristol\nVAT No. GB450031007   IBAN GB11 2164 8379 4292 7451 34`,
    ],
  ])('%s', (_name, text) => {
    expect(fields(text).vendor).toBe('Kestrel Logistics');
  });

  it.each([
    [
      'a VAT rate is not an id',
      `Acme Trading Ltd\n${body}\nSubtotal      100.00\nVAT 20%        20.00`,
      'Acme Trading Ltd',
    ],
    [
      'a sentence above the bank line is not a name',
      `Acme Trading Ltd\n${body}\nThank you for your business.\nIBAN GB11 2164 8379 4292 7451 34`,
      'Acme Trading Ltd',
    ],
  ])('%s', (_name, text, want) => {
    expect(fields(text).vendor).toBe(want);
  });
});

describe('companyLike', () => {
  it.each([
    ['Kestrel Logistics', true],
    ['Van Dijk Installaties', true],
    ['Casa de la Música', true],
    ['Studio Grafico srl', true],
    ['Gracias por su confianza', false],
    ['Thank you for your business', false],
  ])('%s', (text, want) => {
    expect(companyLike(text)).toBe(want);
  });
});

describe('delivery and service dates in participle and compound forms', () => {
  const tot = '\nTotal   100.00 GBP';
  it.each([
    ['Date of supply:  03/12/2025\nInvoice date:  05/12/2025'],
    ['Shipped on:  03/12/2025\nDate:  05/12/2025'],
    ['Geliefert am:  03.12.2025\nDatum:  05.12.2025'],
    ['Geleverd op:  03-12-2025\nDatum:  05-12-2025'],
    ['Afleverdatum:  03-12-2025\nDatum:  05-12-2025'],
    ['Date de prestation :  03/12/2025\nDate :  05/12/2025'],
    ['Invoice date (= delivery date):  05/12/2025\nDue:  19/12/2025'],
  ])('%s', (text) => {
    expect(fields(`Acme Ltd\n${text}${tot}`).invoice_date).toBe('2025-12-05');
  });
});
