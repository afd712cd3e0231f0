import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../eval/eval.dataset';
import { generateInvoice } from '../../eval/invoice.generator';
import { renderPdf } from '../../eval/invoice.renderers';
import { deeplyNestedPdf, encryptedPdf, hugePngHeader, javascriptPdf, XXE_XML } from '../../test/extraction/bad-inputs';
import { RULES_SAMPLE } from './extraction.service';
import { extractFile, extractInvoiceFields, publicFields, shutdownExtraction } from './index';
import { linesFromPlainText } from './layout/lines';
import { extractFieldsFromLines } from './rules/fields.rules';

const datasets = path.resolve(repoRoot(), '..', 'shared', 'datasets');
const run = (bytes: Uint8Array, filename = 'file.pdf') => extractInvoiceFields({ bytes, filename }, { ocr: false });

afterAll(async () => {
  await shutdownExtraction();
});

describe('text PDFs generated with pdf-lib', () => {
  const cases = (['en', 'de', 'fr', 'it', 'es', 'ro', 'nl'] as const).flatMap((lang, i) => [
    generateInvoice(9_000 + i * 10, lang),
    generateInvoice(9_001 + i * 10, lang, 'header-row'),
  ]);
  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, inv) => {
    const r = await run(await renderPdf(inv));
    expect(r.errors).toEqual([]);
    expect(r.meta.kind).toBe('pdf_text');
    expect(publicFields(r)).toEqual({ ...inv.truth, document_type: 'invoice' });
    expect(r.amount_minor).toBe(Math.round(inv.truth.amount * 100));
  });

  it('finds the total on the last page of a multi-page invoice', async () => {
    let seed = 20_000;
    let inv = generateInvoice(seed, 'de');
    while (inv.pages < 2) inv = generateInvoice(++seed, 'de');
    const r = await run(await renderPdf(inv));
    expect(r.meta.pages).toBeGreaterThan(1);
    expect(r.amount).toBe(inv.truth.amount);
  });
});

describe('the issuer named only in a picture', () => {
  /** A text invoice whose letterhead is an image: the logo's words, and no name in the text layer. */
  async function logoInvoice(logo: string[] | null): Promise<Uint8Array> {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const { createCanvas } = await import('@napi-rs/canvas');
    const doc = await PDFDocument.create();
    const p = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    if (logo) {
      const canvas = createCanvas(900, 260);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, 900, 260);
      ctx.fillStyle = '#1a3d7c';
      ctx.font = 'bold 96px sans-serif';
      for (const [k, word] of logo.entries()) ctx.fillText(word, 20, 105 + k * 115);
      const png = await doc.embedPng(canvas.toBuffer('image/png'));
      p.drawImage(png, { x: 40, y: 720, width: 225, height: 65 });
    }
    const rows = [
      [430, 780, 'Invoice 2021-001-F'],
      [430, 765, 'Date: 01/02/2021'],
      [330, 680, 'Client: Jeanne Martin'],
      [330, 665, '12 rue des Lilas, 75011 Paris'],
      [50, 560, 'Description                          Qty        Amount'],
      [50, 540, 'Formation impression 3D              1          165,00 EUR'],
      [330, 480, 'Total TTC               165,00 EUR'],
    ] as const;
    for (const [x, y, text] of rows) p.drawText(text, { x, y, size: 10, font });
    return new Uint8Array(await doc.save());
  }

  it('reads the logo by OCR when the text names no issuer, and nothing else from it', async () => {
    const r = await extractInvoiceFields(
      { bytes: await logoInvoice(['NORDLICHT', 'ATELIER']), filename: 'logo.pdf' },
      { ocr: true, ocrLanguages: ['eng'] },
    );
    expect(r.errors).toEqual([]);
    expect(r.vendor).toMatch(/NORDLICHT ATELIER/);
    expect(r.amount).toBe(165);
    expect(r.invoice_number).toBe('2021-001-F');
  }, 120_000);

  it('leaves the vendor empty when there is no picture to read', async () => {
    const r = await extractInvoiceFields({ bytes: await logoInvoice(null), filename: 'plain.pdf' }, { ocr: true });
    expect(r.vendor).toBeNull();
    expect(r.amount).toBe(165);
  }, 120_000);
});

