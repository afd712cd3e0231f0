import { OCR_CONFIDENCE_FACTOR } from './confidence';
import {
  decodeXml,
  EINVOICE_ATTACHMENT,
  type EInvoiceFields,
  looksLikeXml,
  parseEInvoiceXml,
} from './einvoice/einvoice.parser';
import {
  DEFAULT_LIMITS,
  type ExtractionIssue,
  type ExtractionLimits,
  type ExtractionResult,
  type ExtractOptions,
  type FieldName,
  type FieldSource,
  type Line,
  type RuleFields,
  type Word,
} from './extraction.types';
import { htmlToText, looksLikeHtml } from './layout/html';
import { buildLines, linesFromPlainText } from './layout/lines';
import { hasPdfHeader } from './pdf/pdf.header';
import { documentTypeFromCode } from './rules/document-type.rules';
import { extractFieldsFromLines } from './rules/fields.rules';
import { minorToNumber } from './rules/money.parser';
import { documentTimeLimit } from './time-limit';

/**
 * The extraction pipeline. The first source that gives a confident answer wins, field by field:
 * 1. an e-invoice (UBL / CII XML, or the XML embedded in a Factur-X / ZUGFeRD / XRechnung PDF),
 * 2. the PDF text layer through the layout rules,
 * 3. OCR of pages without text (and of PNG / JPEG files) through the same rules,
 * 4. optionally an OpenAI-compatible model, kept only where it beats the rules' confidence and passes validation.
 * Bad input never throws: it comes back as `errors` on the result.
 */

export class ExtractionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Kind = ExtractionResult['meta']['kind'];

function emptyResult(): ExtractionResult {
  return {
    vendor: null,
    amount: null,
    currency: null,
    invoice_date: null,
    invoice_number: null,
    amount_minor: null,
    document_type: null,
    fields: {},
    errors: [],
    warnings: [],
    meta: { kind: 'unknown', pages: 0, ms: 0 },
  };
}

/** Control bytes other than tab, line feed, form feed and carriage return: not a text file. */
function hasBinaryBytes(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b < 9 || (b > 13 && b < 32)) return true;
  return false;
}

function sniff(bytes: Uint8Array, filename: string): 'pdf' | 'png' | 'jpeg' | 'heic' | 'xml' | 'html' | 'text' | null {
  // Buffer's latin1 is byte-for-byte; WHATWG's 'latin1' label is Windows-1252 on Node 22+ (0x89 becomes U+2030).
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  if (hasPdfHeader(bytes)) return 'pdf';
  if (bytes[0] === 0x89 && head.startsWith('\x89PNG')) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (head.slice(4, 8) === 'ftyp' && /^(heic|heix|hevc|hevx|mif1|msf1)/.test(head.slice(8, 12))) return 'heic';
  const text = decodeXml(bytes.subarray(0, 4096));
  // An invoice mail's HTML body or a saved web receipt: its text, laid out by its tags (layout/html.ts).
  if (!hasBinaryBytes(bytes.subarray(0, 4096)) && looksLikeHtml(text, filename)) return 'html';
  if (looksLikeXml(text)) return 'xml';
  if (/\.(txt|text)$/i.test(filename) || !hasBinaryBytes(bytes.subarray(0, 4096))) return 'text';
  return null;
}

function applyRules(result: ExtractionResult, rules: RuleFields, source: FieldSource) {
  const factor = source === 'ocr' ? OCR_CONFIDENCE_FACTOR : 1;
  const set = <K extends FieldName>(name: K, value: unknown, ruleConfidence: number) => {
    const confidence = ruleConfidence * factor;
    const current = result.fields[name];
    if (current && current.confidence >= confidence) return;
    (result as unknown as Record<string, unknown>)[name] = value;
    result.fields[name] = { source, confidence: Number(confidence.toFixed(3)) };
  };
  if (rules.vendor) set('vendor', rules.vendor.value, rules.vendor.confidence);
  if (rules.currency) set('currency', rules.currency.value, rules.currency.confidence);
  if (rules.invoice_date) set('invoice_date', rules.invoice_date.value, rules.invoice_date.confidence);
  if (rules.invoice_number) set('invoice_number', rules.invoice_number.value, rules.invoice_number.confidence);
  // An e-invoice's type code, read first, is not overruled by the words on its PDF.
  if (rules.document_type && result.document_type === null) result.document_type = rules.document_type.value;
  if (rules.amount) {
    const before = result.fields.amount;
    set('amount', minorToNumber(rules.amount.value.minor, rules.amount.value.decimals), rules.amount.confidence);
    if (result.fields.amount !== before) result.amount_minor = rules.amount.value.minor;
  }
}

