/**
 * Reconciliation of 10,000 transactions against 10,000 invoices (target < 2 s), end to end: the statement (CSV) and
 * the invoices (JSON) written as files, read, parsed and matched — in this process (median of three runs, wall and CPU
 * time, peak RSS) and through the real `invoicebox reconcile --json` command (wall time, Node start and the document
 * sandbox included).
 * Also precision and recall on that set. Prints figures; never fails on time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { minorUnitsToDecimal } from '@invoicebox/core';
import { generateReconcileCase, scoreMatches } from '../eval/reconcile.generator';
import { parseInvoicesJson } from '../src/bank/reconcile/invoice-input';
import { reconcile } from '../src/bank/reconcile/reconcile';
import { readStatement } from '../src/bank/statement-registry';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/invoicebox.js');
const SIZE = Number(process.env.BENCH_RECONCILE_SIZE ?? 10_000);

export async function runReconcileBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-reconcile-'));
  try {
    const set = generateReconcileCase({ invoices: SIZE, seed: 7, family: 'dev', transactions: SIZE });
    const transactions = set.transactions.slice(0, Math.max(SIZE, set.transactions.length));
    const statementFile = path.join(dir, 'statement.csv');
    const invoicesFile = path.join(dir, 'invoices.json');
    // A CSV export as banks give them: booking date, counterparty, purpose, one signed amount column.
    const quote = (v: string | null) => `"${(v ?? '').replace(/"/g, '""')}"`;
    await fs.writeFile(
      statementFile,
      [
        'Date,Counterparty,Description,Amount,Currency',
        ...transactions.map(
          (t) =>
            `${t.date},${quote(t.counterpartyName)},${quote(t.description)},${t.type === 'debit' ? '-' : ''}${minorUnitsToDecimal(t.amountMinor, t.currency)},${t.currency}`,
        ),
      ].join('\n'),
    );
    await fs.writeFile(
      invoicesFile,
      JSON.stringify(
        set.invoices.map((i) => ({
          id: i.id,
          vendor: i.vendor,
          amount: minorUnitsToDecimal(i.amountMinor!, i.currency!),
          currency: i.currency,
          invoice_date: i.invoiceDate,
          invoice_number: i.invoiceNumber,
        })),
      ),
    );
    const debits = transactions.filter((t) => t.type === 'debit').length;
    console.log(`set: ${transactions.length} transactions (${debits} debits) × ${set.invoices.length} invoices`);

    const runs: number[] = [];
    const cpu: number[] = [];
    let last: ReturnType<typeof reconcile> | undefined;
    // A gc() without --expose-gc on the command line, so each run starts from the same heap.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const peakBefore = process.resourceUsage().maxRSS * 1024;
    for (let i = 0; i < 3; i++) {
      gc();
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const read = await readStatement(new Uint8Array(await fs.readFile(statementFile)), 'statement.csv');
      if (!read.ok) throw new Error(read.errors[0]?.message);
      const invoices = parseInvoicesJson(await fs.readFile(invoicesFile, 'utf8'), 'EUR');
      const rows = read.statements.flatMap((s) => s.transactions);
      if (rows.length !== transactions.length)
        throw new Error(`the CSV reader read ${rows.length} rows, not ${transactions.length}`);
      last = reconcile(rows, invoices);
      runs.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    runs.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const s = scoreMatches(set.truth, last!.matches);
    console.log(
      `in process: median ${(runs[1]! / 1000).toFixed(2)} s (runs ${runs.map((r) => (r / 1000).toFixed(2)).join(', ')} s), CPU median ${(cpu[1]! / 1000).toFixed(2)} s, ` +
        `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (${(peakBefore / 1e6).toFixed(0)} MB with the set generated, before the runs)`,
    );
    console.log(
      `  ${last!.stats.candidates} candidate pairs, ${last!.stats.components} components, largest ${last!.stats.largestComponent} nodes; ` +
        `${last!.matches.length} matches, precision ${((s.precision * 100) as number).toFixed(1)} %, recall ${(s.recall * 100).toFixed(1)} %`,
    );

    const t0 = performance.now();
    const cli = spawnSync(
      process.execPath,
      [bin, 'reconcile', '--statement', statementFile, '--invoices', invoicesFile, '--json'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const wall = performance.now() - t0;
    if (cli.status !== 0) throw new Error(`invoicebox reconcile failed: ${cli.stderr}`);
    const cliMatches = (JSON.parse(cli.stdout) as { matches: unknown[] }).matches.length;
    console.log(
      `invoicebox reconcile --json: ${(wall / 1000).toFixed(2)} s wall (Node start included), ${cliMatches} matches`,
    );
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
