import { DEV_LAYOUTS, type GeneratedStatement, generateStatement, type StatementLayout } from './statement.generator';
import type { GenLang } from './vocabulary';

/**
 * The generated statement families of statement.eval.ts (text PDFs and scans, dev and held out), apart from it so
 * the scan-rendering child (statement.scans.ts) and scan-lines.ts can build them without loading the evaluation.
 */

export const LANGS: GenLang[] = ['en', 'de', 'fr', 'it', 'es', 'ro', 'nl'];

/** How a scan family is rendered (statement.scans.ts). */
export type ScanVariant = 'standard' | 'rough';

export interface StatementFamily {
  items: GeneratedStatement[];
  scan: boolean;
  heldOut: boolean;
  scanVariant?: ScanVariant;
}

/** The generated families: seeds differ per set, so no file is in two sets. */
export interface StatementFamily {
  items: GeneratedStatement[];
  scan: boolean;
  heldOut: boolean;
  scanVariant?: ScanVariant;
}

export function statementFamilies(): Record<string, StatementFamily> {
  const dev: GeneratedStatement[] = [];
  for (const [li, layout] of DEV_LAYOUTS.entries()) {
    for (const [gi, lang] of LANGS.entries()) {
      for (let k = 0; k < 2; k += 1) dev.push(generateStatement(1000 + li * 100 + gi * 10 + k, lang, layout));
    }
  }
  const byLayout = (layout: StatementLayout) => dev.filter((g) => g.layout === layout);
  const out: Record<string, StatementFamily> = {};
  for (const layout of DEV_LAYOUTS)
    out[`PDF ${layout} (dev)`] = { items: byLayout(layout), scan: false, heldOut: false };
  out['PDF scans, dev layouts (OCR)'] = {
    items: LANGS.map((lang, i) => generateStatement(5000 + i, lang, DEV_LAYOUTS[i % DEV_LAYOUTS.length]!, 10)),
    scan: true,
    heldOut: false,
  };
  // Dev only: the standard scans leave the OCR rules little to learn from; these add more skew and noise, JPEG and
  // other typefaces (serif, monospace), two per language over the dev layouts.
  out['PDF scans, dev layouts, rough (OCR)'] = {
    items: LANGS.flatMap((lang, i) =>
      [0, 1].map((k) => generateStatement(5200 + i * 10 + k, lang, DEV_LAYOUTS[(2 * i + k) % DEV_LAYOUTS.length]!, 10)),
    ),
    scan: true,
    heldOut: false,
    scanVariant: 'rough',
  };
  out['PDF holdout layout (held out)'] = {
    items: LANGS.flatMap((lang, i) => [0, 1, 2].map((k) => generateStatement(7000 + i * 10 + k, lang, 'holdout'))),
    scan: false,
    heldOut: true,
  };
  // A second held-out family, added after all tuning of the PDF reader and never tuned on.
  out['PDF DR/CR layout (held out, fresh)'] = {
    items: LANGS.flatMap((lang, i) => [0, 1].map((k) => generateStatement(9100 + i * 10 + k, lang, 'holdout-drcr'))),
    scan: false,
    heldOut: true,
  };
  out['PDF DR/CR layout scans (held out, fresh, OCR)'] = {
    items: LANGS.slice(2, 5).map((lang, i) => generateStatement(9500 + i, lang, 'holdout-drcr', 10)),
    scan: true,
    heldOut: true,
  };
  out['PDF holdout layout scans (held out, OCR)'] = {
    items: LANGS.slice(0, 4).map((lang, i) => generateStatement(8000 + i, lang, 'holdout', 10)),
    scan: true,
    heldOut: true,
  };
  return out;
}