function applyEInvoice(result: ExtractionResult, e: EInvoiceFields) {
  const minor = e.total_minor ?? e.due_minor;
  const rules: RuleFields = {
    vendor: e.vendor ? { value: e.vendor, confidence: 1 } : null,
    currency: e.currency ? { value: e.currency, confidence: 1 } : null,
    invoice_date: e.invoice_date ? { value: e.invoice_date, confidence: 1 } : null,
    invoice_number: e.invoice_number ? { value: e.invoice_number, confidence: 1 } : null,
    amount: minor !== null ? { value: { minor, decimals: e.decimals }, confidence: 1 } : null,
    document_type: ((type) => (type ? { value: type, confidence: 1 } : null))(
      documentTypeFromCode(e.type_code, e.syntax, minor),
    ),
  };
  applyRules(result, rules, 'einvoice');
}

export async function extractInvoiceFields(
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options: ExtractOptions = {},
  /** Development aid (eval/rules-lines.ts): receives the lines the rules read. */
  onLines?: (lines: Line[]) => void,
): Promise<ExtractionResult> {
  const started = performance.now();
  const limits: ExtractionLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const result = emptyResult();
  try {
    const limit = documentTimeLimit(limits.timeoutMs, limits.timeoutMs * (1 + limits.maxOcrPages));
    try {
      await Promise.race([run(input, options, limits, result, onLines, limit.pageDone), limit.expired]);
    } finally {
      limit.clear();
    }
  } catch (error) {
    const code =
      error instanceof ExtractionError ? error.code : ((error as { code?: string }).code ?? 'extraction_failed');
    const message = error instanceof Error ? error.message : String(error);
    const failed = emptyResult();
    failed.errors.push({ code: typeof code === 'string' ? code : 'extraction_failed', message });
    failed.warnings = result.warnings;
    failed.meta = { ...result.meta };
    Object.assign(result, failed);
  }
  result.meta.ms = Math.round((performance.now() - started) * 10) / 10;
  return result;
}

/**
 * The rules' first run in a process costs ~0.1 s more than the next ones (V8 compiles their regular expressions and
 * functions on first use). The first PDF of a process spends longer than that waiting for the worker to start pdf.js:
 * the rules run once on this sample meanwhile, and their answer is thrown away (they are pure functions).
 */
export const RULES_SAMPLE = [
  'ACME Software GmbH · Hauptstraße 1 · 10115 Berlin · USt-IdNr. DE123456789',
  'Rechnung / Invoice / Facture',
  'Rechnungsnummer: RE-2024-0042   Invoice No. INV/2024/42   Datum: 03.02.2024   Date: March 3, 2024',
  'Pos.  Beschreibung  Menge  Einzelpreis  Betrag',
  '1  Consulting  2  50,00 €  100,00 €',
  'Nettobetrag  100,00 EUR',
  'MwSt. 19 %  19,00 EUR   VAT 20% £20.00   TVA 20 %  20,00 €',
  'Gesamtbetrag  119,00 EUR   Total due  $1,234.56 USD   Totale fattura  119,00 €',
  'Zahlbar bis 17.02.2024 · IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX',
].join('\n');
let rulesWarm = false;
function warmUpRulesOnce(): void {
  if (rulesWarm) return;
  rulesWarm = true;
  try {
    extractFieldsFromLines(linesFromPlainText(RULES_SAMPLE));
  } catch {
    // Only a warm-up: the document's own run reports whatever goes wrong.
  }
}

/** The PDF modules, imported once on first use (a dynamic import per file costs more than the rules). */
let pdfModules: Promise<typeof import('./pdf/pdf.reader') & typeof import('./pdf/pdf.isolate')> | null = null;
function loadPdfModules() {
  pdfModules ??= Promise.all([import('./pdf/pdf.reader'), import('./pdf/pdf.isolate')]).then(
    ([a, b]) => ({ ...a, ...b }),
    (error: unknown) => {
      pdfModules = null; // a failed import is tried again on the next file
      throw error;
    },
  );
  return pdfModules;
}

