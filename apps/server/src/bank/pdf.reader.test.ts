import { afterAll, describe, expect, it } from 'vitest';
import { imageToPdf } from '../../eval/eval.dataset';
import { renderPdf, renderScan } from '../../eval/invoice.renderers';
import { DEV_LAYOUTS, type GeneratedStatement, generateStatement } from '../../eval/statement.generator';
import { encryptedPdf } from '../../test/extraction/bad-inputs';
import { terminateSharedOcrEngine } from '../extraction/ocr/ocr.pipeline';
import { terminatePdfWorker } from '../extraction/pdf/pdf.isolate';
import { pdfReader } from './pdf.reader';
import type { StatementReadResult } from './statement.types';
import { readStatement } from './statement-registry';

afterAll(async () => {
  await terminatePdfWorker();
  await terminateSharedOcrEngine();
});

function expectStatement(r: StatementReadResult, g: GeneratedStatement, scanned = false) {
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  expect(r.format).toBe('pdf');
  const st = r.statements[0]!;
  const { transactions, ...header } = g.truth;
  expect({
    bankName: st.bankName,
    accountNumber: st.accountNumber,
    startDate: st.startDate,
    endDate: st.endDate,
    currency: st.currency,
    openingBalanceMinor: st.openingBalanceMinor,
    closingBalanceMinor: st.closingBalanceMinor,
  }).toEqual(header);
  expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual(
    transactions.map((t) => [t.date, t.amountMinor, t.type]),
  );
  expect(st.transactions.every((t) => t.currency === g.truth.currency)).toBe(true);
  // OCR may lose the minus of a negative running balance; the balance check then says so, and nothing else may.
  if (scanned)
    expect(st.warnings.filter((w) => w.code !== 'balance_mismatch' && w.code !== 'text_layer_unreadable')).toEqual([]);
  else expect(st.warnings).toEqual([]);
}

async function pdfOf(pages: number, lines: string[] = []): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p += 1) {
    const page = doc.addPage([595, 842]);
    lines.forEach((text, i) => {
      page.drawText(text, { x: 50, y: 780 - 16 * i, size: 10, font });
    });
  }
  return doc.save();
}

describe('PDF statement reader, text layer', () => {
  const cases = DEV_LAYOUTS.flatMap((layout, i) => [
    generateStatement(90_000 + i * 10, (['en', 'de', 'fr', 'it', 'es'] as const)[i]!, layout),
    generateStatement(90_001 + i * 10, (['ro', 'nl', 'en', 'de', 'fr'] as const)[i]!, layout),
  ]);
  it.each(cases.map((g) => [g.id, g] as const))(
    '%s: header, every transaction, balances that add up',
    async (_id, g) => {
      expectStatement(await readStatement(await renderPdf(g), `${g.id}.pdf`), g);
    },
  );

  it('keeps the file order of a newest-first statement and takes the booking date, not the value date', async () => {
    const g = generateStatement(91_000, 'de', 'multipage');
    const r = await readStatement(await renderPdf(g), 'auszug.pdf');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(g.pages).toBeGreaterThan(1);
    expect(r.statements[0]!.transactions.map((t) => t.date)).toEqual(g.truth.transactions.map((t) => t.date));
    const newest = generateStatement(91_001, 'en', 'newest-first');
    const n = await readStatement(await renderPdf(newest), 'statement.pdf');
    expect(n.ok && n.statements[0]!.transactions.map((t) => t.date)).toEqual(
      newest.truth.transactions.map((t) => t.date),
    );
    expect(newest.truth.transactions[0]!.date >= newest.truth.transactions.at(-1)!.date).toBe(true);
  });

  it('flags a statement whose printed closing balance does not add up', async () => {
    const g = generateStatement(91_002, 'fr', 'signed');
    const wrong = g.truth.closingBalanceMinor + 100;
    // Redraw the closing balance one euro off.
    const shown = (c: number) => new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2 }).format(c / 100);
    const runs = g.runs.map((run) =>
      run.text.replace(/\s/g, ' ') === shown(g.truth.closingBalanceMinor).replace(/\s/g, ' ') && run.y === 108
        ? { ...run, text: shown(wrong).replace(/\u202f/g, '\u00a0') }
        : run,
    );
    const r = await readStatement(await renderPdf({ ...g, runs }), 'releve.pdf');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.statements[0]!.closingBalanceMinor).toBe(wrong);
    expect(r.statements[0]!.warnings).toEqual([expect.objectContaining({ code: 'balance_mismatch' })]);
  });
});

