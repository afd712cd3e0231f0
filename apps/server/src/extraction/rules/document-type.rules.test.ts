import { describe, expect, it } from 'vitest';
import type { Line } from '../extraction.types';
import { linesFromPlainText } from '../layout/lines';
import { prepareDoc } from './document';
import { documentTypeFromCode, findDocumentType } from './document-type.rules';
import { extractFieldsFromLines } from './fields.rules';

/** The type the rules read from a plain-text layout (cells are separated by two or more spaces). */
function typeOf(text: string): string | null {
  return extractFieldsFromLines(linesFromPlainText(text)).document_type?.value ?? null;
}

describe('till receipts in more languages', () => {
  it("a Lithuanian slip ('Kvitas', 'grynaisiais', 'Kasininkas') and a Vietnamese one ('Tiền khách trả') are receipts", () => {
    expect(
      typeOf(`
RIMI PAVYZDYS, UAB
Kvitas 215/3321
Duona                          1,99
Mokėti                         1,99
Mokėta (grynaisiais)           5,00
Kasininkas (-ė) 1002`),
    ).toBe('receipt');
    expect(
      typeOf(`
CỬA HÀNG MINH AN
Bánh gạo 230g             1   19,000    19,000
Tổng cộng:                              19,000
Tiền khách trả:                         20,000
Số GD: 000AB2212008001234 Ngày: 16/08/2020-17:18
Thu ngân: BH5`),
    ).toBe('receipt');
  });

  it('an Indonesian till slip (struk): cash, change and cashier, no title', () => {
    expect(
      typeOf(`
INDOGROSIR SUKABUMI
JL. RAYA SUKARAJA NO. 8
22.08.23 14:05   KASIR: 0712
BERAS 5KG            1     139.500
MINYAK GORENG        2      72.240
TOTAL                      211.740
TUNAI                      250.000
KEMBALI                     38.260
TERIMA KASIH
`),
    ).toBe('receipt');
  });
});

describe('the shape of a till slip', () => {
  /** An OCR'd slip: 16 lines of 34 px, 40 px apart, in a column 300 px wide (a photo of a 58 mm roll). */
  const slip = (rows: string[][]): Line[] =>
    rows.map((cells, i) => ({
      page: 1,
      index: i,
      y0: 100 + 40 * i,
      y1: 134 + 40 * i,
      rel: (100 + 40 * i) / 800,
      cells: cells.map((text, k) => ({ text, x0: k === 0 ? 40 : 260, x1: k === 0 ? 40 + 9 * text.length : 340 })),
      text: cells.join('  '),
      size: 34,
    }));
  const rows = [
    ['CONTOSO MART'],
    ['123 Main Street'],
    ['Redmond, WA 98052'],
    ['Apples', '3.99'],
    ['Bread', '2.49'],
    ['Milk 2L', '3.29'],
    ['Coffee beans', '11.99'],
    ['Eggs 12', '4.19'],
    ['Butter', '3.79'],
    ['Bananas', '1.29'],
    ['Tomatoes', '2.19'],
    ['Subtotal', '33.22'],
    ['Sales tax', '2.82'],
    ['TOTAL', '36.04'],
    ['06/10/2019'],
    ['Thank you!'],
  ];
  it('a receipt with no cash, card or till word is told by its narrow strip of text', () => {
    expect(findDocumentType(prepareDoc(slip(rows)))?.value).toBe('receipt');
  });
  it('the same lines across a page are an invoice', () => {
    const wide = slip(rows).map((l) => ({
      ...l,
      cells: l.cells.map((c, k) => (k ? { ...c, x0: 1500, x1: 1600 } : c)),
    }));
    expect(findDocumentType(prepareDoc(wide))?.value).toBe('invoice');
  });
});

