import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIELD_NAMES } from '../src/extraction/extraction.types';
import { extractFile, publicFields, shutdownExtraction } from '../src/extraction/index';
import { buildSetsIsolated } from './build-sets';
import { buildEvalSet, buildFamilies, buildFamilyC, buildPhotos, cacheDir, repoRoot } from './eval.dataset';
import { formatScore, newScore, type SetScore, score, type Truth } from './eval.scoring';
import { loadRealWorld, type RealWorldResult, reportRealWorld } from './real-world.eval';
import { REAL_WORLD_2_LABEL, realWorld2Dir } from './real-world-2.dataset';
import { REAL_WORLD_3_LABEL, realWorld3Dir } from './real-world-3.dataset';
import { runReconcileEval } from './reconcile.eval';
import { runStatementEval } from './statement.eval';

/**
 * `npm run eval`: per-field accuracy and time per file on
 *   (a) the shared datasets (invoices-pdf, einvoices) against their truth files, and
 *   (b) the real-world corpora (eval/real-world: public invoices and receipts, hand-checked truth; e-invoice PDFs read
 *       through their page text only; eval/real-world-2, the sixth fresh sample, and eval/real-world-3 (fresh samples 20 and 21),
 *       each reported as its own block), dev and held-out apart, by kind and language, and
 *   (c) the generated set (text PDFs, scans and phone photos), built once under .tmp/extraction-eval.
 * Flags: --verbose (list every wrong field), --only <set-name-substrings,comma-separated>, --no-ocr,
 *   --corpus <dir>: also score every Factur-X / ZUGFeRD PDF under <dir> (any public corpus you have), read through its
 *   visible text only, against the XML embedded in it; PDFs without readable embedded XML are skipped,
 *   --ocr-langs <eng+deu+…>: tesseract languages for the OCR sets (default: the seven label languages),
 *   --no-straighten: read photos as they are (no sheet detection): the baseline for ocr/page.detect.ts,
 *   --timeout <s>: time limit per document (default the sandbox's 60 s; a busy machine can need more for OCR),
 *   --kind <image,photo,…>: real-world documents of these kinds only, --split <dev|held-out>: one split only (OCR
 *   work on a loaded machine: e.g. `--only real-world --kind image,photo --split dev`); `--only real-world` runs
 *   all three real-world corpora, `--only real-world-2` the second alone, `--only real-world-3` the third alone;
 *   --real-dir <dir>: also score a folder laid out like eval/real-world (files/ and truth.json in its schema), for a
 *   fresh sample kept outside the repository; `--only real-dir` scores that folder alone.
 */

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const ocr = !args.includes('--no-ocr');
const straighten = !args.includes('--no-straighten');
const timeoutS = args.includes('--timeout') ? Number(args[args.indexOf('--timeout') + 1]) : undefined;
const limits = timeoutS ? { limits: { timeoutMs: timeoutS * 1000 } } : {};
const corpus = args.includes('--corpus') ? args[args.indexOf('--corpus') + 1] : undefined;
const kinds = args.includes('--kind') ? args[args.indexOf('--kind') + 1]!.split(',') : undefined;
const split = args.includes('--split') ? args[args.indexOf('--split') + 1] : undefined;
const realDir = args.includes('--real-dir') ? args[args.indexOf('--real-dir') + 1] : undefined;
const ocrLanguages = args.includes('--ocr-langs') ? args[args.indexOf('--ocr-langs') + 1]!.split('+') : undefined;

async function runSet(
  name: string,
  items: Array<{ file: string; truth: Truth }>,
  strictVendor: boolean,
  einvoice = true,
): Promise<SetScore> {
  const s = newScore(name, strictVendor);
  if (only && !only.split(',').some((o) => name.includes(o))) return s;
  for (const it of items) {
    const t0 = performance.now();
    const r = await extractFile(it.file, {
      ocr,
      einvoice,
      straighten,
      ...limits,
      ...(ocrLanguages ? { ocrLanguages } : {}),
    });
    const ms = performance.now() - t0;
    score(s, path.basename(it.file), publicFields(r), it.truth, ms, r.errors.length > 0);
  }
  console.log(formatScore(s));
  if (verbose && !name.startsWith('family B'))
    for (const f of s.failures)
      console.log(`    ${f.file}  ${f.field}: got ${JSON.stringify(f.got)} want ${JSON.stringify(f.want)}`);
  return s;
}

