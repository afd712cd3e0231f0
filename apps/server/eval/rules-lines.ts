import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extractInvoiceFields } from '../src/extraction/extraction.service';
import { FIELD_NAMES, type FieldName, type Line } from '../src/extraction/extraction.types';
import { terminateSharedOcrEngine } from '../src/extraction/ocr/ocr.pipeline';
import { terminatePdfWorker } from '../src/extraction/pdf/pdf.isolate';
import { extractFieldsFromLines } from '../src/extraction/rules/fields.rules';
import { minorToNumber } from '../src/extraction/rules/money.parser';
import { buildEvalSet, buildFamilies, buildFamilyC, cacheDir, repoRoot } from './eval.dataset';
import { fieldCorrect, type Truth } from './eval.scoring';
import { loadRealWorld } from './real-world.eval';
import { realWorld2Dir } from './real-world-2.dataset';

/**
 * Development aid for the field rules: `--cache` reads every document of the tuning sets once (PDF text or OCR, the
 * slow part) and stores the lines the rules see under .tmp/rules-lines; without it, the rules alone are run over the
 * stored lines in about a second, scored per set. The real-world corpus' held-out part is never cached here (read it
 * through `npm run eval` only); the generated held-out sets are scored as numbers only.
 *   npx tsx apps/server/eval/rules-lines.ts --cache [--ocr]     (--ocr adds the OCR sets)
 *   npx tsx apps/server/eval/rules-lines.ts --cache --ocr --only DIRNAME --real-dir DIR   (a fresh sample's dev half)
 *   npx tsx apps/server/eval/rules-lines.ts [--verbose] [--set <substring>]
 * The full `npm run eval` remains the measure; this is for fast iteration.
 */

export interface CachedDoc {
  set: string;
  name: string;
  truth: Truth;
  unscored?: FieldName[];
  kind?: string;
  /** Sets whose single misses must not be looked at. */
  heldOut?: boolean;
  lines: Line[];
}

export const linesCacheDir = () => path.join(repoRoot(), '.tmp', 'rules-lines');

async function readLines(file: string, ocr: boolean): Promise<Line[]> {
  let lines: Line[] = [];
  const bytes = new Uint8Array(readFileSync(file));
  await extractInvoiceFields({ bytes, filename: path.basename(file) }, { ocr, einvoice: false }, (l) => {
    lines = l;
  });
  return lines;
}

async function cache(withOcr: boolean, only?: string) {
  const out = linesCacheDir();
  mkdirSync(out, { recursive: true });
  const sets: Array<{
    set: string;
    heldOut?: boolean;
    ocr?: boolean;
    items: Array<Omit<CachedDoc, 'lines' | 'set'> & { file: string }>;
  }> = [];
  const rw = loadRealWorld().filter((r) => r.item.split === 'dev');
  sets.push({
    set: 'real-world dev text',
    items: rw
      .filter((r) => r.item.kind === 'text-pdf')
      .map((r) => ({ file: r.file, name: r.name, truth: r.item, unscored: r.item.unscored, kind: r.item.kind })),
  });
  sets.push({
    set: 'real-world dev ocr',
    ocr: true,
    items: rw
      .filter((r) => r.item.kind !== 'text-pdf')
      .map((r) => ({ file: r.file, name: r.name, truth: r.item, unscored: r.item.unscored, kind: r.item.kind })),
  });
  // A fresh sample's dev half (`--real-dir DIR`, laid out like eval/real-world) beside the corpora.
  const realDir = process.argv.includes('--real-dir')
    ? process.argv[process.argv.indexOf('--real-dir') + 1]
    : undefined;
  const second = loadRealWorld(realDir ?? realWorld2Dir).filter((r) => r.item.split === 'dev');
  const secondName = realDir ? path.basename(realDir) : 'real-world-2';
  for (const text of [true, false])
    sets.push({
      set: `${secondName} dev ${text ? 'text' : 'ocr'}`,
      ocr: !text,
      items: second
        .filter((r) => (r.item.kind === 'text-pdf') === text)
        .map((r) => ({ file: r.file, name: r.name, truth: r.item, unscored: r.item.unscored, kind: r.item.kind })),
    });
  const datasets = path.resolve(repoRoot(), '..', 'shared', 'datasets');
  const truthSet = (dir: string, filter: (f: string) => boolean) =>
    Object.entries(JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, Truth>)
      .filter(([f]) => filter(f))
      .map(([f, t]) => ({ file: path.join(dir, f), name: f, truth: t }));
  if (existsSync(datasets)) {
    sets.push({
      set: 'einvoice PDFs, text only',
      items: truthSet(path.join(datasets, 'einvoices'), (f) => f.endsWith('.pdf')),
    });
    sets.push({
      set: 'invoices-pdf (text)',
      items: truthSet(path.join(datasets, 'invoices-pdf'), (f) => !f.endsWith('.png')),
    });
    sets.push({
      set: 'invoices-pdf (png/OCR)',
      ocr: true,
      items: truthSet(path.join(datasets, 'invoices-pdf'), (f) => f.endsWith('.png')),
    });
  }
  const generated = !only || 'generated family held-out'.split(' ').some((w) => only.includes(w));
  const manifest = generated ? await buildEvalSet() : { textPdfs: [], holdout: [], scans: [], scannedPdfs: [] };
  const dir = cacheDir();
  const gen = (items: typeof manifest.textPdfs) =>
    items.map((i) => ({ file: path.join(dir, i.file), name: i.file, truth: i.truth }));
  const families = generated ? await buildFamilies() : { familyA: [], familyB: [] };
  sets.push({ set: 'generated text PDFs', items: gen(manifest.textPdfs) });
  sets.push({ set: 'held-out text PDFs', heldOut: true, items: gen(manifest.holdout) });
  sets.push({ set: 'family A', items: gen(families.familyA) });
  sets.push({ set: 'family C', items: gen(generated ? await buildFamilyC() : []) });
  sets.push({ set: 'family B (held out)', heldOut: true, items: gen(families.familyB) });
  sets.push({ set: 'generated scans (OCR)', ocr: true, items: gen(manifest.scans) });
  sets.push({ set: 'generated scanned PDFs (OCR)', ocr: true, items: gen(manifest.scannedPdfs) });
  for (const s of sets) {
    if ((s.ocr && !withOcr) || (only && !only.split(',').some((o) => s.set.includes(o)))) continue;
    const docs: CachedDoc[] = [];
    for (const it of s.items) {
      const { file, ...rest } = it;
      docs.push({ ...rest, set: s.set, heldOut: s.heldOut, lines: await readLines(file, !!s.ocr) });
    }
    writeFileSync(path.join(out, `${s.set.replace(/[^a-z0-9]+/gi, '_')}.json`), JSON.stringify(docs));
    console.log(`${s.set}: ${docs.length} documents cached`);
  }
  await terminatePdfWorker();
  await terminateSharedOcrEngine();
}

