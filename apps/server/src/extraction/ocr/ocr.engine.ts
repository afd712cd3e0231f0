import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Word } from '../extraction.types';

/**
 * Offline OCR with tesseract.js. Language data comes from the installed @tesseract.js-data/<lang> packages (the
 * LSTM "best_int" models); tesseract.js wants every <lang>.traineddata.gz in ONE folder, so they are copied into a
 * per-user temp folder once. cacheMethod 'none' keeps it from writing traineddata into the working directory.
 * One worker is reused across a batch; callers terminate it at the end so the process can exit.
 */

export const OCR_LANGS = [
  'eng',
  'deu',
  'fra',
  'ita',
  'spa',
  'ron',
  'nld',
  'por',
  'pol',
  'ces',
  'swe',
  // Vietnamese: its tone marks stack two diacritics on a letter, which the Latin models read as other letters.
  'vie',
  'jpn',
  'chi_sim',
  // Cyrillic: no Russian model ships on npm; the Ukrainian and Belarusian ones together know every Russian letter.
  'ukr',
  'bel',
] as const;

export interface OcrPage {
  words: Array<Word & { confidence: number }>;
  width: number;
  height: number;
  /** Mean word confidence 0..100. */
  confidence: number;
}

export interface OcrEngine {
  /** Recognises one image (PNG/JPEG/PNM bytes), optionally only a rectangle of it (orientation probes). */
  recognize(
    image: Uint8Array,
    page: number,
    rectangle?: { left: number; top: number; width: number; height: number },
  ): Promise<OcrPage>;
  terminate(): Promise<void>;
}

/** The one folder tesseract.js reads every <lang>.traineddata.gz from (per user, under the temp folder). */
export function ocrDataDir(): string {
  return path.join(os.tmpdir(), `invoicebox-tessdata-${process.getuid?.() ?? 'u'}`);
}

/**
 * Copies the language models from their npm packages into ocrDataDir() where missing. The document sandbox's
 * children may not write anything, so the server calls this before it starts them; elsewhere it runs on first use.
 */
export function prepareOcrData(langs: readonly string[] = OCR_LANGS): string {
  const require = createRequire(import.meta.url);
  const dir = ocrDataDir();
  const ready = (target: string, source: string) =>
    existsSync(target) && statSync(target).size === statSync(source).size;
  for (const lang of langs) {
    const target = path.join(dir, `${lang}.traineddata.gz`);
    const pkgDir = path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
    const source = path.join(pkgDir, '4.0.0_best_int', `${lang}.traineddata.gz`);
    if (ready(target, source)) continue;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    copyFileSync(source, target);
  }
  return dir;
}

export async function createOcrEngine(langs: readonly string[] = ['eng']): Promise<OcrEngine> {
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  const langPath = prepareOcrData(langs);
  const worker = await createWorker(langs[0] ?? 'eng', OEM.LSTM_ONLY, {
    langPath,
    cacheMethod: 'none',
    gzip: true,
    logger: () => {},
    errorHandler: () => {},
  });
  if (langs.length > 1) {
    // The Italian model's config names a user-words file that the npm package lacks; tesseract then prints
    // "failed to load ./ita.special-words" on stderr. Empty files make the load quiet; init then runs once more.
    for (const lang of langs) await worker.writeText(`${lang}.special-words`, '');
    await worker.reinitialize(langs.join('+'), OEM.LSTM_ONLY);
  }
  // PSM 3 (fully automatic): the default single-block modes drop large titles and side columns. With the Japanese
  // model its layout analysis finds no text at all on a receipt (only the Latin logo); PSM 4 (one column of text of
  // varying size) reads both receipts and invoice pages there, and with the Chinese model.
  const psm = langs.includes('jpn') || langs.includes('chi_sim') ? PSM.SINGLE_COLUMN : PSM.AUTO;
  await worker.setParameters({ tessedit_pageseg_mode: psm, user_defined_dpi: '300' });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    recognize(image, page, rectangle) {
      const job = queue.then(async () => {
        // rotateAuto straightens small skew (tesseract measures the text-line angle).
        const opts = rectangle ? { rectangle } : { rotateAuto: true };
        const { data } = await worker.recognize(Buffer.from(image), opts, { blocks: true, text: false });
        const words: OcrPage['words'] = [];
        let confSum = 0;
        for (const block of data.blocks ?? []) {
          for (const para of block.paragraphs) {
            for (const line of para.lines) {
              for (const w of line.words) {
                if (!w.text.trim()) continue;
                words.push({
                  text: w.text,
                  x0: w.bbox.x0,
                  y0: w.bbox.y0,
                  x1: w.bbox.x1,
                  y1: w.bbox.y1,
                  page,
                  confidence: w.confidence,
                });
                confSum += w.confidence;
              }
            }
          }
        }
        const width = Math.max(0, ...words.map((w) => w.x1));
        const height = Math.max(0, ...words.map((w) => w.y1));
        return { words, width, height, confidence: words.length ? confSum / words.length : 0 };
      });
      queue = job.catch(() => undefined);
      return job;
    },
    async terminate() {
      await worker.terminate();
    },
  };
}