function truthSet(dir: string, filter: (file: string) => boolean) {
  const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, Truth>;
  return Object.entries(truth)
    .filter(([f]) => filter(f))
    .map(([f, t]) => ({
      file: path.join(dir, f),
      truth: {
        vendor: t.vendor,
        amount: t.amount,
        currency: t.currency,
        invoice_date: t.invoice_date,
        invoice_number: t.invoice_number,
      },
    }));
}

/** Every PDF under `dir` whose embedded e-invoice XML gives all five fields: that XML is the truth for its page text. */
async function corpusSet(dir: string) {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort();
  const items: Array<{ file: string; truth: Truth }> = [];
  for (const f of files) {
    const file = path.join(dir, f);
    const r = await extractFile(file, { ocr: false, einvoice: true });
    if (r.meta.kind !== 'einvoice') continue;
    const truth = publicFields(r);
    if (Object.values(truth).some((v) => v === null)) continue;
    items.push({ file, truth });
  }
  console.log(`corpus ${dir}: ${items.length} of ${files.length} PDFs carry a complete embedded e-invoice`);
  return items;
}

const datasets = path.resolve(repoRoot(), '..', 'shared', 'datasets');
const t0 = performance.now();
const scores: SetScore[] = [];
if (existsSync(datasets)) {
  const pdfDir = path.join(datasets, 'invoices-pdf');
  const eDir = path.join(datasets, 'einvoices');
  // Warm-up: the first file pays for loading pdf.js and starting its worker; keep it out of every set's per-file time.
  await extractFile(path.join(pdfDir, 'coolblue1.pdf'));
  // The same PDFs read through their visible text only (embedded XML ignored): real layouts the rules never saw.
  scores.push(
    await runSet(
      'einvoice PDFs, text only',
      truthSet(eDir, (f) => f.endsWith('.pdf')),
      false,
      false,
    ),
  );
  scores.push(
    await runSet(
      'invoices-pdf (text)',
      truthSet(pdfDir, (f) => !f.endsWith('.png')),
      false,
    ),
  );
  scores.push(
    await runSet(
      'invoices-pdf (png/OCR)',
      truthSet(pdfDir, (f) => f.endsWith('.png')),
      false,
    ),
  );
  scores.push(
    await runSet(
      'einvoices',
      truthSet(eDir, () => true),
      true,
    ),
  );
}
// Real-world corpora: their held-out parts are scored here and never tuned on.
async function runRealWorld(entries: ReturnType<typeof loadRealWorld>): Promise<RealWorldResult[]> {
  const results: RealWorldResult[] = [];
  for (const { file, name, item } of entries) {
    if (kinds && !kinds.includes(item.kind)) continue;
    if (split && item.split !== split) continue;
    const t1 = performance.now();
    const r = await extractFile(file, {
      ocr,
      einvoice: false,
      straighten,
      ...limits,
      ...(ocrLanguages ? { ocrLanguages } : {}),
    });
    const error = r.errors[0]?.code;
    const confidence = Object.fromEntries(FIELD_NAMES.map((f) => [f, r.fields[f]?.confidence ?? null]));
    results.push({
      name,
      item,
      got: publicFields(r),
      confidence,
      ms: performance.now() - t1,
      ...(error ? { error } : {}),
    });
  }
  return results;
}
// `--only real-world` runs all three corpora, `--only real-world-2` the second alone, `--only real-world-3` the third.
if (!only || only.split(',').some((o) => 'real-world'.includes(o)))
  for (const line of reportRealWorld(await runRealWorld(loadRealWorld()), verbose)) console.log(line);
