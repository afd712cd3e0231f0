import { createRequire } from 'node:module';
import type { Word } from '../extraction.types';

/**
 * PDF access through unpdf (a serverless build of pdf.js), imported lazily so `invoicebox start` never loads it.
 * pdf.js runs here without eval (isEvalSupported: false), never runs document JavaScript and never fetches anything.
 */

type PdfDoc = Awaited<ReturnType<typeof import('unpdf')['getDocumentProxy']>>;

export class PdfReadError extends Error {
  constructor(
    readonly code: 'pdf_encrypted' | 'pdf_invalid' | 'pdf_too_many_pages' | 'pdf_timeout' | 'pdf_too_large',
    message: string,
  ) {
    super(message);
  }
}

export interface PdfText {
  pages: number;
  words: Word[];
  pageHeights: Map<number, number>;
  /** Embedded files: name → bytes (Factur-X / ZUGFeRD XML lives here). */
  attachments: Array<{ name: string; content: Uint8Array }>;
  /** Characters of text found per page (0 for scanned pages). */
  charsPerPage: number[];
}

let unpdfModule: Promise<typeof import('unpdf')> | null = null;
function loadUnpdf() {
  installArrayBufferTransfer();
  unpdfModule ??= import('unpdf');
  return unpdfModule;
}

/**
 * pdf.js 5 moves font data with ArrayBuffer.prototype.transferToFixedLength, which Node 20 lacks: there every glyph
 * fails to load and a page renders without its text (blank, for OCR of a page whose text layer is unreadable). A copy
 * does what pdf.js needs; Node 22 and later have the real one and keep it.
 */
export function installArrayBufferTransfer(): void {
  const proto = ArrayBuffer.prototype as ArrayBuffer & {
    transfer?: (n?: number) => ArrayBuffer;
    transferToFixedLength?: (n?: number) => ArrayBuffer;
  };
  const copy = function (this: ArrayBuffer, length = this.byteLength): ArrayBuffer {
    const out = new ArrayBuffer(length);
    new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
    return out;
  };
  if (!proto.transferToFixedLength) Object.defineProperty(proto, 'transferToFixedLength', { value: copy });
  if (!proto.transfer) Object.defineProperty(proto, 'transfer', { value: copy });
}

/**
 * Rendering inflates image streams through the web DecompressionStream, which knows no limit: a stream of a few KB
 * may inflate to gigabytes. Here it is replaced by one that inflates with node:zlib up to what is left of the
 * document's budget and fails past it (pdf.js then draws the page without that image). It is installed in the
 * process that renders, which is a document-sandbox child in the server.
 */
const renderBudget = { left: Number.POSITIVE_INFINITY };
function installBoundedDecompression(): void {
  if ((globalThis as { __invoiceboxBounded?: boolean }).__invoiceboxBounded) return;
  (globalThis as { __invoiceboxBounded?: boolean }).__invoiceboxBounded = true;
  const zlib = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  const inflaters: Record<string, (b: Uint8Array, max: number) => Buffer> = {
    deflate: (b, max) => zlib.inflateSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max }),
    'deflate-raw': (b, max) =>
      zlib.inflateRawSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max }),
    gzip: (b, max) => zlib.gunzipSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max }),
  };
  class BoundedDecompressionStream {
    readonly writable: unknown;
    readonly readable: unknown;
    constructor(format: string) {
      const inflate = inflaters[format];
      if (!inflate) throw new TypeError(`Unsupported compression format: ${format}`);
      let input: Uint8Array = new Uint8Array(0);
      const done = Promise.resolve();
      this.writable = {
        getWriter: () => ({
          ready: done,
          write: (chunk: Uint8Array) => {
            input = chunk;
            return done;
          },
          close: () => done,
        }),
      };
      this.readable = {
        async *[Symbol.asyncIterator]() {
          const out = inflate(input, Math.max(1, Math.min(renderBudget.left, 2 ** 31 - 1)));
          renderBudget.left -= out.byteLength;
          yield new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
        },
      };
    }
  }
  (globalThis as { DecompressionStream?: unknown }).DecompressionStream = BoundedDecompressionStream;
}

export async function openPdf(
  bytes: Uint8Array,
  limits: { maxImagePixels: number; inflateBudgetBytes: number },
): Promise<PdfDoc> {
  const { getDocumentProxy } = await loadUnpdf();
  installBoundedDecompression();
  renderBudget.left = limits.inflateBudgetBytes;
  try {
    // pdf.js takes ownership of the buffer: give it a copy so callers keep theirs.
    return await getDocumentProxy(new Uint8Array(bytes), {
      maxImageSize: limits.maxImagePixels,
      isEvalSupported: false,
      verbosity: 0,
      enableXfa: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
    });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'PasswordException') throw new PdfReadError('pdf_encrypted', 'The PDF is password-protected');
    const message = error instanceof Error ? error.message : String(error);
    throw new PdfReadError('pdf_invalid', `Not a readable PDF: ${message}`);
  }
}