/** Black print on a white sheet of `width` × `height` pixels, as PNG bytes. */
async function printedPicture(
  width: number,
  height: number,
  paint: (ctx: import('@napi-rs/canvas').SKRSContext2D) => void,
): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  paint(ctx);
  return canvas.toBuffer('image/png');
}

/** A shop's receipt printed in a picture: its name, then `rows` in a fixed-width font. */
function receiptPicture(rows: string[]): Promise<Buffer> {
  return printedPicture(1000, 1400, (ctx) => {
    ctx.font = 'bold 64px sans-serif';
    ctx.fillText('Harbour Stationers', 150, 150);
    ctx.font = '40px monospace';
    for (const [k, row] of rows.entries()) ctx.fillText(row, 120, 300 + k * 80);
  });
}

describe('a text invoice with a scanned page behind it', () => {
  it('takes the total of the text pages, not that of the scanned order attached to them', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const p1 = doc.addPage([595, 842]);
    const rows = [
      [50, 780, 'Werkstatt Brandt GmbH'],
      [50, 765, 'Hafenweg 3, 28197 Bremen'],
      [400, 780, 'Rechnung Nr. 2023-0417'],
      [400, 765, 'Datum: 10.02.2023'],
      [50, 560, 'Reparatur laut Auftrag                 1          140,00 EUR'],
      // The total under its column header, as many invoicing programs print it.
      [440, 500, 'TOTAL'],
      [440, 486, '140,00'],
    ] as const;
    for (const [x, y, text] of rows) p1.drawText(text, { x, y, size: 10, font });
    // Page 2: the customer's purchase order, scanned: a picture only, with a larger total of its own.
    const order = await printedPicture(1240, 1754, (ctx) => {
      ctx.font = '40px sans-serif';
      const lines = ['PURCHASE ORDER 553699', 'Date: 01.02.2023', 'Repair as agreed      1      170,00 EUR'];
      for (const [k, line] of lines.entries()) ctx.fillText(line, 100, 200 + k * 90);
      ctx.font = 'bold 48px sans-serif';
      ctx.fillText('TOTAL 170,00 EUR', 600, 900);
    });
    const scan = await doc.embedPng(order);
    doc.addPage([595, 842]).drawImage(scan, { x: 0, y: 0, width: 595, height: 842 });
    const r = await extractInvoiceFields(
      { bytes: new Uint8Array(await doc.save()), filename: 'with-order.pdf' },
      { ocr: true, ocrLanguages: ['eng'] },
    );
    expect(r.errors).toEqual([]);
    expect(r.amount).toBe(140);
    expect(r.invoice_number).toBe('2023-0417');
  }, 120_000);
});

describe("a browser's print of a receipt picture", () => {
  it('reads the picture like a scan when the text layer holds only the print margins', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    page.drawText('11/10/2021, 16:42', { x: 20, y: 825, size: 7, font });
    page.drawText('receipt.png', { x: 300, y: 825, size: 7, font });
    page.drawText('https://mail.example.com/chat/u/0/', { x: 20, y: 10, size: 7, font });
    const receipt = await receiptPicture([
      'Receipt No. 4711-0815',
      '05/30/2020  9:42 AM',
      'Printer ET-4760      499.99',
      'Subtotal             499.99',
      'Sales Tax             45.00',
      'Total                544.99',
      'Visa                 544.99',
    ]);
    const png = await doc.embedPng(receipt);
    page.drawImage(png, { x: 60, y: 60, width: 470, height: 660 });
    const r = await extractInvoiceFields(
      { bytes: new Uint8Array(await doc.save()), filename: 'receipt-print.pdf' },
      { ocr: true, ocrLanguages: ['eng'] },
    );
    expect(r.errors).toEqual([]);
    expect(r.amount).toBe(544.99);
    expect(r.invoice_date).toBe('2020-05-30');
  }, 120_000);
});

