import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PdfReadError, type PdfText } from './pdf.reader';

/**
 * The PDF text step in a worker thread, so that a hard time limit also stops a PDF on which pdf.js spins
 * synchronously (a content stream or font program that never ends): on timeout the worker is terminated, which
 * stops even a tight loop, and a fresh one starts for the next file. The worker is long-lived and keeps pdf.js
 * loaded between files (one document at a time, destroyed after reading).
 *
 * The worker is plain JavaScript evaluated from a string, so it runs the same under tsx, vitest and the tsup bundle.
 *
 * Speed (text only, never drawing): pdf.js rebuilds every embedded TrueType/CID and Type 1/CFF font into a
 * browser-safe OpenType font (`Font.checkAndRepair`, `Font.convert`: new cmap, OS/2, glyph tables) even when it only
 * extracts text, and inflates streams through the web DecompressionStream, whose per-stream overhead dwarfs the work
 * on small streams. For a font with a ToUnicode map (or a TrueType font with an /Encoding) the rebuilt program cannot
 * change the text items: text comes from ToUnicode maps, encodings and the /Widths of the font dictionary. So this
 * worker (a) loads its own copy of the pdf.js bundle in which the rebuild is skipped for those fonts (each call is
 * patched only when found exactly once; otherwise the stock bundle is used) and (b) gives pdf.js a
 * DecompressionStream that inflates with node:zlib in one call. On the shared datasets' 30 PDFs and the 672 generated
 * ones the words (text, positions, widths) are identical to stock pdf.js, and reading takes half to a third of the
 * time (pdf.isolate.test.ts compares them). Rendering for OCR never goes through this worker.
 */
/**
 * The patches of pdf.js (see above) as JavaScript source: the worker applies them to the bundle when it starts, unless
 * the build already wrote the result (writeTextPdfjs) — the same code either way. A patch applies only where its pattern
 * is found exactly once; `changed` counts those that did.
 */