describe('document type from the title', () => {
  it('an English invoice with its title at the top', () => {
    expect(
      typeOf(`
Brightline Software LLC                                   INVOICE
12 High Street, Boston, MA 02108
Bill To:                                     Invoice No.:      INV-20931
Harbour Logistics Inc.                       Invoice Date:     04/03/2024
Description            Qty     Unit price      Amount
Consulting              10         120.00    1,200.00
Subtotal                                     $1,200.00
Sales Tax 8%                                    $96.00
Total                                        $1,296.00
`),
    ).toBe('invoice');
  });

  it('an invoice without any title: its payable total makes it one', () => {
    expect(
      typeOf(`
Studio Nord GmbH
Hauptstraße 1, 20095 Hamburg
Leistung                    Betrag
Fotografie                 800,00 €
zzgl. 19 % MwSt.           152,00 €
Gesamtbetrag               952,00 €
`),
    ).toBe('invoice');
  });

  it('German credit note: "Gutschrift" referring to the invoice it corrects', () => {
    expect(
      typeOf(`
Müller Haustechnik GmbH - Hauptstraße 12 - 10115 Berlin
Schmidt & Weber AG
Gutschrift Nr. GS-2024-7
Gutschrift zu Rechnung Nr. RE-2024/117 vom 05.03.2024
Nettobetrag                         -100,00 EUR
zzgl. 19% MwSt.                      -19,00 EUR
Gesamtbetrag                        -119,00 EUR
`),
    ).toBe('credit_note');
  });

  it('French "avoir" and Italian "nota di credito"', () => {
    expect(
      typeOf(`
Atelier Lumière SARL
AVOIR
Avoir sur facture n° F-2023-88 du 12/09/2023
Total HT              -50,00 €
TVA 20 %              -10,00 €
Total TTC             -60,00 €
`),
    ).toBe('credit_note');
    expect(
      typeOf(`
Ferramenta Rossi S.r.l.
NOTA DI CREDITO N. 14/2024
Rif. fattura n. 233 del 02/02/2024
Imponibile              -200,00
IVA 22%                  -44,00
Totale documento        -244,00 EUR
`),
    ).toBe('credit_note');
  });

  it('trap: an order confirmation that says the invoice will follow, with totals', () => {
    expect(
      typeOf(`
Kontor Versand GmbH
AUFTRAGSBESTÄTIGUNG Nr. AB-55012
Vielen Dank für Ihre Bestellung. Die Rechnung erhalten Sie mit der Lieferung.
Rechnungsadresse:                 Lieferadresse:
Artikel              Menge     Preis
Schreibtisch             1    499,00
Summe netto                   499,00
MwSt. 19 %                     94,81
Gesamtbetrag                  593,81 EUR
`),
    ).toBe('order_confirmation');
    expect(
      typeOf(`
ACME Components Ltd
Order Confirmation
Thank you for your order. An invoice will follow once the goods have shipped.
Invoice address:             Delivery address:
Item                Qty      Price
Widget               10      12.00
Total                       120.00 GBP
`),
    ).toBe('order_confirmation');
  });

  it('trap: a payment reminder that repeats the invoice, its number and its total', () => {
    expect(
      typeOf(`
Brightline Software LLC
Payment Reminder
Our invoice INV-20931 of 04/03/2024 is now overdue.
Invoice No.:       INV-20931
Invoice total:     $1,296.00
Amount due:        $1,296.00
`),
    ).toBe('payment_reminder');
    expect(
      typeOf(`
Installations Dupont SAS
RELANCE
Sauf erreur de notre part, la facture n° 2024-031 reste impayée.
Facture n°            2024-031
Montant TTC           1 200,00 €
Net à payer           1 200,00 €
`),
    ).toBe('payment_reminder');
  });

  it('a delivery note: quantities delivered, no prices', () => {
    expect(
      typeOf(`
Holzbau Maier KG
Lieferschein 88123
Lieferdatum: 03.04.2024
Artikel                  Bestellt    Gelieferte Menge
Balken 12x12             20          20
Empfangen:  ______________
`),
    ).toBe('delivery_note');
    expect(
      typeOf(`
Transportes García S.L.
ALBARÁN DE ENTREGA
Artículo              Cantidad entregada
Palé de ladrillos     4
`),
    ).toBe('delivery_note');
  });

  it('a combined invoice and delivery note with prices is an invoice', () => {
    expect(
      typeOf(`
Holzbau Maier KG
Rechnung
Lieferschein-Nr.: 88123
Artikel                  Menge      Preis
Balken 12x12             20       400,00
zzgl. 19% MwSt.                    76,00
Gesamtbetrag                      476,00 EUR
`),
    ).toBe('invoice');
  });

  it('a contract: its title and signatures, though it names fees', () => {
    expect(
      typeOf(`
MUTUAL NON-DISCLOSURE AGREEMENT
This Agreement is entered into by the parties below. Invoices are payable within 30 days.
1. Confidential information ...
Signature: ____________        Signature: ____________
`),
    ).toBe('contract');
    expect(
      typeOf(`
OVEREENKOMST
Tussen partijen wordt het volgende overeengekomen.
Handtekening: ____________
`),
    ).toBe('contract');
  });

  it('a receipt: by its title, or a till slip by its change and cash lines', () => {
    expect(
      typeOf(`
Stripe, Inc.
Receipt
Receipt number  1234-5678
Amount paid     $20.00
`),
    ).toBe('receipt');
    expect(
      typeOf(`
BÄCKEREI KORN
Brötchen              2,40
Kaffee                2,80
SUMME EUR             5,20
Gegeben BAR          10,00
Rückgeld              4,80
`),
    ).toBe('receipt');
    expect(
      typeOf(`
Trattoria da Gino
SCONTRINO
Pizza margherita       8,00
TOTALE EURO            8,00
Contanti              10,00
Resto                  2,00
`),
    ).toBe('receipt');
  });

  it('a statement of account with balances; a "statement" that is a bill stays an invoice', () => {
    expect(
      typeOf(`
Office Supply Co.
STATEMENT OF ACCOUNT
Opening balance                          500.00
Invoice 1001   01/03/2024                200.00
Payment        10/03/2024               -500.00
Closing balance                          200.00
`),
    ).toBe('statement');
    expect(
      typeOf(`
City Power & Light
Statement
Account number 5561-22
Electricity March          84.20
Amount due                 84.20 USD
`),
    ).toBe('invoice');
  });

  it('a quote is no invoice however complete its totals; a document with nothing to go on is other', () => {
    expect(
      typeOf(`
Maler Schulz
Angebot Nr. 2024-12
Anstrich Wohnzimmer       1.000,00
MwSt. 19%                   190,00
Gesamtbetrag              1.190,00 EUR
`),
    ).toBe('other');
    const letter = [
      'Dear Sir or Madam,',
      'please find our new opening hours below. From the first of next month our shop on the market square opens',
      'earlier in the morning and closes later in the evening, so that you can collect your orders on your way home.',
      'Monday to Friday we are there for you from eight in the morning until seven in the evening, on Saturdays',
      'until two in the afternoon. We look forward to seeing you soon and thank you for your loyalty over the years.',
    ].join('\n');
    expect(typeOf(letter)).toBe('other');
  });

  it('too little text to tell (a photo OCR could hardly read) is unknown, not other: it still counts and is filed', () => {
    expect(typeOf('Dear Sir or Madam,\nplease find our new opening hours below.\nMonday to Friday 9 to 5')).toBeNull();
    expect(typeOf('~ ,; BLLA\n12.3 ]] 4S\nrn a ll')).toBeNull();
  });

  it('Spanish, Romanian and Dutch titles', () => {
    expect(
      typeOf(`
Suministros López S.A.
FACTURA RECTIFICATIVA R-2024-3
Base imponible      -100,00
IVA 21%              -21,00
Total               -121,00 €
`),
    ).toBe('credit_note');
    expect(
      typeOf(`
SC Alfa Construct SRL
CONFIRMARE COMANDA nr. 77
Total de plata       1.190,00 lei
`),
    ).toBe('order_confirmation');
    expect(
      typeOf(`
Bakkerij de Vries B.V.
BETALINGSHERINNERING
Factuur 2024-118 staat nog open.
Factuurnummer      2024-118
Te betalen         € 45,00
`),
    ).toBe('payment_reminder');
  });

  it("an energy bill that has a section about 'your contract' stays an invoice", () => {
    expect(
      typeOf(`
EDF
Facture du 11/12/2022
Montant total TTC        62,86 €
Votre contrat
Titulaire du contrat : Mme Guérin
Électricité « Tarif Bleu »
`),
    ).toBe('invoice');
  });

  it("a till receipt without a title, by its card terminal's words and the time of sale", () => {
    expect(
      typeOf(`
real GmbH
Husener Str. 121, 33100 Paderborn
SEBAMED TROCKENE H        8,99
SUMME EUR                19,46
MasterCard EUR           19,46
15.04.20 16:15
Kundenbeleg
Terminal-ID  65280391
Trace-Nr.  13104
Bitte Beleg aufbewahren
`),
    ).toBe('receipt');
  });

  it('a larger font makes a title of a word lower down', () => {
    const lines: Line[] = linesFromPlainText(`
Kontor Versand GmbH
Hafenstraße 3
20457 Hamburg
Kunde: Schmidt & Weber AG
Lindenweg 8
80331 München
Telefon 040 123456
E-Mail info@kontor.example
Web www.kontor.example
Datum 03.04.2024
Ihre Zeichen: AB
Unsere Zeichen: KV
Lieferschein
Artikel            Menge
Schrank            1
`);
    const title = lines.find((l) => l.text === 'Lieferschein')!;
    title.size = 18;
    expect(findDocumentType(prepareDoc(lines))?.value).toBe('delivery_note');
  });
});