describe("a scan with a scanner app's OCR layer", () => {
  /** A receipt's picture over the whole page, and an invisible text layer (rendering mode 3) as scanner apps add. */
  async function scanWithLayer(layer: string[]): Promise<Uint8Array> {
    const { PDFDocument, StandardFonts, pushGraphicsState, popGraphicsState, setTextRenderingMode } = await import(
      'pdf-lib'
    );
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595, 842]);
    const receipt = await receiptPicture([
      'Receipt No. 4711-0815',
      '05/30/2020  9:42 AM',
      'Printer ET-4760      499.99',
      'Total                544.99',
    ]);
    page.drawImage(await doc.embedPng(receipt), { x: 0, y: 0, width: 595, height: 842 });
    page.pushOperators(pushGraphicsState(), setTextRenderingMode(3));
    for (const [k, text] of layer.entries()) page.drawText(text, { x: 70, y: 740 - k * 48, size: 16, font });
    page.pushOperators(popGraphicsState());
    return new Uint8Array(await doc.save());
  }

  it('reads the page with our own OCR when the layer is unsure, and takes each field from the surer reading', async () => {
    // The layer lost the total's figures and the date (as a phone scanner's OCR of thermal paper does).
    const bytes = await scanWithLayer([
      'Harbour Stationers',
      'Receipt No. 4711-0815',
      'Printer ET-4760',
      'Total',
      // More of the layer than a print's margins (so it is not taken for a browser's print of a picture).
      'Thank you for shopping with us. Returns within 30 days',
      'with this receipt. Store 0042 Harbour Road, Tel 555 0199',
      'Cashier Ann  Register 3  Items 1  Card ****1234',
    ]);
    const r = await extractInvoiceFields({ bytes, filename: 'scan.pdf' }, { ocr: true, ocrLanguages: ['eng'] });
    expect(r.errors).toEqual([]);
    expect(r.amount).toBe(544.99);
    expect(r.invoice_date).toBe('2020-05-30');
    expect(r.invoice_number).toBe('4711-0815');
  }, 120_000);
});

describe('Factur-X: XML attached to a PDF wins over the text', () => {
  it('reads the embedded CII', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const p = doc.addPage([595, 842]);
    p.drawText('Invoice 999 Total 5.00 EUR', {
      x: 50,
      y: 700,
      size: 12,
      font: await doc.embedFont(StandardFonts.Helvetica),
    });
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
 <rsm:ExchangedDocument><ram:ID>FX-2024-1</ram:ID><ram:TypeCode>380</ram:TypeCode>
  <ram:IssueDateTime><udt:DateTimeString format="102">20240305</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
 <rsm:SupplyChainTradeTransaction>
  <ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>Le Fournisseur SAS</ram:Name></ram:SellerTradeParty></ram:ApplicableHeaderTradeAgreement>
  <ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
   <ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>120.00</ram:GrandTotalAmount><ram:DuePayableAmount>120.00</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
  </ram:ApplicableHeaderTradeSettlement>
 </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
    await doc.attach(new TextEncoder().encode(xml), 'factur-x.xml', { mimeType: 'text/xml' });
    const r = await run(await doc.save());
    expect(publicFields(r)).toEqual({
      vendor: 'Le Fournisseur SAS',
      amount: 120,
      currency: 'EUR',
      invoice_date: '2024-03-05',
      invoice_number: 'FX-2024-1',
      // From the XML's type code 380.
      document_type: 'invoice',
    });
    expect(r.fields.vendor).toEqual({ source: 'einvoice', confidence: 1 });
  });
});

describe.skipIf(!existsSync(datasets))('invoice2data PDFs (shared dataset)', () => {
  const dir = path.join(datasets, 'invoices-pdf');
  it.each(['AmazonWebServices.pdf', 'AzureInterior.pdf', 'QualityHosting.pdf', 'coolblue1.pdf', 'free_fiber.pdf'])(
    '%s amount, currency, date and number match truth.json',
    async (file) => {
      const t = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8'))[file];
      const r = await extractFile(path.join(dir, file), { ocr: false });
      expect([r.amount, r.currency, r.invoice_date, r.invoice_number]).toEqual([
        t.amount,
        t.currency,
        t.invoice_date,
        t.invoice_number,
      ]);
    },
  );
});