const PATCH_SOURCE = `
function patchPdfjs(src, spaceFactor, textOnly) {
  let changed = 0;
  const patch = (re, to) => {
    if ((src.match(re) || []).length !== 1) return;
    src = src.replace(re, to);
    changed++;
  };
  // Each pattern starts with literal text and checks the identifier character before it with a lookbehind: a
  // pattern that starts with ([\\w$]+) is tried at every offset of the 1.6 MB bundle (~60 ms each, per worker).
  // Word spacing: pdf.js turns any advance over 0.102 em into a space; kerned fonts then read "Liefer ant".
  patch(/=\\.102,(?<=[\\w$]=\\.102,)([\\w$]+)=\\.03,([\\w$]+)=-\\.2,([\\w$]+)=\\.102,/g,
    '=' + spaceFactor + ',$1=.03,$2=-.2,$3=' + spaceFactor + ',');
  // pdf.js's own decoders (Flate, LZW, RunLength, ASCII85...) grow their output through DecodeStream.ensureBuffer:
  // count that growth against the budget too, so the JavaScript fallback cannot inflate a bomb either.
  patch(/ensureBuffer\\(([\\w$]+)\\)\\{const ([\\w$]+)=this\\.buffer;if\\(\\1<=\\2\\.byteLength\\)return \\2;/g,
    'ensureBuffer($1){const $2=this.buffer;if($1<=$2.byteLength)return $2;globalThis.__invoiceboxInflate($1-$2.byteLength);');
  if (textOnly) {
    // Only for fonts whose text mapping can no longer change: a TrueType font with a ToUnicode map or an
    // /Encoding (else the repair may amend toUnicode for symbolic fonts), a Type 1 / CFF font with a ToUnicode map
    // (else the conversion amends toUnicode from the built-in encoding); only where the property it tests exists.
    if (src.includes('hasIncludedToUnicodeMap') && src.includes('hasEncoding')) {
      patch(/=this\\.checkAndRepair\\((?<=[\\w$]=this\\.checkAndRepair\\()([\\w$]+),([\\w$]+),([\\w$]+)\\)/g,
        '=$3.hasIncludedToUnicodeMap||$3.hasEncoding?null:this.checkAndRepair($1,$2,$3)');
      patch(/=this\\.convert\\((?<=[\\w$]=this\\.convert\\()([\\w$]+),([\\w$]+),([\\w$]+)\\)/g,
        '=$3.hasIncludedToUnicodeMap?null:this.convert($1,$2,$3)');
    }
  }
  return { src, changed };
}`;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// pdf.js, loaded once (on a warm-up message or the first document); a failed load is tried again on the next.
let loading = null;
const loaded = () => (loading ??= loadUnpdf().catch((e) => { loading = null; throw e; }));
// pdf.js inflates Flate streams through the web DecompressionStream (slow per stream in Node) and falls back to its
// own JavaScript inflater when that fails. This stand-in inflates at once with node:zlib; on an error (a corrupt
// stream, a bad checksum) it throws, and pdf.js takes its own, more lenient, path as before.
const zlib = require('node:zlib');
const INFLATE = {
  deflate: (b, max) => zlib.inflateSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max }),
  'deflate-raw': (b, max) => zlib.inflateRawSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max }),
  gzip: (b, max) => zlib.gunzipSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max }),
  brotli: (b, max) => zlib.brotliDecompressSync(b, { maxOutputLength: max }),
};
// The inflation budget of the document being read: every stream pdf.js inflates (natively here, or in its own
// JavaScript decoders, patched below) counts against it. Past it, nothing more is inflated and the document is
// refused as too large, before a flate bomb (a few KB that inflate to gigabytes) can fill the memory.
const budget = { limit: Infinity, used: 0, exceeded: false };
globalThis.__invoiceboxInflate = (bytes) => {
  budget.used += bytes;
  if (budget.exceeded || budget.used > budget.limit) {
    budget.exceeded = true;
    throw new Error('inflation budget exceeded');
  }
};
class NativeDecompressionStream {
  constructor(format) {
    const inflate = INFLATE[format];
    if (!inflate) throw new TypeError('Unsupported compression format: ' + format);
    let input = null;
    const done = Promise.resolve();
    this.writable = { getWriter: () => ({ ready: done, write: (chunk) => { input = chunk; return done; }, close: () => done }) };
    this.readable = { async *[Symbol.asyncIterator]() {
      if (budget.exceeded) throw new Error('inflation budget exceeded');
      // zlib stops at the remaining budget (and throws) instead of allocating whatever the stream asks for.
      let out;
      try {
        out = inflate(input, Math.max(1, budget.limit - budget.used + 1));
      } catch (e) {
        if (e && e.code === 'ERR_BUFFER_TOO_LARGE') budget.exceeded = true;
        throw e;
      }
      globalThis.__invoiceboxInflate(out.byteLength);
      yield new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } };
  }
}
${PATCH_SOURCE}
// pdf.js patched as the build left it (writeTextPdfjs), when it was made from the installed bundle with these settings.
function prebuiltPdfjs() {
  const p = workerData.prebuilt;
  if (!p || !workerData.textOnly) return null;
  try {
    const fs = require('node:fs');
    const made = JSON.parse(fs.readFileSync(p.stamp, 'utf8'));
    const version = JSON.parse(fs.readFileSync(workerData.unpdfPackage, 'utf8')).version;
    const fresh = made.unpdf === version && made.bytes === fs.statSync(workerData.pdfjsPath).size &&
      made.spaceFactor === workerData.spaceFactor && fs.existsSync(p.file);
    return fresh ? require('node:url').pathToFileURL(p.file).href : null;
  } catch {
    return null;
  }
}
async function loadUnpdf() {
  const m = await import(workerData.unpdfUrl);
  const api = m.getDocumentProxy ? m : m.default;
  const prebuilt = prebuiltPdfjs();
  if (prebuilt) {
    try {
      const pdfjs = await import(prebuilt);
      globalThis.DecompressionStream = NativeDecompressionStream;
      await api.definePDFJSModule(() => Promise.resolve(pdfjs));
      return api;
    } catch {}
  }
  try {
    const { src, changed } = patchPdfjs(require('node:fs').readFileSync(workerData.pdfjsPath, 'utf8'),
      workerData.spaceFactor, workerData.textOnly);
    globalThis.DecompressionStream = NativeDecompressionStream;
    if (changed) {
      // Named for stack traces: else every frame in pdf.js carries the whole data: URL (2 MB), and each error whose
      // stack is read (the web streams pdf.js reads through make one) costs tens of milliseconds.
      const named = src + '\\n//# sourceURL=unpdf-pdfjs-patched.mjs\\n';
      const pdfjs = await import('data:text/javascript;base64,' + Buffer.from(named).toString('base64'));
      await api.definePDFJSModule(() => Promise.resolve(pdfjs));
    }
  } catch {}
  return api;
}
parentPort.on('message', async (job) => {
  // A warm-up (warmPdfWorker): load pdf.js now; the document follows in another message.
  if (job.warm) { loaded().catch(() => {}); return; }
  let pdf = null;
  budget.limit = job.inflateBudget;
  budget.used = 0;
  budget.exceeded = false;
  const tooLarge = () => ({ id: job.id, error: { code: 'pdf_too_large',
    message: 'The PDF is too large to read: its streams inflate to more than ' + Math.round(budget.limit / 1048576) + ' MB' } });
  try {
    const { getDocumentProxy } = await loaded();
    try {
      pdf = await getDocumentProxy(job.bytes, {
        isEvalSupported: false, verbosity: 0, enableXfa: false, disableFontFace: true,
        useSystemFonts: false, stopAtErrors: false, maxImageSize: job.maxImagePixels,
      });
    } catch (e) {
      if (budget.exceeded) { parentPort.postMessage(tooLarge()); return; }
      const code = e && e.name === 'PasswordException' ? 'pdf_encrypted' : 'pdf_invalid';
      const message = code === 'pdf_encrypted' ? 'The PDF is password-protected' : 'Not a readable PDF: ' + (e && e.message || e);
      parentPort.postMessage({ id: job.id, error: { code, message } });
      return;
    }
    if (pdf.numPages > job.maxPages) {
      parentPort.postMessage({ id: job.id, error: { code: 'pdf_too_many_pages',
        message: 'The PDF has ' + pdf.numPages + ' pages (limit ' + job.maxPages + ')' } });
      return;
    }
    const attachments = [];
    try {
      const att = await pdf.getAttachments();
      for (const [key, a] of Object.entries(att || {})) {
        if (a && a.content) attachments.push({ name: a.filename || key, content: a.content });
      }
    } catch {}
    const words = [];
    const pageHeights = [];
    const charsPerPage = [];
    for (let p = 1; p <= pdf.numPages; p++) {
      const page = await pdf.getPage(p);
      const vp = page.getViewport({ scale: 1 });
      pageHeights.push([p, vp.height]);
      const content = await page.getTextContent();
      let chars = 0;
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const [a, b, c, d, e, f] = item.transform;
        const fontH = Math.hypot(c || 0, d || 0) || Math.hypot(a || 0, b || 0) || item.height || 10;
        const [x, y] = vp.convertToViewportPoint(e || 0, f || 0);
        const horizontal = Math.abs(b || 0) < 0.1 * Math.abs(a || 1);
        if (!horizontal && vp.rotation === 0) continue;
        const width = item.width || fontH * 0.5 * item.str.length;
        chars += item.str.length;
        words.push({ text: item.str, x0: x, x1: x + width, y0: y - fontH * 0.8, y1: y + fontH * 0.2, page: p });
      }
      charsPerPage.push(chars);
      page.cleanup();
    }
    if (budget.exceeded) { parentPort.postMessage(tooLarge()); return; }
    parentPort.postMessage({ id: job.id, value: { pages: pdf.numPages, words, pageHeights, attachments, charsPerPage } });
  } catch (e) {
    if (budget.exceeded) { parentPort.postMessage(tooLarge()); return; }
    // A stack overflow (objects nested 100,000 deep) is the file's fault: say so, not what the engine said.
    const deep = /Maximum call stack size exceeded/i.test(String((e && e.message) || e));
    parentPort.postMessage({ id: job.id, error: { code: 'pdf_invalid', message: deep ? 'Could not read the PDF: its objects are nested too deeply' : 'Could not read the PDF: ' + (e && e.message || e) } });
  } finally {
    if (pdf) await pdf.destroy().catch(() => {});
  }
});
`;

interface Reply {
  id: number;
  value?: Omit<PdfText, 'pageHeights'> & { pageHeights: Array<[number, number]> };
  error?: { code: PdfReadError['code']; message: string };
}

let worker: Worker | null = null;
let seq = 0;
const pending = new Map<number, { worker: Worker; done: (r: Reply) => void }>();
/** One document at a time: jobs queue behind each other. */
let queue: Promise<unknown> = Promise.resolve();

function unpdfPaths(): { unpdfUrl: string; pdfjsPath: string; unpdfPackage: string } {
  const require = createRequire(import.meta.url);
  const main = require.resolve('unpdf');
  // The ESM pdf.js bundle sits beside unpdf's entry points (the package exports it as `unpdf/pdfjs`).
  return {
    unpdfUrl: pathToFileURL(main).href,
    pdfjsPath: path.join(path.dirname(main), 'pdfjs.mjs'),
    // Not in the package's exports: found from its entry point (dist/index.cjs).
    unpdfPackage: path.join(path.dirname(main), '..', 'package.json'),
  };
}

const PREBUILT_FILE = 'pdfjs-text.mjs';
const PREBUILT_STAMP = 'pdfjs-text.json';

/**
 * Build step (build.mjs): writes pdf.js with the text patches applied into `dir`, beside the server's bundle, with a
 * note of what it was made from. A worker then imports that file instead of patching the 1.6 MB bundle and importing
 * it from a data: URL (~50 ms of each worker start); it patches at run time as before when the file is missing or was
 * made from another pdf.js. Writes nothing (and returns false) when no patch applies.
 */
export function writeTextPdfjs(dir: string): boolean {
  const { pdfjsPath, unpdfPackage } = unpdfPaths();
  const patchPdfjs = new Function(`${PATCH_SOURCE}\nreturn patchPdfjs;`)() as (
    src: string,
    spaceFactor: number,
    textOnly: boolean,
  ) => { src: string; changed: number };
  const { src, changed } = patchPdfjs(readFileSync(pdfjsPath, 'utf8'), WORD_SPACE_EM, true);
  if (!changed) return false;
  writeFileSync(path.join(dir, PREBUILT_FILE), src);
  const unpdf = (JSON.parse(readFileSync(unpdfPackage, 'utf8')) as { version: string }).version;
  const stamp = { unpdf, bytes: statSync(pdfjsPath).size, spaceFactor: WORD_SPACE_EM };
  writeFileSync(path.join(dir, PREBUILT_STAMP), `${JSON.stringify(stamp)}\n`);
  return true;
}

/** Where the build's patched pdf.js is looked for: beside this module (dist/ in the built server), or `dir` (tests). */
let prebuiltDir: string | null = path.dirname(fileURLToPath(import.meta.url));

/** Tests: the folder of a patched pdf.js written by writeTextPdfjs, or null for none; stops the current worker. */
export async function usePrebuiltPdfjs(dir: string | null): Promise<void> {
  prebuiltDir = dir;
  await terminatePdfWorker();
}

function prebuilt(): { file: string; stamp: string } | null {
  if (!prebuiltDir || !existsSync(path.join(prebuiltDir, PREBUILT_STAMP))) return null;
  return { file: path.join(prebuiltDir, PREBUILT_FILE), stamp: path.join(prebuiltDir, PREBUILT_STAMP) };
}

/**
 * The smallest gap between two glyphs, in ems, that reads as a space. pdf.js uses 0.102, which splits words in PDFs
 * whose generator kerns with TJ offsets ("Liefer ant GmbH", "Br uttosumme"); real word gaps are a quarter em and
 * more. Measured on 125 Factur-X/ZUGFeRD PDFs read through their text: 0.102 → 72.8% all fields right, 0.15 → 83.2%,
 * 0.2 → 82.4%, 0.25 → 72.8% (numbers and dates lose their spaces); the generated and shared sets are unchanged.
 */
const WORD_SPACE_EM = 0.15;

/** Text-only fast path of the worker (see the header); turned off only to compare against stock pdf.js. */
let textOnly = true;

/** Switches the fast path for the next worker (tests); stops the current worker so the change takes effect. */
export async function usePdfTextFastPath(on: boolean): Promise<void> {
  textOnly = on;
  await terminatePdfWorker();
}

function getWorker(source: string): Worker {
  if (worker) return worker;
  const w = new Worker(source, {
    eval: true,
    workerData: { ...unpdfPaths(), textOnly, spaceFactor: WORD_SPACE_EM, prebuilt: prebuilt() },
  });
  w.unref();
  w.on('message', (r: Reply) => {
    pending.get(r.id)?.done(r);
    pending.delete(r.id);
  });
  const fail = (message: string) => {
    if (worker === w) worker = null;
    // Only this worker's jobs: a terminated worker's exit must not fail the next worker's job.
    for (const [id, p] of pending) {
      if (p.worker !== w) continue;
      pending.delete(id);
      p.done({ id, error: { code: 'pdf_invalid', message } });
    }
  };
  w.on('error', (e) => fail(`The PDF reader failed: ${e.message}`));
  w.on('exit', () => fail('The PDF reader stopped'));
  worker = w;
  return w;
}

/**
 * Starts the worker and has it load pdf.js (0.1–0.3 s) before the document is sent, so that the load overlaps the
 * caller's own work (a sandbox child loads the extraction pipeline meanwhile). Nothing when a worker is running.
 */
export function warmPdfWorker(): void {
  if (worker) return;
  getWorker(WORKER_SOURCE).postMessage({ warm: true });
}

/** Stops the PDF worker (tests, shutdown). */
export async function terminatePdfWorker(): Promise<void> {
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}

/**
 * Reads the text layer of `bytes` in the worker; throws PdfReadError('pdf_timeout') after `timeoutMs` and kills the
 * worker. `workerSource` replaces the worker's code (tests only).
 */
export function readPdfTextIsolated(
  bytes: Uint8Array,
  limits: PdfTextLimits,
  workerSource: string = WORKER_SOURCE,
): Promise<PdfText> {
  const job = queue.then(() => runJob(bytes, limits, workerSource));
  queue = job.catch(() => undefined);
  return job;
}

/** What one read may cost: pages, time, pixels of one image, bytes inflated from the document's streams in all. */
export interface PdfTextLimits {
  maxPages: number;
  timeoutMs: number;
  maxImagePixels: number;
  inflateBudgetBytes: number;
}

function runJob(bytes: Uint8Array, limits: PdfTextLimits, source: string): Promise<PdfText> {
  const { maxPages, timeoutMs, maxImagePixels, inflateBudgetBytes } = limits;
  const w = getWorker(source);
  const id = ++seq;
  // Transfer a copy: the caller keeps its buffer.
  const copy = new Uint8Array(bytes);
  return new Promise<PdfText>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      if (worker === w) worker = null;
      void w.terminate();
      reject(new PdfReadError('pdf_timeout', `Reading the PDF took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    pending.set(id, {
      worker: w,
      done: (r) => {
        clearTimeout(timer);
        if (r.error) reject(new PdfReadError(r.error.code, r.error.message));
        else if (r.value) resolve({ ...r.value, pageHeights: new Map(r.value.pageHeights) });
        else reject(new PdfReadError('pdf_invalid', 'The PDF reader gave no answer'));
      },
    });
    w.postMessage({ id, bytes: copy, maxPages, maxImagePixels, inflateBudget: inflateBudgetBytes }, [copy.buffer]);
  });
}

/** Limits for a read with the default image and inflation budgets (tests and tools). */
export function pdfLimits(maxPages: number, timeoutMs: number): PdfTextLimits {
  return { maxPages, timeoutMs, maxImagePixels: 60_000_000, inflateBudgetBytes: 256 * 1024 * 1024 };
}
