import type { Canvas } from '@napi-rs/canvas';
import type { ExtractOptions, Word } from '../extraction.types';
import { foldAligned, type Lang, languageEvidence } from '../rules/document';
import { cropPgmRows, densestBand, looksBlank, looksSideways, toOcrImage } from './image.loader';
import { createOcrEngine, type OcrEngine, type OcrPage } from './ocr.engine';

/**
 * OCR of one page image with orientation handling: tesseract's own deskew (rotateAuto) handles small skew; a page
 * read with low confidence is tried again turned by 180°, 90° and 270° and the best reading is kept.
 */

/**
 * Process-wide engines by language set, created on first use and kept for the next pages (loading a model costs
 * more than reading a page). At most three stay alive: the English probe engine and the two last page languages.
 */
const engines = new Map<string, Promise<OcrEngine>>();
const MAX_ENGINES = 3;

/** The process-wide engine for `langs`; created on first use. */
export function sharedOcrEngine(langs: readonly string[]): Promise<OcrEngine> {
  const key = langs.join('+');
  let engine = engines.get(key);
  if (engine) {
    // Most recently used last.
    engines.delete(key);
    engines.set(key, engine);
    return engine;
  }
  engine = createOcrEngine(langs);
  engine.catch(() => engines.delete(key));
  engines.set(key, engine);
  for (const [k, old] of engines) {
    if (engines.size <= MAX_ENGINES) break;
    if (k === 'eng') continue;
    engines.delete(k);
    void old.then((e) => e.terminate()).catch(() => undefined);
  }
  return engine;
}

/**
 * The languages of the engine used last (the page's, after the probes), so that another reading of the same page
 * goes straight to it: the script probes would otherwise start their engines again, and each holds its WebAssembly
 * memory until ended.
 */
export function lastEngineLanguages(): string[] | null {
  const keys = [...engines.keys()];
  return keys.length ? keys[keys.length - 1]!.split('+') : null;
}

/** Ends the shared engines so the process can exit (CLI, eval, tests). */
export async function terminateSharedOcrEngine(): Promise<void> {
  const all = [...engines.values()];
  engines.clear();
  await Promise.all(all.map(async (e) => (await e).terminate().catch(() => undefined)));
}

/** Languages read when the page's language cannot be told: English plus the six other label languages. */
export const DEFAULT_OCR_LANGS = ['eng', 'deu', 'fra', 'ita', 'spa', 'ron', 'nld'];

const TESSERACT_LANG: Record<Lang, string> = {
  en: 'eng',
  de: 'deu',
  fr: 'fra',
  it: 'ita',
  es: 'spa',
  ro: 'ron',
  nl: 'nld',
  pt: 'por',
  pl: 'pol',
  cs: 'ces',
  sv: 'swe',
  vi: 'vie',
  ja: 'jpn',
  zh: 'chi_sim',
};

/**
 * The languages for a page's full reading, from the English probe's words: the page's language plus English (for
 * English words and names on any invoice). Every model in the set costs a full recognition pass, so reading all
 * seven takes about twice as long as two; with too little evidence all seven are read.
 */
export function pageLanguages(probe: { words: ReadonlyArray<{ text: string }> }): string[] {
  const { lang, hits } = languageEvidence(foldAligned(probe.words.map((w) => w.text).join(' ')));
  if (hits < 2) return DEFAULT_OCR_LANGS;
  return lang === 'en' ? ['eng'] : [TESSERACT_LANG[lang], 'eng'];
}

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

/**
 * Unevenness (page.detect.ts) above which a page's light is evened out before OCR: flatbed scans and rendered pages
 * measure 0–0.07, phone photos and receipts on a dark background 0.2 and more.
 */
export const UNEVEN_LIGHT = 0.15;

/** A reading too weak to trust: low mean confidence or hardly any confident word. */
export function weakReading(p: OcrPage): boolean {
  return p.confidence < 60 || p.words.filter((w) => w.confidence > 60).length < 10;
}

/**
 * What to do with a page whose probe band cannot tell its language:
 * - 'all-languages': read it with all seven models at once (invoices and receipts: measured on the real-world dev
 *   images, the English-first reading below lost 5 of 43 all-5, mostly German receipts' vendors);
 * - 'english-first': read it in English — one model, a quarter of the time of seven, which made a scanned statement
 *   page cost 30–40 s — and let the whole page's words decide: another language seen there is read again with its
 *   model (plus English), an English or still undecided page keeps the English reading. For statements, whose rows
 *   are figures and dates and whose later pages take the first page's language (bank/pdf.reader.ts).
 */