describe('bad input gives a per-file error, never a crash', () => {
  it.each([
    ['zero-byte', new Uint8Array(), 'empty_file'],
    ['truncated', javascriptPdf().subarray(0, 200), 'pdf_invalid'],
    ['encrypted', encryptedPdf(), 'pdf_encrypted'],
    ['deep nesting', deeplyNestedPdf(), 'pdf_invalid'],
    ['20k × 20k image', hugePngHeader(), 'image_too_large'],
    ['XXE', new TextEncoder().encode(XXE_XML), 'xml_doctype_forbidden'],
    ['random bytes', new Uint8Array(4096).map((_, i) => (i * 7919) % 256), 'unsupported_format'],
  ])('%s', async (_name, bytes, code) => {
    const r = await run(bytes as Uint8Array, 'x.bin');
    expect(r.errors[0]?.code).toBe(code);
    expect(publicFields(r)).toEqual({
      vendor: null,
      amount: null,
      currency: null,
      invoice_date: null,
      invoice_number: null,
      document_type: null,
    });
  });

  it('says that a PDF nested 100,000 deep is nested too deeply, not that the call stack overflowed', async () => {
    const r = await run(deeplyNestedPdf(), 'deep.pdf');
    expect(r.errors[0]).toMatchObject({
      code: 'pdf_invalid',
      message: 'Could not read the PDF: its objects are nested too deeply',
    });
  });

  it('reads a PDF with JavaScript as text and never runs the script', async () => {
    const r = await run(javascriptPdf());
    expect(r.errors).toEqual([]);
    expect(r.invoice_number).toBe('JS-1');
    expect(r.amount).toBe(12);
  });

  it('enforces the size and page limits and carries on with the next file', async () => {
    const inv = generateInvoice(31_337, 'en');
    const pdf = await renderPdf(inv);
    const tooBig = await extractInvoiceFields({ bytes: pdf, filename: 'a.pdf' }, { limits: { maxBytes: 100 } });
    expect(tooBig.errors[0]?.code).toBe('file_too_large');
    const { PDFDocument } = await import('pdf-lib');
    const many = await PDFDocument.create();
    for (let i = 0; i < 5; i++) many.addPage();
    const tooMany = await extractInvoiceFields(
      { bytes: await many.save(), filename: 'b.pdf' },
      { limits: { maxPages: 3 } },
    );
    expect(tooMany.errors[0]?.code).toBe('pdf_too_many_pages');
    const fine = await run(pdf);
    expect(fine.amount).toBe(inv.truth.amount);
  });
});

describe('HTML documents', () => {
  it('reads an invoice mail body saved as HTML through its text, not as e-invoice XML', async () => {
    const html = `<html><body><h2>Fahrradladen Speiche KG</h2>
<table><tr><td>Rechnungsnummer</td><td>FS-4711</td></tr><tr><td>Rechnungsdatum</td><td>03.02.2025</td></tr></table>
<table><tr><td>Schlauch 28&quot;</td><td>2</td><td>9,90&nbsp;&euro;</td></tr>
<tr><td>Gesamtbetrag</td><td></td><td>19,80&nbsp;&euro;</td></tr></table></body></html>`;
    const r = await run(new TextEncoder().encode(html), 'body.html');
    expect(r.errors).toEqual([]);
    expect(r.meta.kind).toBe('text');
    expect(publicFields(r)).toMatchObject({
      amount: 19.8,
      currency: 'EUR',
      invoice_date: '2025-02-03',
      invoice_number: 'FS-4711',
    });
  });
});

describe('warm-up of the rules while the first PDF is read', () => {
  // The sample must reach every field's rules, or the first document still compiles the ones it missed.
  it('finds every field in its sample', () => {
    const r = extractFieldsFromLines(linesFromPlainText(RULES_SAMPLE));
    expect(r.vendor?.value).toBe('ACME Software GmbH');
    expect(r.amount?.value).toEqual({ minor: 11_900, decimals: 2 });
    expect(r.currency?.value).toBe('EUR');
    expect(r.invoice_date?.value).toBe('2024-02-03');
    expect(r.invoice_number?.value).toBe('RE-2024-0042');
    expect(r.document_type?.value).toBe('invoice');
  });
});