async function run(
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options: ExtractOptions,
  limits: ExtractionLimits,
  result: ExtractionResult,
  onLines: ((lines: Line[]) => void) | undefined,
  pageDone: () => void,
): Promise<void> {
  const { bytes, filename } = input;
  if (bytes.length === 0) throw new ExtractionError('empty_file', 'The file is empty');
  if (bytes.length > limits.maxBytes) {
    throw new ExtractionError('file_too_large', `The file is ${bytes.length} bytes (limit ${limits.maxBytes})`);
  }
  const kind = sniff(bytes, filename);
  let lines: Line[] = [];
  let source: FieldSource = 'pdf_text';
  let metaKind: Kind = 'unknown';
  let ocrImages: Array<() => Promise<import('@napi-rs/canvas').Canvas>> = [];
  /** A text PDF's own lines, when scanned pages were read and merged into `lines`. */
  let textOnly: Line[] | null = null;
  /** An image file's page as OCR read it (for a second reading). */
  let photo: Canvas | null = null;
  /** A text PDF's first page read for the text only its pictures carry (a logo), when the text names no issuer. */
  let pictureText: (() => Promise<Line[] | null>) | null = null;
  /** A text PDF's pages with little text read by OCR as if scanned, when their text layer says nothing. */
  let pagesAsScans: (() => Promise<Line[]>) | null = null;
  /** A scan's page 1 read by our OCR when its text is a scanner app's invisible layer (null for any other page). */
  let scanLayerReading: (() => Promise<Line[] | null>) | null = null;

  if (kind === 'xml') {
    if (bytes.length > limits.maxXmlBytes) throw new ExtractionError('file_too_large', 'The XML file is too large');
    const parsed = parseEInvoiceXml(decodeXml(bytes));
    if (!parsed.ok) throw new ExtractionError(parsed.errors[0]!.code, parsed.errors[0]!.message);
    applyEInvoice(result, parsed.value);
    result.meta.kind = 'einvoice';
    return;
  }
  if (kind === 'text' || kind === 'html') {
    const text = new TextDecoder('utf-8').decode(bytes);
    lines = linesFromPlainText(kind === 'html' ? htmlToText(text) : text);
    source = 'text';
    metaKind = 'text';
  } else if (kind === 'pdf') {
    const { openPdf, renderPdfPage, PdfReadError, readPdfTextIsolated, invisibleText } = await loadPdfModules();
    // Flate bombs are refused here, natively and quickly, before pdf.js allocates or lexes what they inflate to.
    const { checkInflatedSize, inflateBudgetFor } = await import('./pdf/pdf.precheck');
    const inflated = await checkInflatedSize(bytes, inflateBudgetFor(limits.maxInflateBytes));
    if (!inflated.ok) throw new ExtractionError('pdf_too_large', `The PDF is too large to read: ${inflated.message}`);
    // The text step runs in a worker thread with its own hard limit, so a PDF that makes pdf.js spin is stopped.
    let text: Awaited<ReturnType<typeof readPdfTextIsolated>>;
    try {
      const reading = readPdfTextIsolated(bytes, {
        maxPages: limits.maxPages,
        timeoutMs: limits.timeoutMs,
        maxImagePixels: limits.maxImagePixels,
        inflateBudgetBytes: limits.maxInflateBytes,
      });
      warmUpRulesOnce();
      text = await reading;
    } catch (error) {
      if (error instanceof PdfReadError) throw new ExtractionError(error.code, error.message);
      const message = (error as Error).message;
      // A stack overflow (objects nested 100,000 deep) is the file's fault: say so, not what the engine said.
      const deep = /Maximum call stack size exceeded/i.test(message);
      throw new ExtractionError(
        'pdf_invalid',
        `Could not read the PDF: ${deep ? 'its objects are nested too deeply' : message}`,
      );
    }
    // The document is opened in this thread only when scanned pages must be rendered for OCR.
    let pdf: Awaited<ReturnType<typeof openPdf>> | null = null;
    const getPdf = async () => {
      pdf ??= await openPdf(bytes, {
        maxImagePixels: limits.maxImagePixels,
        inflateBudgetBytes: limits.maxInflateBytes,
      });
      return pdf;
    };
    try {
      result.meta.pages = text.pages;
      // 1. Embedded e-invoice: the well-known names first, then any XML attachment.
      const xmls = (options.einvoice === false ? [] : [...text.attachments]).sort(
        (a, b) => Number(EINVOICE_ATTACHMENT.test(b.name)) - Number(EINVOICE_ATTACHMENT.test(a.name)),
      );
      for (const att of xmls) {
        if (!/\.xml$/i.test(att.name) || att.content.length > limits.maxXmlBytes) continue;
        const parsed = parseEInvoiceXml(decodeXml(att.content));
        if (parsed.ok) {
          applyEInvoice(result, parsed.value);
          metaKind = 'einvoice';
          break;
        }
        result.warnings.push({
          code: 'einvoice_attachment_unreadable',
          message: `${att.name}: ${parsed.errors[0]!.message}`,
        });
      }
      if (metaKind === 'einvoice' && fieldCount(result) === 5) {
        result.meta.kind = 'einvoice';
        return;
      }
      // 2. Text layer; pages with (almost) no text go to OCR.
      const textPages = new Set<number>();
      text.charsPerPage.forEach((n, i) => {
        if (n >= 20) textPages.add(i + 1);
      });
      const words: Word[] = text.words.filter((w) => textPages.has(w.page));
      lines = buildLines(words, text.pageHeights);
      if (metaKind !== 'einvoice') metaKind = 'pdf_text';
      const scanned = text.charsPerPage.map((n, i) => (n < 20 ? i + 1 : 0)).filter((p) => p > 0);
      if (scanned.length && options.ocr !== false) {
        const pick = pickOcrPages(scanned, limits.maxOcrPages);
        ocrImages = pick.map((p) => async () => renderPdfPage(await getPdf(), p, 300));
        if (!textPages.size) {
          source = 'ocr';
          if (metaKind !== 'einvoice') metaKind = 'ocr';
        }
      } else if (scanned.length && !textPages.size) {
        result.warnings.push({ code: 'ocr_disabled', message: 'The PDF has no text layer and OCR is off' });
      }
      if (ocrImages.length) {
        const ocrLines = await ocrAll(ocrImages, options, result, pickOcrPages(scanned, limits.maxOcrPages), pageDone);
        if (textPages.size) textOnly = lines;
        lines = mergeLines(lines, ocrLines);
      }
      // The later readings below run after this document is closed: each opens its own copy, and closes it.
      const withOwnPdf = async <T>(use: (doc: Awaited<ReturnType<typeof openPdf>>) => Promise<T>): Promise<T> => {
        const doc = await openPdf(bytes, {
          maxImagePixels: limits.maxImagePixels,
          inflateBudgetBytes: limits.maxInflateBytes,
        });
        try {
          return await use(doc);
        } finally {
          await (doc as { destroy(): Promise<void> }).destroy().catch(() => undefined);
        }
      };
      if (options.ocr !== false && textPages.size) {
        // Pages whose text is a margin's worth (a browser's header and footer around a picture): OCR them whole.
        const thin = [...textPages].filter((p) => (text.charsPerPage[p - 1] ?? 0) < THIN_TEXT_CHARS);
        if (thin.length) {
          const pick = pickOcrPages(thin, limits.maxOcrPages);
          pagesAsScans = () =>
            withOwnPdf((doc) =>
              ocrAll(
                pick.map((p) => async () => renderPdfPage(doc, p, 300)),
                options,
                result,
                pick,
                pageDone,
              ),
            );
        }
      }
      if (options.ocr !== false && textPages.has(1)) {
        // A scan whose text is a scanner app's invisible OCR layer: read page 1 with our own OCR too, when asked.
        scanLayerReading = () =>
          withOwnPdf(async (doc) =>
            (await invisibleText(doc, 1))
              ? ocrAll([async () => renderPdfPage(doc, 1, 300)], options, result, [1], pageDone)
              : null,
          );
        const pageWords = words.filter((w) => w.page === 1);
        pictureText = () =>
          withOwnPdf((doc) => pictureLines(doc, pageWords, text.pageHeights.get(1) ?? 842, options, pageDone));
      }
    } finally {
      await (pdf as { destroy(): Promise<void> } | null)?.destroy().catch(() => undefined);
    }
  } else if (kind === 'png' || kind === 'jpeg') {
    const { inspectImage, decodeImage } = await import('./ocr/image.loader');
    const size = inspectImage(bytes);
    if (!size.ok) throw new ExtractionError('image_invalid', `The image cannot be read: ${size.reason}`);
    if (size.width * size.height > limits.maxImagePixels || size.width > 30_000 || size.height > 30_000) {
      throw new ExtractionError(
        'image_too_large',
        `The image is ${size.width} × ${size.height} pixels (limit ${limits.maxImagePixels} pixels)`,
      );
    }
    source = 'ocr';
    metaKind = 'ocr';
    result.meta.pages = 1;
    if (options.ocr === false) {
      result.warnings.push({ code: 'ocr_disabled', message: 'The file is an image and OCR is off' });
    } else {
      const page = await photoPage(await decodeImage(bytes), options);
      photo = page;
      ocrImages = [async () => page];
      lines = await ocrAll(ocrImages, options, result, [1], pageDone);
    }
  } else if (kind === 'heic') {
    // A phone photo: decoded to pixels (after its size is checked), then read like any image.
    const { decodeHeic } = await import('./ocr/heic.loader');
    source = 'ocr';
    metaKind = 'ocr';
    result.meta.pages = 1;
    const canvas = await decodeHeic(bytes, (width, height) => {
      if (width * height > limits.maxImagePixels || width > 30_000 || height > 30_000) {
        throw new ExtractionError(
          'image_too_large',
          `The image is ${width} × ${height} pixels (limit ${limits.maxImagePixels} pixels)`,
        );
      }
    }).catch((error: unknown) => {
      if (error instanceof ExtractionError) throw error;
      throw new ExtractionError('image_invalid', `The HEIC photo cannot be read: ${(error as Error).message}`);
    });
    if (options.ocr === false) {
      result.warnings.push({ code: 'ocr_disabled', message: 'The file is an image and OCR is off' });
    } else {
      const page = await photoPage(canvas, options);
      photo = page;
      ocrImages = [async () => page];
      lines = await ocrAll(ocrImages, options, result, [1], pageDone);
    }
  } else {
    throw new ExtractionError('unsupported_format', 'Not a PDF, PNG, JPEG, HEIC or XML file');
  }

  onLines?.(lines);
  let rules = extractFieldsFromLines(lines, options.hints);
  if (textOnly?.length) {
    // A text PDF with scanned pages behind it (the order it bills, a delivery note, a signed receipt): the text pages
    // are the invoice, so what they state surely stands; the scans fill only what they leave unsure.
    rules = preferSure(extractFieldsFromLines(textOnly, options.hints), rules);
  }
  // A scan with a scanner app's OCR layer, read unsure: our OCR reads page 1 again, and each field comes from the
  // reading surer of it (the app's layer often garbles a till receipt: "PARAGON ۶ ،SKAL NV").
  const unsure = (g: { confidence: number } | null) => g === null || g.confidence < SURE_TEXT_FIELD;
  if (
    scanLayerReading &&
    (unsure(rules.amount) || unsure(rules.invoice_date) || unsure(rules.vendor) || unsure(rules.invoice_number))
  ) {
    const again = await scanLayerReading().catch(() => null);
    if (again?.length) {
      // A layer that mixes scripts no page mixes (Greek, Arabic and Thai letters inside Polish words) is noise: our
      // reading leads and the layer only fills what it leaves open. Else, two OCR engines' readings of one page: a
      // field the leading reading is fairly sure of stays, a weak one gives way to a surer one.
      const garbled = mixedScripts(lines.map((l) => l.text).join(' '));
      const merged = mergeReadings(
        rules,
        extractFieldsFromLines(again, options.hints),
        garbled ? { secondLeads: true, keepAbove: Number.NEGATIVE_INFINITY } : { keepAbove: FILL_CONFIDENCE },
      );
      rules = merged.rules;
      if (merged.secondLed) source = 'ocr';
    }
  }
  // A weak total (a bare number beside "Bar", OCR noise read as a figure) counts as missing here.
  const amountWeak = rules.amount === null || rules.amount.confidence < WEAK_PHOTO_AMOUNT;
  if (photo && (amountWeak || rules.invoice_date === null)) {
    // A second reading of the document alone: with the desk around the sheet painted in the paper's shade where a
    // sheet stands out on a darker ground and the total is missing (a curled slip has no straight outline to crop by,
    // and OCR's layout analysis drops the print beside a wood grain's texture), else cropped out of the scan around
    // it (a receipt photographed on a car's console reads as noise until the console is cut away). The reading the
    // rules are surer of leads, and each field comes from the reading surer of it.
    const again =
      (amountWeak ? await paintedReading(photo, options, pageDone) : null) ??
      (await croppedReading(photo, options, pageDone));
    if (again) rules = mergeReadings(rules, extractFieldsFromLines(again, options.hints)).rules;
  }
  // Nothing but a few words of print around a picture (a browser's print of a receipt image: the date, the address
  // and the file name in its margins): the picture is the document, read like a scan; the print fills the gaps.
  if (pagesAsScans && !rules.amount && !rules.invoice_date) {
    const scanned = await pagesAsScans().catch(() => null);
    if (scanned?.length) {
      const text = rules;
      rules = extractFieldsFromLines(scanned, options.hints);
      fillMissing(rules, text);
      source = 'ocr';
    }
  }
  if (pictureText && !rules.vendor) {
    // The issuer's name only in a picture (a logo, a letterhead scanned into the page): read it there, and take
    // only the vendor from that reading; the text layer stays the source of everything else.
    // The rules over the page with its pictures' lines first (a legal name in the picture outranks the logo's
    // brand), else the picture's largest words.
    const more = await pictureText().catch(() => null);
    if (more?.length) {
      const again = extractFieldsFromLines(mergeLines(lines, more), options.hints).vendor;
      const { pictureName } = await import('./rules/vendor.rules');
      const logo = pictureName(more);
      const sure = again && again.confidence >= FILL_CONFIDENCE ? again : null;
      // A stacked logo ("NORDLICHT" over "ATELIER"): the rules see its first line, the picture the whole name.
      const fuller = sure && logo?.value.toLowerCase().includes(sure.value.toLowerCase()) ? logo : null;
      const named = fuller ?? sure ?? logo;
      if (named) rules.vendor = named;
    }
  }
  applyRules(result, rules, source);
  result.meta.kind = metaKind;
  if (options.model) {
    const { improveWithModel } = await import('./model/model.extractor');
    await improveWithModel(result, lines, options.model, ocrImages);
  }
}