describe('PDF statement reader, bad input', () => {
  it('refuses a file named .pdf that is not a PDF, with a clear error', async () => {
    const csv = new TextEncoder().encode('Date,Description,Amount\n2024-01-01,x,1.00\n2024-01-02,y,2.00\n');
    expect(pdfReader.accepts(csv, 'statement.pdf')).toBe(true);
    expect(await readStatement(csv, 'statement.pdf')).toEqual({
      ok: false,
      errors: [{ code: 'unsupported_format', message: 'The file is named .pdf but is not a PDF.' }],
    });
    // The same bytes under their own name still go to the CSV reader.
    expect((await readStatement(csv, 'statement.csv')).ok).toBe(true);
  });

  it('refuses an encrypted PDF', async () => {
    const r = await readStatement(encryptedPdf(), 'locked.pdf');
    expect(r).toMatchObject({ ok: false, errors: [{ code: 'encrypted' }] });
  });

  it('refuses a 500-page PDF by the page limit, saying so', async () => {
    const r = await readStatement(await pdfOf(500), 'huge.pdf');
    expect(r).toEqual({
      ok: false,
      errors: [{ code: 'pdf_too_many_pages', message: 'The PDF has 500 pages (limit 200)' }],
    });
  });

  it('says no_transactions for a PDF without a transaction table', async () => {
    const r = await readStatement(
      await pdfOf(1, ['Dear customer,', 'thank you for your letter of 3 March 2024.', 'Kind regards, Example Bank']),
      'letter.pdf',
    );
    expect(r).toMatchObject({ ok: false, errors: [{ code: 'no_transactions' }] });
    // Its first page was read as an image once (no more dates there than in its text): the other pages were not.
    const long = await readStatement(await pdfOf(30, ['Dear customer,', 'thank you for your letter.']), 'letter.pdf');
    expect(long).toMatchObject({ ok: false, errors: [{ code: 'no_transactions' }] });
  });
});

describe('PDF statement reader, scanned', () => {
  it('reads a one-page scan (no text layer) through OCR with the same table logic', async () => {
    const g = generateStatement(92_000, 'en', 'debit-credit', 8);
    const png = await renderScan(g, {
      dpi: 250,
      skewDeg: 0.3,
      quarterTurns: 0,
      noise: 0.002,
      blur: false,
      format: 'png',
      seed: 3,
    });
    const r = await readStatement(await imageToPdf(png, 'png'), 'scan.pdf');
    expectStatement(r, g, true);
  }, 120_000);

  it('reads the page as an image when its text layer is unreadable (letters for digits, as a font without its map)', async () => {
    const g = generateStatement(92_001, 'de', 'signed', 6);
    const png = await renderScan(g, {
      dpi: 250,
      skewDeg: 0,
      quarterTurns: 0,
      noise: 0,
      blur: false,
      format: 'png',
      seed: 4,
    });
    // The page as its printer left it: the picture of the text, and a text layer whose characters are shifted (as
    // pdftotext reads "hontoauszugW mostbank" for "Kontoauszug Postbank"), here in print too small to see.
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const doc = await PDFDocument.load(await imageToPdf(png, 'png'));
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.getPage(0);
    ['hontoauszugW mostbank diro vom MOKM4KOMOS', 'Alter hontostand  - VIV0', 'dutschrKpbmA  H VSUIMM'].forEach(
      (text, i) => {
        page.drawText(text, { x: 2, y: 2 + 1.2 * i, size: 1, font });
      },
    );
    const r = await readStatement(await doc.save(), 'auszug.pdf');
    expect(r.ok && r.statements[0]!.warnings.map((w) => w.code)).toContain('text_layer_unreadable');
    expectStatement(r, g, true);
  }, 180_000);
});
