import { readFileSync } from 'node:fs';
import { buildLines } from '../src/extraction/layout/lines';
import { pdfLimits, readPdfTextIsolated, terminatePdfWorker } from '../src/extraction/pdf/pdf.isolate';

/**
 * Development aid: prints the lines and cells the rules see for a PDF's text layer
 * (`npx tsx apps/server/eval/dump-lines.ts FILE.pdf [--words]`).
 */
const file = process.argv[2];
if (!file) {
  console.error('usage: dump-lines.ts FILE.pdf [--words]');
  process.exit(2);
}
const text = await readPdfTextIsolated(new Uint8Array(readFileSync(file)), pdfLimits(200, 60_000));
if (process.argv.includes('--words'))
  for (const w of text.words)
    console.log(`p${w.page} ${w.x0.toFixed(1)}-${w.x1.toFixed(1)} y${w.y0.toFixed(1)} ${JSON.stringify(w.text)}`);
for (const l of buildLines(text.words, text.pageHeights))
  console.log(
    `p${l.page} ${l.rel.toFixed(2)} s${l.size.toFixed(0)} | ${l.cells.map((c) => `[${c.x0.toFixed(0)}] ${c.text}`).join('  |  ')}`,
  );
await terminatePdfWorker();