describe('document type from an e-invoice type code (UNTDID 1001)', () => {
  it('maps invoices and credit notes', () => {
    expect(documentTypeFromCode('380')).toBe('invoice');
    expect(documentTypeFromCode('384')).toBe('invoice');
    expect(documentTypeFromCode('381')).toBe('credit_note');
    expect(documentTypeFromCode('261')).toBe('credit_note');
    expect(documentTypeFromCode(null, 'UBL-CreditNote')).toBe('credit_note');
    expect(documentTypeFromCode(null, 'CII')).toBeNull();
  });
});

describe('till receipts without a title', () => {
  it('a café receipt: its sales associate, the tip and the time of sale', () => {
    expect(
      typeOf(`
Contoso
123 Main Street
Redmond, WA 98052
6/10/2019 13:59
Sales Associate: Paul
1 Cappuccino                     $4.50
Sub-Total                       $11.70
Tax                              $1.17
Tip                              $1.63
Total                           $14.50
`),
    ).toBe('receipt');
  });

  it('a supermarket receipt: a bottle deposit, goods weighed by the kilo, the card that paid', () => {
    expect(
      typeOf(`
Marktkauf
33102 Paderborn
PFAND                             0,25
0,144 kg x 1,99 EUR/kg
BANANEN                           0,29
SUMME EUR                        20,08
Mastercard EUR                   20,08
`),
    ).toBe('receipt');
  });

  it('Nordic, Polish and Czech receipts by their titles (Kvittering, Kvitto, Paragon fiskalny, Účtenka)', () => {
    for (const title of ['Kvittering', 'Kvitto', 'PARAGON FISKALNY', 'Účtenka'])
      expect(typeOf(`${title}\nFly Chicken 1 AS\nTotalt   249,00 kr\n`)).toBe('receipt');
  });

  it('a title naming two kinds ("RECHNUNG / LIEFERSCHEIN"): the total to pay makes it an invoice', () => {
    const doc = `
Papoo Software & Media GmbH                              RechnungsNr:  70128793
Auguststr. 4, 53229 Bonn                                 Datum:        01.11.2023
RECHNUNG / LIEFERSCHEIN
ID        Produkt                 Preis      Menge      Summe
65-38-37  Business Tarif         170,42          1     170,42
                                  Gesamtnetto (EUR)    170,42
                                  zzgl. 19 % Ust.       32,38
                                  Summe brutto (in EURO)   202,80
`;
    expect(typeOf(doc)).toBe('invoice');
  });

  it("a Mexican CFDI of the type 'E - Egreso' is a credit note, whatever else it looks like", () => {
    const cfdi = (kind: string) => `
                                                       SERIE:
                                                       FOLIO:          10826
                                                       FECHA:          2024-02-08T09:27:43
                                                       COMPROBANTE:    ${kind}
EMISOR
NOMBRE:        IMPORTADORA SAYTO                       RFC: ISA691119E20
RECEPTOR
NOMBRE:        ROBERTO RETA RESENDEZ                   RFC: RERR6008226N5
Servicios de facturación          $516.12       $516.12
                                         Total   $598.70
`;
    expect(typeOf(cfdi('E - Egreso'))).toBe('credit_note');
    expect(typeOf(cfdi('I - Ingreso'))).toBe('invoice');
  });
});

describe('a till slip whose cues OCR mostly lost (made-up shop)', () => {
  it('a total, the time of the sale and a sales associate, and no invoice label: a receipt; with an invoice number: an invoice', () => {
    const slip = (extra: string) =>
      typeOf(`
                  Northwind
           12 Harbour Street
           Redmond, WA 98052
           6/10/2019 13:59
           Sales Associate; Jane
2 Widget Pro                     $1998.00
Sub-Total                        $1,998.00
Tax                                $181.82
Total                            $2,179.82${extra}`);
    expect(slip('')).toBe('receipt');
    expect(slip('\nInvoice No. 4471')).toBe('invoice');
  });
});
