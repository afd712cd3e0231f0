import { describe, expect, it } from 'vitest';
import { linesFromPlainText } from '../layout/lines';
import { extractFieldsFromLines } from './fields.rules';
import { firstToken, plausibleNumber } from './number.rules';
import { ocrNoise } from './vendor.rules';

function fields(text: string) {
  const r = extractFieldsFromLines(linesFromPlainText(text));
  return { vendor: r.vendor?.value ?? null, invoice_number: r.invoice_number?.value ?? null };
}

/** A customer-first page whose issuer appears only in the legal footer line. */
const footerPage = (customer: string, footer: string) => `
${customer}
12 Market Square
1012 AB Amsterdam
INVOICE
Invoice no.          A-1001
Description          Qty      Amount
Consulting             1      100.00
Total                          100.00
${'\n'.repeat(40)}
${footer}
`;

describe('vendor from the legal footer line', () => {
  it.each([
    [
      'Pendle Books Ltd',
      'Kestrel Analytics Ltd · Registered in England and Wales · Company no. 01234567',
      'Kestrel Analytics Ltd',
    ],
    [
      'Weber Logistik GmbH',
      'Lindner & Söhne GmbH · Registergericht Amtsgericht Köln · HRB 12345',
      'Lindner & Söhne GmbH',
    ],
    ['Garage Petit SARL', 'Atelier Durand SAS · SIRET 412 345 678 00012 · RCS Lyon', 'Atelier Durand SAS'],
    ['Bar Centrale S.n.c.', 'Studio Galli S.r.l. · P.IVA IT01234567890 · REA MI-1234567', 'Studio Galli S.r.l.'],
    ['Farmacia Verde SRL', 'Agro Mures S.R.L. · CUI/CIF RO12345678 · J40/123/2015', 'Agro Mures S.R.L.'],
    ['Café De Hoek BV', 'Van Dijk Installaties B.V. · KvK 12345678 · BTW NL123456789B01', 'Van Dijk Installaties B.V.'],
  ])('%s / %s', (customer, footer, want) => {
    expect(fields(footerPage(customer, footer)).vendor).toBe(want);
  });
});

describe('invoice numbers with a series prefix and credit-note titles', () => {
  it.each([
    ['FA 2024-001', 'FA 2024-001'],
    ['INV 0042/24  ', 'INV 0042/24'],
    ['RE-10023', 'RE-10023'],
    ['EUR 1 234,00', null],
    ['AB 12,50', null],
  ])('firstToken(%j)', (text, want) => {
    const tok = firstToken(text);
    expect(tok && plausibleNumber(tok) ? tok : null).toBe(want);
  });

  it.each([
    ['Avoir AV-2017-0005', 'AV-2017-0005'],
    ['Gutschrift (Selbst ausgestellte Rechnung) (389) Nr. 471102 vom 05.03.2018', '471102'],
    ['Rechnungskorrektur (384) Nr. RK21012345 vom 16.09.2018', 'RK21012345'],
    ['Credit note no. CN-42', 'CN-42'],
    ['Factuurnummer      FA 2023-310', 'FA 2023-310'],
  ])('%s', (line, want) => {
    expect(fields(`Acme GmbH\n${line}\nVotre référence    PO445\nTotal    12,00 EUR`).invoice_number).toBe(want);
  });
});

describe('receipts: noise and footer dates', () => {
  it('never takes OCR noise of a logo or opening hours as the vendor', () => {
    for (const noise of ['I Il ill', '| IlI|UI)', '"aE', 'ge', 'MO.-SA.', 'ILL']) expect(ocrNoise(noise)).toBe(true);
    for (const name of ['ALDI', 'real GmbH', 'Marktkauf', 'Delphin Apotheke']) expect(ocrNoise(name)).toBe(false);
  });

  it('reads the date printed under unrelated footer text', () => {
    const r = extractFieldsFromLines(
      linesFromPlainText(`
Aldi GmbH & Co. KG
ZU ZAHLEN EURO                     24,23
ANZAHL ARTIKEL                        19
Vielen Dank für Ihren Einkauf
1081 8746                 09:48 02.03.2020
`),
    );
    expect(r.invoice_date?.value).toBe('2020-03-02');
  });
});

describe('seller block written in lower case, Dutch payment-overview labels', () => {
  it('takes the block with the chamber-of-commerce and bank ids, not the unlabelled buyer above it', () => {
    const r = extractFieldsFromLines(
      linesFromPlainText(`
Harbour Tools Processor
Dijkweg 12
1234 AB Zwolle

winkel.nl b.v.
Stationsplein 4, 3511 ED Utrecht KVK Utrecht: 11223344
BTW nr. NL001122334B01 IBAN: NL91ABNA0417164300
**Betaaloverzichtdatum:** 3 mei 2023 **Betaaloverzichtnummer:**
5512003400 **Bestelnummer:** 77881
Totaalbedrag                                   € 41,50
`),
    );
    expect(r.vendor?.value).toBe('winkel.nl b.v.');
    expect(r.invoice_date?.value).toBe('2023-05-03');
    expect(r.invoice_number?.value).toBe('5512003400');
  });
});

describe('receipt and folio numbers', () => {
  it.each([
    ['Kassenbon Nr: 1505289010', '1505289010'],
    ['Bon Nr.:3226', '3226'],
    ['Be legnummer: 05R024747', '05R024747'],
    ['Folio Number: 12345', '12345'],
  ])('%s → %s', (line, number) => {
    expect(
      fields(`Delphin Apotheke\n27.02.2020 15:56 Bed.Nr.:120 Kasse 02\n${line}\nSUMME EUR 19,90`).invoice_number,
    ).toBe(number);
  });
});

describe('seller vs buyer on OCR pages', () => {
  it('merges a misread logo with the clean name of the address block', () => {
    const r = extractFieldsFromLines(
      linesFromPlainText(`
                                                  (orvalis
Corvalis LTD
Harbour Road 12, Leeds LS1 4AB
To:   Brightwater Trading LTD
Invoice No: 8812
Total                                  £120.00
`),
    );
    expect(r.vendor?.value).toBe('Corvalis LTD');
  });

  it('never takes the name after a bare "To:" heading, nor a legal form alone', () => {
    const r = extractFieldsFromLines(
      linesFromPlainText(`
To        NORTHWIND LTD
          1 King Street, London
Invoice No      4471
hagen   Baumarkt   GmbH
Total                                  £90.00
`),
    );
    expect(r.vendor?.value).toBe('hagen Baumarkt GmbH');
  });
});
