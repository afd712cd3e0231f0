import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { statementFromLines } from '../src/bank/pdf.table';
import type { Line, Word } from '../src/extraction/extraction.types';
import { buildLines } from '../src/extraction/layout/lines';
import { matchTransactions, type TruthTx } from '../test/bank/bank-datasets';
import { cacheDir } from './eval.dataset';
import { statementFamilies } from './statement.families';
import type { GeneratedStatement } from './statement.generator';
import { scanOf } from './statement.scans';

/**
 * Development aid for scanned statements: OCRs the dev scan families once (in this process, the reader's own path:
 * the scan as a PDF, rendered at 300 dpi, extraction's OCR pipeline, buildLines) and caches their lines, then reads
 * the cached lines with pdf.table.ts and lists every missed or wrong transaction, so table rules can be tried in
 * seconds. Dev families only: it refuses held-out ones.
 *   npx tsx apps/server/eval/scan-lines.ts [--family <substring>] [--ocr] [--lines <id>]
 */
const args = process.argv.slice(2);
const familyArg = args.includes('--family') ? args[args.indexOf('--family') + 1]! : 'scans';
const showLines = args.includes('--lines') ? args[args.indexOf('--lines') + 1]! : undefined;
const dir = path.join(cacheDir(), '..', 'scan-lines');
mkdirSync(dir, { recursive: true });

async function ocrLines(bytes: Uint8Array): Promise<Line[]> {
  const { openPdf, renderPdfPage } = await import('../src/extraction/pdf/pdf.reader');
  const { ocrPage } = await import('../src/extraction/ocr/ocr.pipeline');
  const pdf = await openPdf(bytes, { maxImagePixels: 100_000_000, inflateBudgetBytes: 500_000_000 });
  const words: Word[] = [];
  const heights = new Map<number, number>();
  try {
    const canvas = await renderPdfPage(pdf, 1, 300);
    const r = await ocrPage(canvas, 1, {});
    words.push(...r.words);
    heights.set(1, r.height);
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
  return buildLines(words, heights);
}

const families = Object.entries(statementFamilies()).filter(([name, f]) => f.scan && name.includes(familyArg));
let truth = 0;
let found = 0;
let matched = 0;
for (const [name, f] of families) {
  const before = { truth, found, matched };
  if (f.heldOut) throw new Error(`${name} is held out: never read its single files`);
  for (const [i, g] of f.items.entries()) {
    const file = path.join(dir, `${g.id}.json`);
    if (!existsSync(file)) {
      const t0 = performance.now();
      const lines = await ocrLines(await scanOf(g, i, f.scanVariant));
      writeFileSync(file, JSON.stringify(lines));
      console.log(`  OCR ${g.id}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const lines = JSON.parse(readFileSync(file, 'utf8')) as Line[];
    if (showLines && g.id.includes(showLines))
      for (const l of lines)
        console.log(
          `  y${l.y0.toFixed(0)} s${l.size.toFixed(0)} | ${l.cells.map((c) => `[${c.x0.toFixed(0)}] ${c.text}`).join(' | ')}`,
        );
    report(g, statementFromLines(lines).transactions);
  }
  const [t, fo, m] = [truth - before.truth, found - before.found, matched - before.matched];
  console.log(
    `${name}: precision ${((100 * m) / fo).toFixed(1)} % (${m}/${fo}), recall ${((100 * m) / t).toFixed(1)} % (${m}/${t})`,
  );
}
console.log(
  `${familyArg}: precision ${((100 * matched) / found).toFixed(1)} % (${matched}/${found}), recall ${((100 * matched) / truth).toFixed(1)} % (${matched}/${truth})`,
);
// The OCR workers keep the process alive: end them.
const { terminateSharedOcrEngine } = await import('../src/extraction/ocr/ocr.pipeline');
await terminateSharedOcrEngine();

function report(g: GeneratedStatement, ours: ReturnType<typeof statementFromLines>['transactions']) {
  const m = matchTransactions(g.truth.transactions as TruthTx[], ours);
  truth += m.truth;
  found += m.found;
  matched += m.matched;
  const key = (t: { date: string; amountMinor: number; type: string }) => `${t.date} ${t.amountMinor} ${t.type}`;
  const got = new Set(ours.map(key));
  const want = new Set(g.truth.transactions.map(key));
  for (const t of g.truth.transactions)
    if (!got.has(key(t))) console.log(`  ${g.id} missed ${key(t)} ${t.description}`);
  for (const t of ours) if (!want.has(key(t))) console.log(`  ${g.id} wrong  ${key(t)} ${t.description}`);
}
