import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Truth } from './eval.scoring';
import { type GeneratedInvoice, generateInvoice, mulberry32 } from './invoice.generator';
import { generateHoldoutInvoice } from './invoice.holdout';
import { renderPdf, renderScan } from './invoice.renderers';
import type { GenLang } from './vocabulary';

/**
 * Builds the generated evaluation set once (deterministic: fixed seeds) under a git-ignored cache folder:
 * text PDFs (all layouts, languages, number styles, currencies, multi-page) and raster scans (PNG/JPEG, 200–300 dpi,
 * skew, upside-down and sideways pages, speckle noise, blur). A manifest holds the truth of every file.
 */

export const GENERATOR_VERSION = 7;
const LANGS: GenLang[] = ['en', 'de', 'fr', 'it', 'es', 'ro', 'nl'];

export interface EvalItem {
  file: string;
  truth: Truth;
  lang: GenLang;
  layout: string;
  pages: number;
  style: string;
}

export interface EvalManifest {
  version: number;
  textPdfs: EvalItem[];
  /** Image-only PDFs (one scan per language wrapped in a PDF): the render-then-OCR path. */
  scannedPdfs: EvalItem[];
  /** The held-out family (invoice.holdout.ts): layouts and wordings the rules were not developed against. */
  holdout: EvalItem[];
  scans: EvalItem[];
}

export function repoRoot(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  while (dir !== '/' && !existsSync(path.join(dir, 'package-lock.json'))) dir = path.dirname(dir);
  return dir;
}

export function cacheDir(): string {
  return path.join(repoRoot(), '.tmp', 'extraction-eval');
}

function item(inv: GeneratedInvoice, file: string): EvalItem {
  return { file, truth: inv.truth, lang: inv.lang, layout: inv.layout, pages: inv.pages, style: inv.style };
}

export async function buildEvalSet(
  options: { perLangText?: number; perLangScan?: number } = {},
): Promise<EvalManifest> {
  const dir = cacheDir();
  const manifestPath = path.join(dir, 'manifest.json');
  const perLangText = options.perLangText ?? 30;
  const perLangScan = options.perLangScan ?? 5;
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as EvalManifest & { sizes?: string };
    if (m.version === GENERATOR_VERSION && m.sizes === `${perLangText}/${perLangScan}`) return m;
  }
  mkdirSync(path.join(dir, 'text'), { recursive: true });
  mkdirSync(path.join(dir, 'scan'), { recursive: true });
  const textPdfs: EvalItem[] = [];
  const holdout: EvalItem[] = [];
  const scans: EvalItem[] = [];
  const scannedPdfs: EvalItem[] = [];
  mkdirSync(path.join(dir, 'holdout'), { recursive: true });
  for (const [li, lang] of LANGS.entries()) {
    for (let i = 0; i < perLangText; i++) {
      const inv = generateInvoice(100_000 + li * 1000 + i, lang);
      const file = path.join('text', `${inv.id}.pdf`);
      writeFileSync(path.join(dir, file), await renderPdf(inv));
      textPdfs.push(item(inv, file));
    }
    for (let i = 0; i < perLangText; i++) {
      const inv = generateHoldoutInvoice(700_000 + li * 1000 + i, lang);
      const file = path.join('holdout', `${inv.id}.pdf`);
      writeFileSync(path.join(dir, file), await renderPdf(inv));
      holdout.push(item(inv, file));
    }
    let seed = 500_000 + li * 1000;
    for (let i = 0; i < perLangScan; i++) {
      let inv = generateInvoice(seed++, lang);
      while (inv.pages > 1) inv = generateInvoice(seed++, lang);
      const r = mulberry32(seed * 7);
      const v = r();
      const format = r() < 0.5 ? 'jpeg' : 'png';
      const file = path.join('scan', `${inv.id}.${format === 'jpeg' ? 'jpg' : 'png'}`);
      const bytes = await renderScan(inv, {
        dpi: 200 + Math.floor(r() * 3) * 50,
        skewDeg: (r() - 0.5) * 5,
        quarterTurns: v < 0.12 ? 2 : v < 0.2 ? 1 : 0,
        noise: 0.001 + r() * 0.006,
        blur: r() < 0.3,
        format,
        seed,
      });
      writeFileSync(path.join(dir, file), bytes);
      scans.push(item(inv, file));
      if (i === 0) {
        const pdfFile = path.join('scan', `${inv.id}.scan.pdf`);
        writeFileSync(path.join(dir, pdfFile), await imageToPdf(bytes, format));
        scannedPdfs.push(item(inv, pdfFile));
      }
    }
  }
  const manifest = {
    version: GENERATOR_VERSION,
    sizes: `${perLangText}/${perLangScan}`,
    textPdfs,
    holdout,
    scans,
    scannedPdfs,
  };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  return manifest;
}