/** Text items with boxes (top-left origin, points) for every page, plus the embedded files. */
export async function readPdfText(pdf: PdfDoc, maxPages: number): Promise<PdfText> {
  if (pdf.numPages > maxPages) {
    throw new PdfReadError('pdf_too_many_pages', `The PDF has ${pdf.numPages} pages (limit ${maxPages})`);
  }
  const attachments: PdfText['attachments'] = [];
  try {
    const att = (await pdf.getAttachments()) as Record<string, { filename?: string; content?: Uint8Array }> | null;
    for (const [key, a] of Object.entries(att ?? {})) {
      if (a?.content) attachments.push({ name: a.filename ?? key, content: a.content });
    }
  } catch {
    // A broken attachment tree is not fatal: the text layer may still carry the fields.
  }
  const words: Word[] = [];
  const pageHeights = new Map<number, number>();
  const charsPerPage: number[] = [];
  for (let p = 1; p <= pdf.numPages; p++) {
    const page = await pdf.getPage(p);
    const vp = page.getViewport({ scale: 1 });
    pageHeights.set(p, vp.height);
    const content = await page.getTextContent();
    let chars = 0;
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      // Apply the viewport transform so rotated pages and odd media boxes come out upright.
      const [a, b, c, d, e, f] = item.transform as number[];
      const fontH = Math.hypot(c ?? 0, d ?? 0) || Math.hypot(a ?? 0, b ?? 0) || item.height || 10;
      const [x, y] = vp.convertToViewportPoint(e ?? 0, f ?? 0) as [number, number];
      const horizontal = Math.abs(b ?? 0) < 0.1 * Math.abs(a ?? 1);
      if (!horizontal && vp.rotation === 0) continue; // vertical side text (legal notes) only adds noise
      const width = item.width || fontH * 0.5 * item.str.length;
      chars += item.str.length;
      words.push({ text: item.str, x0: x, x1: x + width, y0: y - fontH * 0.8, y1: y + fontH * 0.2, page: p });
    }
    charsPerPage.push(chars);
    page.cleanup();
  }
  return { pages: pdf.numPages, words, pageHeights, attachments, charsPerPage };
}

/**
 * Whether a page's text is drawn invisible (text rendering mode 3 or 7) for the most part: a scanner app's OCR layer
 * laid over the page's picture, whose reading is only as good as that app's OCR.
 */
export async function invisibleText(pdf: PdfDoc, pageNumber: number): Promise<boolean> {
  const { getResolvedPDFJS } = await loadUnpdf();
  const { OPS } = (await getResolvedPDFJS()) as unknown as { OPS: Record<string, number> };
  const page = await pdf.getPage(pageNumber);
  try {
    const ops = await page.getOperatorList();
    let mode = 0;
    let shown = 0;
    let hidden = 0;
    for (let i = 0; i < ops.fnArray.length; i++) {
      const fn = ops.fnArray[i];
      if (fn === OPS.setTextRenderingMode) mode = Number((ops.argsArray[i] as number[])[0]);
      else if (fn === OPS.showText || fn === OPS.showSpacedText) {
        shown++;
        if (mode === 3 || mode === 7) hidden++;
      }
    }
    return shown > 0 && hidden >= 0.8 * shown;
  } finally {
    page.cleanup();
  }
}

/** Renders one page to a PNG-ready canvas at `dpi` (for OCR of pages without text). */
export async function renderPdfPage(pdf: PdfDoc, pageNumber: number, dpi: number) {
  const canvasMod = await import('@napi-rs/canvas');
  // The serverless pdf.js in unpdf draws only after the canvas module is registered with it.
  const { createIsomorphicCanvasFactory } = await loadUnpdf();
  await createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
  const page = await pdf.getPage(pageNumber);
  const base = page.getViewport({ scale: 1 });
  // Keep huge media boxes in check: at most ~ 3500 px on the long side.
  const scale = Math.min(dpi / 72, 3500 / Math.max(base.width, base.height));
  const vp = page.getViewport({ scale });
  const canvas = canvasMod.createCanvas(Math.ceil(vp.width), Math.ceil(vp.height));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: ctx, viewport: vp, canvas } as never).promise;
  page.cleanup();
  return canvas;
}
