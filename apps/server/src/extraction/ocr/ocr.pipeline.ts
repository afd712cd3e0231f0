import type { Canvas } from '@napi-rs/canvas';
import type { ExtractOptions, Word } from '../extraction.types';
import { cropPgmRows, densestBand, looksSideways, toOcrImage } from './image.loader';
import { createOcrEngine, type OcrEngine, type OcrPage } from './ocr.engine';

/**
 * OCR of one page image with orientation handling: tesseract's own deskew (rotateAuto) handles small skew; a page
 * read with low confidence is tried again turned by 180°, 90° and 270° and the best reading is kept.
 */

let shared: Promise<OcrEngine> | null = null;
let sharedLangs = '';

/** The process-wide engine used when the caller passes none; created on first use. */
export function sharedOcrEngine(langs: readonly string[]): Promise<OcrEngine> {
  const key = langs.join('+');
  if (!shared || sharedLangs !== key) {
    const old = shared;
    if (old) void old.then((e) => e.terminate()).catch(() => undefined);
    sharedLangs = key;
    shared = createOcrEngine(langs);
    shared.catch(() => {
      shared = null;
    });
  }
  return shared;
}

/** Ends the shared engine so the process can exit (CLI, eval, tests). */
export async function terminateSharedOcrEngine(): Promise<void> {
  const s = shared;
  shared = null;
  if (s) await (await s).terminate().catch(() => undefined);
}

/** Default OCR languages: English plus the six other label languages; see README of the eval for the speed cost. */
export const DEFAULT_OCR_LANGS = ['eng', 'deu', 'fra', 'ita', 'spa', 'ron', 'nld'];

function quality(p: OcrPage): number {
  // Mean confidence weighted by how much readable text there is (an upside-down page gives few, poor words).
  const good = p.words.filter((w) => w.confidence > 60 && /[\p{L}\d]{2}/u.test(w.text)).length;
  return p.confidence * Math.log(1 + good);
}

/** Share of words (3+ letters) whose box is taller than wide: the page's text runs vertically. */
function verticalShare(p: OcrPage): number {
  const long = p.words.filter((w) => w.text.length >= 3);
  return long.filter((w) => w.y1 - w.y0 > 1.2 * (w.x1 - w.x0)).length / Math.max(long.length, 1);
}

export async function ocrPage(
  canvas: Canvas,
  page: number,
  options: ExtractOptions,
): Promise<{ words: Word[]; height: number; confidence: number; rotated: number }> {
  const engine = options.ocrEngine ?? (await sharedOcrEngine(options.ocrLanguages ?? DEFAULT_OCR_LANGS));
  // Sideways pages are found from the ink profile (cheap) and turned before OCR; an upside-down page reads as
  // low-confidence noise, so a weak first reading is tried again turned by 180°.
  let start = (await looksSideways(canvas)) ? 1 : 0;
  // Upside-down probe: reading a small, dense band at low resolution costs ~0.2 s, while a full pass over an
  // upside-down page costs several seconds of noise.
  const probe = async (t: number) => {
    const small = await toOcrImage(canvas, t, 1400);
    const band = densestBand(small, 0.22);
    return engine.recognize(cropPgmRows(small, band.top, band.height).bytes, page);
  };
  let p0 = await probe(start);
  if (verticalShare(p0) > 0.5) {
    start += 1;
    p0 = await probe(start);
  }
  if (p0.confidence < 75) {
    const p2 = await probe(start + 2);
    if (quality(p2) > quality(p0) * 1.15) start += 2;
  }
  const img0 = await toOcrImage(canvas, start);
  const first = await engine.recognize(img0.bytes, page);
  let best = first;
  let height = img0.height;
  let turns = start;
  const good = first.words.filter((w) => w.confidence > 60).length;
  const vertical = verticalShare(first);
  const tries = vertical > 0.5 ? [start + 1, start + 3] : first.confidence < 60 || good < 10 ? [start + 2] : [];
  for (const t of tries) {
    const img = await toOcrImage(canvas, t);
    const r = await engine.recognize(img.bytes, page);
    if (quality(r) > quality(best) * 1.15 || (vertical > 0.5 && best === first)) {
      best = r;
      turns = t;
      height = img.height;
    }
    if (best.confidence > 80 && best !== first) break;
  }
  // Very unsure words add noise (speckles read as "'.,"); keep the rest.
  const words = best.words.filter((w) => w.confidence > 20 || /\d/.test(w.text));
  return { words, height, confidence: best.confidence, rotated: (turns % 4) * 90 };
}