/** Wraps a scan into an A4 PDF page with no text layer. */
export async function imageToPdf(image: Uint8Array, format: 'png' | 'jpeg'): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const img = format === 'jpeg' ? await doc.embedJpg(image) : await doc.embedPng(image);
  const landscape = img.width > img.height;
  const [w, h] = landscape ? [842, 595] : [595, 842];
  doc.addPage([w, h]).drawImage(img, { x: 0, y: 0, width: w, height: h });
  return doc.save();
}

export const FAMILIES_VERSION = 2;

export interface FamilyManifest {
  version: number;
  /** Family A (invoice.family-a.ts): the development set for rule work. */
  familyA: EvalItem[];
  /** Family B (invoice.family-b.ts): held out; look at its score only, never at its single failures. */
  familyB: EvalItem[];
}

/** Builds families A and B (18 files per language each, fixed seeds) under .tmp/extraction-eval/families. */
export async function buildFamilies(perLang = 18): Promise<FamilyManifest> {
  const { generateFamilyA } = await import('./invoice.family-a');
  const { generateFamilyB } = await import('./invoice.family-b');
  const dir = path.join(cacheDir(), 'families');
  const manifestPath = path.join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as FamilyManifest & { perLang?: number };
    if (m.version === FAMILIES_VERSION && m.perLang === perLang) return m;
  }
  mkdirSync(path.join(dir, 'a'), { recursive: true });
  mkdirSync(path.join(dir, 'b'), { recursive: true });
  const familyA: EvalItem[] = [];
  const familyB: EvalItem[] = [];
  for (const [li, lang] of LANGS.entries()) {
    for (let i = 0; i < perLang; i++) {
      const a = generateFamilyA(310_000 + li * 1000 + i, lang);
      const fa = path.join('families', 'a', `${a.id}.pdf`);
      writeFileSync(path.join(cacheDir(), fa), await renderPdf(a));
      familyA.push(item(a, fa));
      const b = generateFamilyB(920_000 + li * 1000 + i, lang);
      const fb = path.join('families', 'b', `${b.id}.pdf`);
      writeFileSync(path.join(cacheDir(), fb), await renderPdf(b));
      familyB.push(item(b, fb));
    }
  }
  const manifest = { version: FAMILIES_VERSION, perLang, familyA, familyB };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  return manifest;
}

export const FAMILY_C_VERSION = 6;

/** Builds family C (development set: header-row and stacked meta fields, issuer at the right or in the footer,
 * credit notes; invoice.family-c.ts) under .tmp/extraction-eval/families/c, 18 files per language. */
export async function buildFamilyC(perLang = 18): Promise<EvalItem[]> {
  const { generateFamilyC } = await import('./invoice.family-c');
  const dir = path.join(cacheDir(), 'families', 'c');
  const manifestPath = path.join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: number; perLang: number; items: EvalItem[] };
    if (m.version === FAMILY_C_VERSION && m.perLang === perLang) return m.items;
  }
  mkdirSync(dir, { recursive: true });
  const items: EvalItem[] = [];
  for (const [li, lang] of LANGS.entries()) {
    for (let i = 0; i < perLang; i++) {
      const c = generateFamilyC(640_000 + li * 1000 + i, lang);
      const file = path.join('families', 'c', `${c.id}.pdf`);
      writeFileSync(path.join(cacheDir(), file), await renderPdf(c));
      items.push(item(c, file));
    }
  }
  writeFileSync(manifestPath, JSON.stringify({ version: FAMILY_C_VERSION, perLang, items }, null, 1));
  return items;
}

export const PHOTOS_VERSION = 1;

/**
 * Generated phone photos (invoice.renderers.ts renderPhoto: perspective, background, shadow, noise, slight blur) of
 * one-page invoices, `perLang` per language, fixed seeds, under .tmp/extraction-eval/photos. Kept apart from the scans
 * so the scans stay byte-identical.
 */
export async function buildPhotos(perLang = 4): Promise<EvalItem[]> {
  const { renderPhoto } = await import('./invoice.renderers');
  const dir = path.join(cacheDir(), 'photos');
  const manifestPath = path.join(dir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: number; perLang: number; items: EvalItem[] };
    if (m.version === PHOTOS_VERSION && m.perLang === perLang) return m.items;
  }
  mkdirSync(dir, { recursive: true });
  const items: EvalItem[] = [];
  const backgrounds = ['desk', 'wood', 'busy'] as const;
  for (const [li, lang] of LANGS.entries()) {
    let seed = 860_000 + li * 1000;
    for (let i = 0; i < perLang; i++) {
      let inv = generateInvoice(seed++, lang);
      while (inv.pages > 1) inv = generateInvoice(seed++, lang);
      const file = path.join('photos', `${inv.id}.jpg`);
      const background = backgrounds[(li + i) % backgrounds.length]!;
      writeFileSync(path.join(dir, `${inv.id}.jpg`), await renderPhoto(inv, { seed: seed * 13, background }));
      items.push(item(inv, file));
    }
  }
  writeFileSync(manifestPath, JSON.stringify({ version: PHOTOS_VERSION, perLang, items }, null, 1));
  return items;
}
