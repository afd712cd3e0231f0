import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../eval/eval.dataset';
import { BILLION_LAUGHS, XXE_XML } from '../../../test/extraction/bad-inputs';
import { extractFile } from '../index';
import { parseEInvoiceXml } from './einvoice.parser';

const einvoices = path.resolve(repoRoot(), '..', 'shared', 'datasets', 'einvoices');

describe('e-invoice XML', () => {
  it('reads UBL fields (BT-1, BT-2, BT-5, BT-27, BT-112)', () => {
    const r = parseEInvoiceXml(`<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>INV-7</cbc:ID><cbc:IssueDate>2024-03-05</cbc:IssueDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>A &amp; B GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:LegalMonetaryTotal><cbc:TaxInclusiveAmount currencyID="EUR">1190.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">990.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
</Invoice>`);
    expect(r).toMatchObject({
      ok: true,
      value: {
        vendor: 'A & B GmbH',
        invoice_number: 'INV-7',
        invoice_date: '2024-03-05',
        total_minor: 119000,
        due_minor: 99000,
      },
    });
  });

  it('refuses external entities (XXE) and entity expansion without reading anything', () => {
    for (const xml of [XXE_XML, BILLION_LAUGHS]) {
      const r = parseEInvoiceXml(xml);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors[0]!.code).toBe('xml_doctype_forbidden');
    }
  });

  it('refuses a flood of elements before parsing it, and says what is wrong with bad XML without internals', () => {
    const flood = `<Invoice>${'<Note>1</Note>'.repeat(300_000)}</Invoice>`;
    expect(parseEInvoiceXml(flood)).toEqual({
      ok: false,
      errors: [{ code: 'xml_too_large', message: 'XML with more than 500000 elements is refused' }],
    });
    expect(parseEInvoiceXml('<?xml version="1.0"?>')).toEqual({
      ok: false,
      errors: [{ code: 'xml_invalid', message: 'Invalid XML: Start tag expected.' }],
    });
  });

  it('reports malformed XML and unknown roots as errors', () => {
    expect(parseEInvoiceXml('<Invoice><ID>1</Invoice>').ok).toBe(false);
    const r = parseEInvoiceXml('<html><body/></html>');
    expect(r.ok ? null : r.errors[0]!.code).toBe('xml_unknown_root');
  });
});

describe.skipIf(!existsSync(einvoices))('shared e-invoice dataset against truth.json', () => {
  const truth = existsSync(einvoices)
    ? (JSON.parse(readFileSync(path.join(einvoices, 'truth.json'), 'utf8')) as Record<string, Record<string, unknown>>)
    : {};
  it.each(Object.keys(truth))('%s', async (file) => {
    const t = truth[file]!;
    const r = await extractFile(path.join(einvoices, file));
    expect(r.errors).toEqual([]);
    expect({
      vendor: r.vendor,
      amount: r.amount,
      currency: r.currency,
      invoice_date: r.invoice_date,
      invoice_number: r.invoice_number,
    }).toEqual({
      vendor: t.vendor,
      amount: t.amount,
      currency: t.currency,
      invoice_date: t.invoice_date,
      invoice_number: t.invoice_number,
    });
    expect(r.fields.amount?.source).toBe('einvoice');
  });
});