export type UndecidedLanguage = 'all-languages' | 'english-first';

/** The full reading in the page's language (see UndecidedLanguage). */
export async function readInPageLanguage(
  image: Uint8Array,
  page: number,
  probe: OcrPage,
  fixed: OcrEngine | null,
  probeEngine: OcrEngine,
  undecided: UndecidedLanguage,
  engineFor: (langs: readonly string[]) => Promise<OcrEngine> = sharedOcrEngine,
): Promise<{ engine: OcrEngine; first: OcrPage }> {
  if (fixed) return { engine: fixed, first: await fixed.recognize(image, page) };
  const langs = pageLanguages(probe);
  if (langs !== DEFAULT_OCR_LANGS || undecided === 'all-languages') {
    const engine = await engineFor(langs);
    const first = await engine.recognize(image, page);
    if (langs !== DEFAULT_OCR_LANGS) return { engine, first };
    // The probe band held no words (a logo, a store's name), the whole page does: a language the seven models do
    // not cover (Portuguese, Polish, Vietnamese …) is read again with its own model. Each model rates its own
    // reading: the one that knows the page's letters keeps it unless clearly worse.
    return rereadInOwnLanguage(
      image,
      page,
      { engine, first },
      (l) => l.every((x) => DEFAULT_OCR_LANGS.includes(x)),
      0.9,
      engineFor,
    );
  }
  const english = await probeEngine.recognize(image, page);
  return rereadInOwnLanguage(
    image,
    page,
    { engine: probeEngine, first: english },
    (l) => l.length === 1 && l[0] === 'eng',
    1,
    engineFor,
  );
}

/**
 * A reading whose whole page's words show a language that `covered` says its engine did not read in is read once
 * more with that language's model (plus English); the new reading stays when its quality is at least `keep` times
 * the first's.
 */