/**
 * An image file's page for OCR: a phone photo of a sheet comes back straightened and cropped (ocr/page.detect.ts);
 * anything else, a scan or screenshot in particular, as it was.
 */
type Canvas = import('@napi-rs/canvas').Canvas;

async function photoPage(canvas: Canvas, options: ExtractOptions): Promise<Canvas> {
  if (options.straighten === false) return canvas;
  const { straightenPhoto } = await import('./ocr/page.detect');
  return (await straightenPhoto(canvas)).canvas;
}

/**
 * The page read again cropped to its document (ocr/page.detect.ts cropToContent): a till receipt that fills a strip
 * of a flatbed scan is then read at a higher resolution. Null when there is nothing to crop. Only for filling fields
 * the whole page's reading missed: measured over all dev images, cropping first read some receipts better and others
 * worse.
 */
async function croppedReading(page: Canvas, options: ExtractOptions, pageDone: () => void): Promise<Line[] | null> {
  const { cropToContent } = await import('./ocr/page.detect');
  return readAgain(page, await cropToContent(page, 0), options, pageDone);
}

/**
 * Another reading of a page just read, as `changed` shows it; null when it changed nothing. Its languages are fixed to
 * those the first reading chose, so that the script probes do not start their engines again (each holds its
 * WebAssembly memory until ended, and a photo's readings otherwise add up past the document sandbox's memory limit).
 */