export function loadCached(filter?: string): CachedDoc[] {
  const dir = linesCacheDir();
  return readdirSync(dir)
    .filter((f: string) => f.endsWith('.json'))
    .flatMap((f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CachedDoc[])
    .filter((d: CachedDoc) => !filter || d.set.includes(filter));
}

/** The public fields the pipeline would return from these lines (rules only). */
export function fieldsFromLines(lines: Line[]): Truth {
  const r = extractFieldsFromLines(lines);
  return {
    vendor: r.vendor?.value ?? null,
    amount: r.amount ? minorToNumber(r.amount.value.minor, r.amount.value.decimals) : null,
    currency: r.currency?.value ?? null,
    invoice_date: r.invoice_date?.value ?? null,
    invoice_number: r.invoice_number?.value ?? null,
  };
}

function score(verbose: boolean, filter?: string) {
  const docs = loadCached(filter);
  const bySet = new Map<string, CachedDoc[]>();
  for (const d of docs) bySet.set(d.set, [...(bySet.get(d.set) ?? []), d]);
  for (const [set, list] of bySet) {
    const right = Object.fromEntries(FIELD_NAMES.map((f) => [f, 0])) as Record<FieldName, number>;
    const scored = { ...right };
    let all = 0;
    const misses: string[] = [];
    for (const d of list) {
      const got = fieldsFromLines(d.lines);
      let ok = true;
      for (const f of FIELD_NAMES) {
        if (d.unscored?.includes(f)) continue;
        scored[f]++;
        if (fieldCorrect(f, got[f], d.truth[f], !/ dev (?:text|ocr)$/.test(set) && !set.includes('invoice')))
          right[f]++;
        else {
          ok = false;
          misses.push(`    ${d.name}  ${f}: got ${JSON.stringify(got[f])} want ${JSON.stringify(d.truth[f])}`);
        }
      }
      if (ok) all++;
    }
    const pct = (n: number, t: number) => (t ? `${((100 * n) / t).toFixed(1)}%` : '-');
    console.log(
      `${set.padEnd(32)} n=${String(list.length).padEnd(4)} ${FIELD_NAMES.map((f) => `${f} ${pct(right[f], scored[f])}`).join('  ')}  all-5 ${pct(all, list.length)}`,
    );
    if (verbose && !list[0]!.heldOut) for (const m of misses) console.log(m);
  }
}

// Run as a script (not when fit-amount.ts imports the loaders).
if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  if (args.includes('--cache')) await cache(args.includes('--ocr'), only);
  else score(args.includes('--verbose'), args.includes('--set') ? args[args.indexOf('--set') + 1] : undefined);
}
