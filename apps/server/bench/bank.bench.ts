/**
 * Statement reading at size: a 100,000-row CSV (target < 2 s, memory flat) and a 1,000-transaction text PDF read end
 * to end (target < 3 s), both through the reader registry as the sandbox task runs it, plus the PDF through the real
 * `invoicebox statement --json` command (Node start and the document sandbox included) when the server is built.
 * Prints figures; never fails on time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPdf } from '../eval/invoice.renderers';
import { generateStatement } from '../eval/statement.generator';
import { readStatement } from '../src/bank/statement-registry';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../bin/invoicebox.js');
const CSV_ROWS = Number(process.env.BENCH_BANK_CSV_ROWS ?? 100_000);
const PDF_ROWS = Number(process.env.BENCH_BANK_PDF_ROWS ?? 1_000);

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const rssPeak = () => process.resourceUsage().maxRSS * 1024;

function csvText(rows: number): string {
  const lines = ['Buchungstag;Valuta;Empfänger;Verwendungszweck;Betrag;Währung'];
  let day = 0;
  for (let i = 0; i < rows; i += 1) {
    if (i % 300 === 0) day += 1;
    const d = new Date(Date.UTC(2020, 0, 1 + day)).toISOString().slice(0, 10).split('-').reverse().join('.');
    const cents = ((i * 7919) % 250_000) + 1;
    const sign = i % 4 === 0 ? '' : '-';
    lines.push(
      `${d};${d};Partner ${i % 977} GmbH;"Rechnung ${100_000 + i}; Kunde ${i % 131}";${sign}${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')};EUR`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export async function runBankBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-bank-'));
  try {
    // CSV first, while this process is small, so its peak RSS is the reader's.
    const csv = Buffer.from(csvText(CSV_ROWS), 'utf8');
    const before = rssPeak();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const r = await readStatement(new Uint8Array(csv), 'statement.csv');
    const ms = performance.now() - t0;
    const rows = r.ok ? r.statements.reduce((n, s) => n + s.transactions.length, 0) : 0;
    console.log(
      `CSV ${CSV_ROWS.toLocaleString('en')} rows (${mb(csv.length)}): ${(ms / 1000).toFixed(2)} s, ${rows} transactions read; ` +
        `peak RSS ${mb(before)} before, ${mb(rssPeak())} after (heap +${mb(process.memoryUsage().heapUsed - heap0)} holding the result)`,
    );

    const g = generateStatement(42, 'de', 'multipage', PDF_ROWS);
    const pdf = await renderPdf(g);
    const file = path.join(dir, 'statement.pdf');
    await fs.writeFile(file, pdf);
    const runs: number[] = [];
    let found = 0;
    for (let i = 0; i < 3; i += 1) {
      const t1 = performance.now();
      const p = await readStatement(pdf, 'statement.pdf');
      runs.push(performance.now() - t1);
      found = p.ok ? p.statements[0]!.transactions.length : -1;
    }
    console.log(
      `text PDF, ${PDF_ROWS} transactions on ${g.pages} pages (${mb(pdf.length)}): first read ${(runs[0]! / 1000).toFixed(2)} s ` +
        `(pdf.js worker start included), then ${runs
          .slice(1)
          .map((x) => (x / 1000).toFixed(2))
          .join(', ')} s; ${found} transactions read; peak RSS ${mb(rssPeak())}`,
    );
    if (existsSync(path.resolve(here, '../dist/cli.js'))) {
      const t2 = performance.now();
      const cli = spawnSync(process.execPath, [bin, 'statement', file, '--json'], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const wall = performance.now() - t2;
      const n = cli.status === 0 ? (JSON.parse(cli.stdout) as { transactions: unknown[] }).transactions.length : -1;
      console.log(
        `invoicebox statement --json on that PDF: ${(wall / 1000).toFixed(2)} s wall (Node start and sandbox included), ${n} transactions${cli.status === 0 ? '' : ` (failed: ${cli.stderr.trim()})`}`,
      );
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    const { terminatePdfWorker } = await import('../src/extraction/pdf/pdf.isolate');
    await terminatePdfWorker();
  }
}