async function readAgain(
  page: Canvas,
  changed: Canvas,
  options: ExtractOptions,
  pageDone: () => void,
): Promise<Line[] | null> {
  if (changed === page) return null;
  const langs =
    options.ocrEngine || options.ocrLanguages ? null : (await import('./ocr/ocr.pipeline')).lastEngineLanguages();
  return ocrAll(
    [async () => changed],
    langs ? { ...options, ocrLanguages: langs } : options,
    emptyResult(),
    [1],
    pageDone,
  );
}

const PAINTED_LONG_SIDE = 2000;

/**
 * Whether Latin text carries letters of scripts that never stand inside Latin words (Greek, Arabic, Hebrew, Thai):
 * a scanner app's OCR layer gone wrong ("ί[|Ρ52137ω328", "‫؛‬.,iJ2LlcZLRlE"), 2 % of the letters or more.
 */
function mixedScripts(text: string): boolean {
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  const foreign = text.match(/[\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}]/gu)?.length ?? 0;
  return latin > 50 && foreign >= 0.02 * latin;
}

/** A field of a scan's OCR layer the rules are less sure of than this asks for our own reading of the page. */
const SURE_TEXT_FIELD = 0.8;

/** A photo's total the rules are less sure of than this is read again (measured on the real-world dev photos). */
const WEAK_PHOTO_AMOUNT = 0.6;