async function rereadInOwnLanguage(
  image: Uint8Array,
  page: number,
  read: { engine: OcrEngine; first: OcrPage },
  covered: (langs: readonly string[]) => boolean,
  keep: number,
  engineFor: (langs: readonly string[]) => Promise<OcrEngine>,
): Promise<{ engine: OcrEngine; first: OcrPage }> {
  const decided = pageLanguages(read.first);
  if (decided === DEFAULT_OCR_LANGS || covered(decided)) return read;
  const engine = await engineFor(decided);
  const again = await engine.recognize(image, page);
  return quality(again) >= keep * quality(read.first) ? { engine, first: again } : read;
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/gu;

const KANA = /[\u3040-\u30ff\uff66-\uff9f]/u;

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/gu;

/** An English probe that is neither confident nor shows any language's words: the page may be in another script. */
function unreadProbe(probe: OcrPage): boolean {
  return probe.confidence < 70 && languageEvidence(foldAligned(probe.words.map((w) => w.text).join(' '))).hits < 2;
}

/**
 * The English probe cannot read Japanese or Chinese: kana and Han characters come out as low-confidence noise with no
 * language's words. Such a probe band is read once more by the Japanese model (it knows the Han characters too); when
 * that finds them read with confidence, the page is read in Japanese (plus English for Latin names and codes; Chinese
 * pages are told apart after that reading, see chineseReading). Null otherwise, and for every page whose English probe
 * is confident or shows a language, so Latin pages never pay for these models.
 */
export async function cjkEngine(
  probe: OcrPage,
  bands: () => Promise<Uint8Array[]>,
  page: number,
  engineFor: (langs: readonly string[]) => Promise<OcrEngine> = sharedOcrEngine,
): Promise<OcrEngine | null> {
  if (!unreadProbe(probe)) return null;
  // The densest band, then the top of the page: a fapiao's densest band is its cipher of digits, its title is on top.
  const jpnEngine = await engineFor(['jpn']);
  const all = await bands();
  let seen = 0;
  for (const band of all) {
    const jpn = await jpnEngine.recognize(band, page);
    const sure = jpn.words.filter((w) => w.confidence > 60).map((w) => w.text);
    const kanji = sure.reduce((n, t) => n + (t.match(CJK)?.length ?? 0), 0);
    // Kana alone is what the model makes of a photo's specks and strokes ("で と ご る キー ジオ" off a Polish
    // receipt on a dark table); a Japanese band has Han characters among them (合計, 税, 円).
    const han = sure.reduce((n, t) => n + (t.match(HAN)?.length ?? 0), 0);
    if (kanji >= 6 && han >= 3) return engineFor(['jpn', 'eng']);
    seen += jpn.words.reduce((n, w) => n + (w.text.match(CJK)?.length ?? 0), 0);
  }
  // Latin print gives the Japanese model Latin letters; only where it saw Han characters at all (however unsure) is
  // the Chinese model loaded, so a Latin receipt never pays for it (memory: each model is a worker of its own).
  if (seen < 3) return null;
  // The Japanese model reads simplified Chinese poorly; the Chinese one, on the top band, tells a Chinese title
  // ("增值税电子普通发票") from the odd Han character it makes of Latin print: most letters read with confidence Han.
  const zh = await (await engineFor(['chi_sim'])).recognize(all.at(-1)!, page);
  const sure = zh.words.filter((w) => w.confidence > 85).map((w) => w.text);
  const han = sure.join('').match(CJK)?.length ?? 0;
  const latin = sure.join('').match(/[A-Za-z]/g)?.length ?? 0;
  return han >= 4 && han >= latin ? engineFor(['chi_sim', 'eng']) : null;
}

const CYRILLIC = /[\u0400-\u04ff]/gu;

/** Cyrillic letters with no Latin look-alike the Ukrainian model makes of Latin print (not г, п, и, і, є, в, к, з …). */
const CYRILLIC_ONLY = /[БбДдЖжЛлФфЦцЧчШшЩщЪъЫыЬьЭэЮюЯяҐґ]/gu;

/** The models a Cyrillic page is read with (see OCR_LANGS), English for the Latin names and codes among it. */
export const CYRILLIC_OCR_LANGS = ['ukr', 'bel', 'eng'];

/**
 * The English probe reads Cyrillic print as low-confidence Latin noise ("saUABETUME BL UN IA SA" for a Belarusian
 * receipt's header). Such a probe band (after the CJK check found nothing) is read once more by the Ukrainian model:
 * when enough of the letters it reads with confidence are ones Latin print never turns into, the page is read with the
 * Cyrillic models. Null otherwise, and for every page whose English probe is confident or shows a language.
 */
export async function cyrillicEngine(
  probe: OcrPage,
  bands: () => Promise<Uint8Array[]>,
  page: number,
  engineFor: (langs: readonly string[]) => Promise<OcrEngine> = sharedOcrEngine,
): Promise<OcrEngine | null> {
  if (!unreadProbe(probe)) return null;
  const ukr = await engineFor(['ukr']);
  for (const band of await bands()) {
    // A run of one letter is a rule or a row of stars ("********" reads "жжжжжжжж"): it counts once.
    const sure = (await ukr.recognize(band, page)).words
      .filter((w) => w.confidence > 60)
      .map((w) => w.text)
      .join('')
      .replace(/(\p{L})\1+/gu, '$1');
    // The Ukrainian model reads Latin print as Cyrillic look-alikes ("ВІО НОМІС КІМОЕК", "Кгбпипо Ргетіцт"), so only
    // letters Latin print never turns into count: Л, Ч, Я, Ь, Ш, Д, Б …, as in "молочная", "ЛЬВІВСЬКА", "Наличние".
    const cyrillic = sure.match(CYRILLIC)?.length ?? 0;
    const distinct = sure.match(CYRILLIC_ONLY)?.length ?? 0;
    if (distinct >= 5 && distinct >= 0.15 * cyrillic) return engineFor(CYRILLIC_OCR_LANGS);
  }
  return null;
}

/**
 * A page read in Japanese that shows Han characters but not one kana is Chinese (a probe band is too small to tell:
 * a receipt's totals are all Han): it is read again with the Chinese model. Japanese pages keep their reading.
 */
export async function chineseReading(
  page: OcrPage,
  read: (engine: OcrEngine) => Promise<OcrPage>,
  engineFor: (langs: readonly string[]) => Promise<OcrEngine> = sharedOcrEngine,
): Promise<{ reading: OcrPage; engine: OcrEngine } | null> {
  const text = page.words.map((w) => w.text).join('');
  if ((text.match(CJK)?.length ?? 0) < 10 || KANA.test(text)) return null;
  const engine = await engineFor(['chi_sim', 'eng']);
  return { reading: await read(engine), engine };
}

export async function ocrPage(
  input: Canvas,
  page: number,
  options: ExtractOptions,
  undecided: UndecidedLanguage = 'all-languages',
): Promise<{ words: Word[]; height: number; confidence: number; rotated: number }> {
  // A caller's engine or languages are used as given; otherwise a fast English engine probes the page and the full
  // reading uses the page's own language (see pageLanguages).
  // Nothing to read: skip the models (an empty page would be read by all seven languages for lack of evidence).
  if (await looksBlank(input)) return { words: [], height: input.height, confidence: 0, rotated: 0 };
  const { evenOutCanvas, grayThumbnail, unevenness } = await import('./page.detect');
  // Tesseract binarises a page with one threshold: a shadow or a dark desk around a receipt turns part of the page
  // black or the faint print white. Uneven pages are read with their light evened out (paper made white).
  let canvas = input;
  if (unevenness((await grayThumbnail(input, 600)).gray) > UNEVEN_LIGHT) canvas = await evenOutCanvas(input);
  const fixed = options.ocrEngine ?? (options.ocrLanguages ? await sharedOcrEngine(options.ocrLanguages) : null);
  const probeEngine = fixed ?? (await sharedOcrEngine(['eng']));
  // Sideways pages are found from the ink profile (cheap) and turned before OCR; an upside-down page reads as
  // low-confidence noise, so a weak first reading is tried again turned by 180°.
  let start = (await looksSideways(canvas)) ? 1 : 0;
  // Upside-down probe: reading a small, dense band at low resolution costs ~0.2 s, while a full pass over an
  // upside-down page costs several seconds of noise.
  const probeBand = async (t: number) => {
    const small = await toOcrImage(canvas, t, 1400);
    const band = densestBand(small, 0.22);
    return cropPgmRows(small, band.top, band.height).bytes;
  };
  const probe = async (t: number) => probeEngine.recognize(await probeBand(t), page);
  let p0 = await probe(start);
  if (verticalShare(p0) > 0.5) {
    start += 1;
    p0 = await probe(start);
  }
  if (p0.confidence < 75) {
    const p2 = await probe(start + 2);
    if (quality(p2) > quality(p0) * 1.15) start += 2;
  }
  let img0 = await toOcrImage(canvas, start);
  // The bands the script checks read (the densest and the top), rendered once for both of them.
  let bands: Promise<Uint8Array[]> | undefined;
  const scriptBands = () => {
    bands ??= (async () => {
      const small = await toOcrImage(canvas, start, 1400);
      return [await probeBand(start), cropPgmRows(small, 0, Math.round(0.2 * small.height)).bytes];
    })();
    return bands;
  };
  const cjk = fixed ? null : await cjkEngine(p0, scriptBands, page);
  const cyrillic = fixed || cjk ? null : await cyrillicEngine(p0, scriptBands, page);
  const chosen = fixed ?? cjk ?? cyrillic;
  const { engine: firstEngine, first: firstReading } = await readInPageLanguage(
    img0.bytes,
    page,
    p0,
    chosen,
    probeEngine,
    undecided,
  );
  let first = firstReading;
  let engine = firstEngine;
  if (cjk) {
    const zh = await chineseReading(first, (e) => e.recognize(img0.bytes, page));
    if (zh) [first, engine] = [zh.reading, zh.engine];
  }
  // A weak reading of an even page (faint thermal print on a grey scan reads as nothing at all) is tried once more
  // with the light evened out; the better of the two is kept.
  if (canvas === input && weakReading(first)) {
    const flat = await evenOutCanvas(input);
    const img = await toOcrImage(flat, start);
    const r = await engine.recognize(img.bytes, page);
    if (quality(r) > quality(first)) {
      first = r;
      img0 = img;
      canvas = flat;
    }
  }
  let best = first;
  let height = img0.height;
  let turns = start;
  const vertical = verticalShare(first);
  const tries = vertical > 0.5 ? [start + 1, start + 3] : weakReading(first) ? [start + 2] : [];
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