if (!only || only.split(',').some((o) => 'real-world-2'.includes(o))) {
  // The sixth fresh sample (eval/real-world-2): its own block, its own held-out rule (the file's SHA-256).
  console.log(`${REAL_WORLD_2_LABEL}, eval/real-world-2:`);
  for (const line of reportRealWorld(await runRealWorld(loadRealWorld(realWorld2Dir)), verbose, 'real-world-2'))
    console.log(line);
}
if (!only || only.split(',').some((o) => 'real-world-3'.includes(o))) {
  // Fresh samples 20 and 21 (eval/real-world-3): its own block, the held-out rule of eval/real-world-2 (SHA-256).
  console.log(`${REAL_WORLD_3_LABEL}, eval/real-world-3:`);
  for (const line of reportRealWorld(await runRealWorld(loadRealWorld(realWorld3Dir)), verbose, 'real-world-3'))
    console.log(line);
}
if (realDir) {
  console.log(`real documents in ${realDir}:`);
  for (const line of reportRealWorld(await runRealWorld(loadRealWorld(realDir)), verbose, 'real-dir'))
    console.log(line);
}
// Document types: generated order confirmations, delivery notes and reminders beside invoices (text PDFs).
if (!only || only.split(',').some((o) => 'document-types'.includes(o))) {
  const { runDocumentTypeEval, reportDocumentTypes } = await import('./document-type.eval');
  for (const line of reportDocumentTypes(await runDocumentTypeEval(), verbose)) console.log(line);
}
if (corpus) scores.push(await runSet('corpus PDFs (page text)', await corpusSet(corpus), false, false));
if (!existsSync(datasets)) {
  console.log(`(shared datasets not found at ${datasets}; skipped)`);
}
// Rendered in a child process (native canvas code); afterwards the builders below only read the cached manifests.
if (!buildSetsIsolated()) {
  console.log('generated sets could not be built; their scores are left out');
  await shutdownExtraction();
  process.exit(1);
}
const manifest = await buildEvalSet();
const dir = cacheDir();
const abs = (items: typeof manifest.textPdfs) => items.map((i) => ({ ...i, file: path.join(dir, i.file) }));
const textScore = await runSet('generated text PDFs', abs(manifest.textPdfs), true);
scores.push(textScore);
for (const lang of ['en', 'de', 'fr', 'it', 'es', 'ro', 'nl']) {
  if (verbose || args.includes('--by-lang')) {
    const sub = manifest.textPdfs.filter((i) => i.lang === lang);
    await runSet(`  text ${lang}`, abs(sub), true);
  }
}
scores.push(await runSet('held-out text PDFs', abs(manifest.holdout), true));
const families = await buildFamilies();
scores.push(await runSet('family A (dev: tables, footers)', abs(families.familyA), true));
scores.push(
  await runSet('family C (dev: header rows, issuer right/footer, credit notes)', abs(await buildFamilyC()), true),
);
// Held out: read its score only; never look at its single failures while working on the rules.
scores.push(await runSet('family B (held out)', abs(families.familyB), true));
scores.push(await runSet('generated scans (OCR)', abs(manifest.scans), true));
scores.push(await runSet('generated scanned PDFs (OCR)', abs(manifest.scannedPdfs), true));
scores.push(await runSet('generated photos (OCR)', abs(await buildPhotos()), true));
await shutdownExtraction();

const speed = (label: string, sets: SetScore[]) => {
  const files = sets.reduce((n, s) => n + s.files, 0);
  const ms = sets.reduce((n, s) => n + s.totalMs, 0);
  if (files)
    console.log(
      `${label}: ${(ms / files).toFixed(1)} ms/file = ${((1000 * files) / ms).toFixed(1)} files/s on one core`,
    );
};
const ocrSets = scores.filter((s) => /OCR/.test(s.name) && s.files);
const ocrFiles = ocrSets.reduce((n, s) => n + s.files, 0);
const ocrMs = ocrSets.reduce((n, s) => n + s.totalMs, 0);
console.log('');
speed(
  'text PDFs, real (shared datasets)',
  scores.filter((s) => /invoices-pdf \(text\)|text only/.test(s.name) && s.files),
);
speed(
  'text PDFs, corpus (--corpus)',
  scores.filter((s) => s.name.startsWith('corpus') && s.files),
);
speed(
  'text PDFs, generated',
  scores.filter((s) => /generated text|held-out|family/.test(s.name) && s.files),
);
speed(
  'e-invoices (XML and Factur-X PDFs)',
  scores.filter((s) => s.name === 'einvoices' && s.files),
);
if (ocrFiles) console.log(`OCR: ${(ocrMs / ocrFiles / 1000).toFixed(2)} s/page (one page per file)`);
// Reconciliation: generated statements, the dev family and the held-out one reported apart.
if (!only || only.split(',').some((o) => 'reconciliation'.includes(o))) {
  console.log('');
  runReconcileEval();
}
// Statements: generated PDF families (text and scans, the 'holdout' layout apart) and the shared bank datasets.
if (!only || only.split(',').some((o) => 'statements'.includes(o))) {
  console.log('');
  // Read in the document sandbox like the server does: a crash costs one file and counts as its error.
  await runStatementEval({ verbose, ocr, ...(timeoutS ? { timeoutMs: timeoutS * 1000 } : {}) });
  await shutdownExtraction();
}
console.log(`eval took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