/** The page read again with the ground around its sheet painted over (ocr/page.detect.ts whitenBackground), or null. */
async function paintedReading(page: Canvas, options: ExtractOptions, pageDone: () => void): Promise<Line[] | null> {
  const { whitenBackground } = await import('./ocr/page.detect');
  // At 2000 px: a till slip's print reads well there, and a photo's third reading stays within the sandbox's memory.
  return readAgain(page, await whitenBackground(page, PAINTED_LONG_SIDE), options, pageDone);
}

/**
 * The text a text PDF's first page carries in pictures only: the page is rendered, every word of its text layer is
 * painted over, and what ink is left (a logo, a scanned letterhead, text drawn as outlines) is read by OCR. Lines in
 * the text layer's units (points), so that sizes and positions compare with it. Null when nothing is left to read.
 */
async function pictureLines(
  pdf: Awaited<ReturnType<Awaited<ReturnType<typeof loadPdfModules>>['openPdf']>>,
  pageWords: Word[],
  pageHeight: number,
  options: ExtractOptions,
  pageDone: () => void,
): Promise<Line[] | null> {
  const { renderPdfPage } = await loadPdfModules();
  const canvas = await renderPdfPage(pdf, 1, 300);
  const scale = canvas.height / pageHeight;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  // A little beyond each word's box: anti-aliased edges and accents left standing read as noise.
  for (const w of pageWords) {
    const pad = 0.15 * (w.y1 - w.y0);
    ctx.fillRect(
      (w.x0 - pad) * scale,
      (w.y0 - pad) * scale,
      (w.x1 - w.x0 + 2 * pad) * scale,
      (w.y1 - w.y0 + 2 * pad) * scale,
    );
  }
  // One English pass over what is left, without the page pipeline's probes and retries (a few words of a logo read
  // as a "weak" page, which would be read twice more): a logo's few words tell no language either.
  const { looksBlank, toOcrImage } = await import('./ocr/image.loader');
  if (await looksBlank(canvas)) return null;
  const { sharedOcrEngine } = await import('./ocr/ocr.pipeline');
  const engine = options.ocrEngine ?? (await sharedOcrEngine(options.ocrLanguages ?? ['eng']));
  const img = await toOcrImage(canvas, 0);
  const r = await engine.recognize(img.bytes, 1);
  pageDone();
  const k = scale * (img.height / canvas.height);
  const words = r.words
    .filter((w) => w.text.trim() && (w.confidence > 20 || /\d/.test(w.text)))
    .map((w) => ({ ...w, x0: w.x0 / k, x1: w.x1 / k, y0: w.y0 / k, y1: w.y1 / k }));
  if (!words.length) return null;
  return buildLines(words, new Map([[1, pageHeight]]));
}

