import { DEFAULT_LIMITS, type Line, type Word } from '../extraction/extraction.types';
import { buildLines } from '../extraction/layout/lines';
import { findDates } from '../extraction/rules/date.parser';
import { reportSandboxProgress } from '../sandbox/progress';
import { statementFromLines } from './pdf.table';
import type { StatementReader, StatementReadOptions, StatementReadResult } from './statement.types';
import { fail, headText } from './statement.util';

/**
 * PDF bank statements, with a text layer or scanned. The text comes from extraction's isolated pdf.js reader (a
 * worker thread with its own page, time and inflation limits); pages without text are rendered and OCR'd through
 * extraction's OCR pipeline; both become lines and cells through extraction's buildLines, and pdf.table.ts rebuilds
 * the transaction table from them. It runs in the document sandbox's child (statement.tasks.ts), which bounds memory.
 */

/** Scanned statements are read page by page; more pages than this are left out with a warning (about 5 s a page). */
const MAX_OCR_PAGES = 12;

const PDF_CODES: Record<string, string> = { pdf_encrypted: 'encrypted' };

export async function readPdfStatement(
  bytes: Uint8Array,
  options: StatementReadOptions = {},
): Promise<StatementReadResult> {
  if (!headText(bytes, 1024).includes('%PDF-')) {
    return fail('unsupported_format', 'The file is named .pdf but is not a PDF.');
  }
  const { readPdfTextIsolated, pdfLimits, PdfReadError } = {
    ...(await import('../extraction/pdf/pdf.isolate')),
    ...(await import('../extraction/pdf/pdf.reader')),
  };
  const { checkInflatedSize, inflateBudgetFor } = await import('../extraction/pdf/pdf.precheck');
  const inflated = await checkInflatedSize(bytes, inflateBudgetFor(DEFAULT_LIMITS.maxInflateBytes));
  if (!inflated.ok) return fail('pdf_too_large', `The PDF is too large to read: ${inflated.message}`);
  let text: Awaited<ReturnType<typeof readPdfTextIsolated>>;
  try {
    text = await readPdfTextIsolated(bytes, pdfLimits(DEFAULT_LIMITS.maxPages, DEFAULT_LIMITS.timeoutMs));
  } catch (error) {
    if (error instanceof PdfReadError) return fail(PDF_CODES[error.code] ?? error.code, error.message);
    return fail('pdf_invalid', `Could not read the PDF: ${(error as Error).message}`);
  }
  const textPages = new Set(text.charsPerPage.flatMap((n, i) => (n >= 20 ? [i + 1] : [])));
  let lines: Line[] = buildLines(
    text.words.filter((w) => textPages.has(w.page)),
    text.pageHeights,
  );
  const scanned = text.charsPerPage.flatMap((n, i) => (n < 20 ? [i + 1] : []));
  const warnings = [];
  if (scanned.length) {
    const ocrd = scanned.slice(0, MAX_OCR_PAGES);
    if (scanned.length > ocrd.length) {
      warnings.push({
        code: 'ocr_pages_skipped',
        message: `Only the first ${MAX_OCR_PAGES} of ${scanned.length} scanned pages were read.`,
      });
    }
    lines = [...lines, ...(await ocrLines(bytes, ocrd))]
      .sort((a, b) => a.page - b.page || a.y0 - b.y0)
      .map((l, index) => ({ ...l, index }));
  }
  let st = statementFromLines(lines);
  // A text layer that gives no table at all may be unreadable (a font without its character map: "hontoauszugW" for
  // "Kontoauszug", letters for digits): its pages are then read as images, as a scan is, and the better reading kept.
  // The first such page is read first; the others only when it shows more dates as an image than as text, so a PDF
  // that simply holds no statement (a letter) costs one page of OCR.
  const textPageList = [...textPages].sort((a, b) => a - b);
  const firstOcr =
    !st.transactions.length && textPageList.length ? await ocrLines(bytes, textPageList.slice(0, 1)) : [];
  const datedLines = (ls: Line[]) => ls.filter((l) => findDates(l.text).length > 0).length;
  const onFirstPage = lines.filter((l) => l.page === textPageList[0]);
  if (datedLines(firstOcr) >= 3 && datedLines(firstOcr) > 2 * datedLines(onFirstPage)) {
    const ocrd = [...firstOcr, ...(await ocrLines(bytes, textPageList.slice(1, MAX_OCR_PAGES)))];
    const byOcr = statementFromLines(
      [...lines.filter((l) => !textPages.has(l.page)), ...ocrd]
        .sort((a, b) => a.page - b.page || a.y0 - b.y0)
        .map((l, index) => ({ ...l, index })),
    );
    if (byOcr.transactions.length) {
      st = byOcr;
      warnings.push({
        code: 'text_layer_unreadable',
        message: 'The text layer of the PDF could not be read; its pages were read as images (OCR).',
      });
    }
  }
  st.warnings.unshift(...warnings);
  if (options.model && lines.length) {
    // Taken only when it passes the balance check (statement.model.ts).
    const { improveStatementWithModel } = await import('./statement.model');
    st = await improveStatementWithModel(st, lines, options.model);
  }
  // No rows and no balances: not a statement (or one we cannot read), never an empty success. A statement that
  // states its balances but has no rows keeps its `no_transactions` warning.
  if (!st.transactions.length && st.openingBalanceMinor === null && st.closingBalanceMinor === null) {
    return lines.length
      ? fail('no_transactions', 'No transaction table was found in the PDF.')
      : fail('no_text', 'The PDF has no text that could be read, not even by OCR.');
  }
  return { ok: true, format: 'pdf', statements: [st] };
}

/** Renders the scanned pages at 300 dpi and reads them with extraction's OCR pipeline; lines in pixels per page. */
async function ocrLines(bytes: Uint8Array, pages: number[]): Promise<Line[]> {
  const { openPdf, renderPdfPage } = await import('../extraction/pdf/pdf.reader');
  const { ocrPage, pageLanguages, DEFAULT_OCR_LANGS } = await import('../extraction/ocr/ocr.pipeline');
  const pdf = await openPdf(bytes, {
    maxImagePixels: DEFAULT_LIMITS.maxImagePixels,
    inflateBudgetBytes: DEFAULT_LIMITS.maxInflateBytes,
  });
  const words: Word[] = [];
  const heights = new Map<number, number>();
  // A statement is in one language: the first page that tells it fixes the models for the pages after it.
  let languages: string[] | null = null;
  try {
    for (const p of pages) {
      const canvas = await renderPdfPage(pdf, p, 300);
      const r = await ocrPage(canvas, p, languages ? { ocrLanguages: languages } : {}, 'english-first');
      if (!languages) {
        const told = pageLanguages(r);
        if (told !== DEFAULT_OCR_LANGS) languages = told;
      }
      words.push(...r.words);
      heights.set(p, r.height);
      // Each scanned page costs seconds of OCR: the sandbox's time limit is per page, not per statement.
      reportSandboxProgress();
    }
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
  return buildLines(words, heights);
}

export const pdfReader: StatementReader = {
  format: 'pdf',
  accepts(head, filename) {
    return headText(head, 1024).includes('%PDF-') || /\.pdf$/i.test(filename);
  },
  read(bytes, _filename, options) {
    return readPdfStatement(bytes, options);
  },
};
