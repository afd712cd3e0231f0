import { describe, expect, it } from 'vitest';
import { linesFromPlainText } from '../layout/lines';
import { extractFieldsFromLines } from './fields.rules';
import { knownMerchant, merchantFromDomain } from './merchants';

describe('chains named on a till slip', () => {
  it.each([
    ['LIDL', 'LIDL', true],
    ['Media Markt', 'Media Markt', true],
    ['REWE Markt GmbH', 'REWE', true],
    ['LIDL Filiale 1234', 'LIDL', true],
    ['WHOLEFOODS', 'Whole Foods Market', true],
    ['toom Baumar kt', 'Toom Baumarkt', true],
    ['ut Loblaws', 'Loblaws', true],
    ['THE HOME DEPOT', 'HOME DEPOT', true],
    // OCR's readings of a logo.
    ['LDL', 'Lidl', false],
    ['L$DL', 'Lidl', false],
    ['Kaufiand', 'Kaufland', false],
    ['EDEKR', 'Edeka', false],
  ])('%s → %s', (line, name, exact) => {
    expect(knownMerchant(line)).toEqual({ name, exact });
  });

  it.each([
    'TOTAL',
    'TOTAL 12.50',
    'NETTO 12,00',
    'SUBTOTAL',
    'Müller Haustechnik',
    'Warburger Straße',
    'Vielen Dank für Ihren Einkauf',
    'Rechnung',
    'Kasse',
    'Denver, CO 12345',
  ])('%s names no chain', (line) => {
    expect(knownMerchant(line)).toBeNull();
  });

  it("a common word is a chain's name only alone and at the head of the slip ('Netto', 'Real')", () => {
    expect(knownMerchant('Netto')).toEqual({ name: 'Netto', exact: true });
    expect(knownMerchant('Netto', true)).toBeNull();
    expect(knownMerchant('NETO')).toBeNull();
  });

  it("a supplier's invoice to a chain is the supplier's: a chain's name weighs less off a till's slip", () => {
    const f = extractFieldsFromLines(
      linesFromPlainText(`
Brightline Packaging Ltd
12 Mill Lane, Leeds LS1 4AB
                                   INVOICE
Tesco
Shire Park, Welwyn Garden City AL7 1GA
Invoice No: 4471                   Date: 03/04/2024
Description          Qty    Price     Amount
Cardboard boxes      100     1.20     120.00
VAT 20%                                24.00
Total                                 144.00`),
    );
    expect(f.vendor?.value).toBe('Brightline Packaging Ltd');
  });

  it('the vendor of a slip whose logo OCR read as "LDL", over the street under it', () => {
    const f = extractFieldsFromLines(
      linesFromPlainText(`
LDL
Warburger Straße 12
33098 Paderborn
Bananen            1,29 A
Vollmilch          0,99 A
zu zahlen          2,28
Bar                5,00
Rückgeld           2,72
02.03.20  18:04`),
    );
    expect(f.vendor?.value).toBe('Lidl');
  });
});

describe('merchantFromDomain', () => {
  it('names the chain whose own web or mail address a slip prints, spelt right and no common word', () => {
    expect(merchantFromDomain('www.lidl.de')).toBe('Lidl');
    expect(merchantFromDomain('Fragen? service@rewe.de')).toBe('Rewe');
    expect(merchantFromDomain('www.example.com')).toBeNull();
    expect(merchantFromDomain('www.plus.de')).toBeNull();
  });
  it("reads a chain's name before a dash and a slogan at a slip's head ('Lidl - 10 Years in Ireland')", () => {
    const r = extractFieldsFromLines(
      linesFromPlainText(`Limerick, Caherdavin
Lidl - 10 Years in Ireland
Bananas               0.99 A
TOTAL                 0.99
Debit Payment         0.99`),
    );
    expect(r.vendor?.value).toBe('Lidl');
  });
});