/** How much of a reading the rules are sure of: the confidences of its five fields added up. */
function sureness(r: RuleFields): number {
  return [r.vendor, r.amount, r.currency, r.invoice_date, r.invoice_number].reduce(
    (sum, g) => sum + (g?.confidence ?? 0),
    0,
  );
}

/**
 * Takes from a second reading the fields the first one did not find (and the currency printed with its amount), when
 * its rules were sure enough: an honest gap beats a guess such as an unlabelled "1".
 */
function fillMissing(rules: RuleFields, more: RuleFields): void {
  const sure = (g: { confidence: number } | null): boolean => g !== null && g.confidence >= FILL_CONFIDENCE;
  if (!rules.vendor && sure(more.vendor)) rules.vendor = more.vendor;
  if (!rules.invoice_date && sure(more.invoice_date)) rules.invoice_date = more.invoice_date;
  if (!rules.invoice_number && sure(more.invoice_number)) rules.invoice_number = more.invoice_number;
  if (!rules.amount && sure(more.amount)) {
    rules.amount = more.amount;
    if (more.currency && (!rules.currency || rules.currency.confidence < more.currency.confidence))
      rules.currency = more.currency;
  }
  if (!rules.document_type && more.document_type) rules.document_type = more.document_type;
}

/**
 * Two readings of one page merged field by field (the whitened photo reads the total, the first reading the date):
 * the reading surer overall leads (or the second, with `secondLeads`), the other fills its gaps, and a field the
 * other is surer of replaces the leader's, the currency with its amount, unless the leader holds it at `keepAbove`
 * or more.
 */
function mergeReadings(
  first: RuleFields,
  second: RuleFields,
  { secondLeads = sureness(second) > sureness(first), keepAbove = Number.POSITIVE_INFINITY } = {},
): { rules: RuleFields; secondLed: boolean } {
  const [base, other] = secondLeads ? [second, first] : [first, second];
  fillMissing(base, other);
  const surer = (a: { confidence: number } | null, b: { confidence: number } | null) =>
    a !== null && b !== null && b.confidence > a.confidence && a.confidence < keepAbove;
  if (surer(base.vendor, other.vendor)) base.vendor = other.vendor;
  if (surer(base.invoice_date, other.invoice_date)) base.invoice_date = other.invoice_date;
  if (surer(base.invoice_number, other.invoice_number)) base.invoice_number = other.invoice_number;
  if (surer(base.amount, other.amount)) {
    base.amount = other.amount;
    base.currency = other.currency ?? base.currency;
  }
  return { rules: base, secondLed: secondLeads };
}

/** `first`'s fields where it is sure of them, else `second`'s (and the currency with the amount it came with). */
function preferSure(first: RuleFields, second: RuleFields): RuleFields {
  const sure = (g: { confidence: number } | null): boolean => g !== null && g.confidence >= FILL_CONFIDENCE;
  const out: RuleFields = { ...second };
  if (sure(first.vendor)) out.vendor = first.vendor;
  if (sure(first.invoice_date)) out.invoice_date = first.invoice_date;
  if (sure(first.invoice_number)) out.invoice_number = first.invoice_number;
  if (sure(first.amount)) {
    out.amount = first.amount;
    out.currency = first.currency ?? second.currency;
  }
  if (first.document_type) out.document_type = first.document_type;
  return out;
}

/** Characters of text below which a PDF page holds no more than a margin's print (a date, a URL, a file name). */
const THIN_TEXT_CHARS = 200;

/** The rules' confidence a second reading's field needs to fill a gap (a labelled total, a labelled date). */
const FILL_CONFIDENCE = 0.6;

function fieldCount(r: ExtractionResult): number {
  return [r.vendor, r.amount, r.currency, r.invoice_date, r.invoice_number].filter((v) => v !== null).length;
}

/** The first pages and the last one (totals close the document). */
function pickOcrPages(pages: number[], max: number): number[] {
  if (pages.length <= max) return pages;
  return [...pages.slice(0, max - 1), pages[pages.length - 1]!];
}

function mergeLines(a: Line[], b: Line[]): Line[] {
  const all = [...a, ...b].sort((x, y) => x.page - y.page || x.y0 - y.y0);
  return all.map((l, index) => ({ ...l, index }));
}

async function ocrAll(
  images: Array<() => Promise<import('@napi-rs/canvas').Canvas>>,
  options: ExtractOptions,
  result: ExtractionResult,
  pageNumbers: number[],
  pageDone: () => void,
): Promise<Line[]> {
  const { ocrPage } = await import('./ocr/ocr.pipeline');
  const words: Word[] = [];
  const heights = new Map<number, number>();
  for (const [i, load] of images.entries()) {
    const page = pageNumbers[i] ?? i + 1;
    const canvas = await load();
    const r = await ocrPage(canvas, page, options);
    words.push(...r.words);
    heights.set(page, r.height);
    pageDone();
    if (r.rotated) result.warnings.push({ code: 'ocr_rotated', message: `Page ${page} was turned ${r.rotated}°` });
    if (r.confidence < 50) {
      result.warnings.push({
        code: 'ocr_low_confidence',
        message: `Page ${page}: OCR confidence ${Math.round(r.confidence)}`,
      });
    }
  }
  return buildLines(words, heights);
}

export type { ExtractionIssue };
