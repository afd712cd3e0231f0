/**
 * Reconciliation precision and recall on generated statements (eval/reconcile.generator.ts): the 'dev' family the
 * matcher was tuned on, and the 'holdout' family kept out of all tuning, reported apart. Part of `npm run eval`;
 * alone: `npx tsx apps/server/eval/reconcile.eval.ts [--verbose]` (--verbose lists the dev family's errors only).
 */
import { fileURLToPath } from 'node:url';
import { reconcile } from '../src/bank/reconcile/reconcile';
import { generateReconcileCase, type PrecisionRecall, type ReconcileFamily, scoreMatches } from './reconcile.generator';

const SEEDS: Record<ReconcileFamily, number[]> = { dev: [1, 2, 3, 4, 5], holdout: [101, 102, 103, 104, 105] };
const INVOICES = 1_000;

export function evalReconcileFamily(family: ReconcileFamily, verbose = false): PrecisionRecall {
  const total = { truth: 0, predicted: 0, correct: 0, precision: 0, recall: 0 };
  for (const seed of SEEDS[family]) {
    const c = generateReconcileCase({ invoices: INVOICES, seed, family });
    const result = reconcile(c.transactions, c.invoices);
    const s = scoreMatches(c.truth, result.matches);
    total.truth += s.truth;
    total.predicted += s.predicted;
    total.correct += s.correct;
    if (verbose && family === 'dev') {
      const byId = new Map(c.invoices.map((i) => [i.id, i]));
      const matched = new Set(result.matches.map((m) => m.transactionIndex));
      for (const m of result.matches) {
        if (c.truth.get(m.transactionIndex) === m.invoiceId) continue;
        const t = c.transactions[m.transactionIndex]!;
        const i = byId.get(m.invoiceId)!;
        console.log(
          `  wrong: ${t.date} ${t.amountMinor} "${t.description}" cp=${t.counterpartyName} → ${i.vendor} ${i.amountMinor} ${i.currency} ${i.invoiceDate} ${i.invoiceNumber} (truth ${c.truth.get(m.transactionIndex) ?? 'none'}) ${m.score} ${m.explanation}`,
        );
      }
      for (const [ti, id] of c.truth) {
        if (matched.has(ti)) continue;
        const t = c.transactions[ti]!;
        const i = byId.get(id)!;
        console.log(
          `  missed: ${t.date} ${t.amountMinor} "${t.description}" cp=${t.counterpartyName} ← ${i.vendor} ${i.amountMinor} ${i.currency} ${i.invoiceDate} ${i.invoiceNumber}`,
        );
      }
    }
  }
  total.precision = total.predicted ? total.correct / total.predicted : 1;
  total.recall = total.truth ? total.correct / total.truth : 1;
  return total;
}

export function runReconcileEval(verbose = false): void {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  for (const [family, label] of [
    ['dev', 'reconciliation, dev family (tuned on)'],
    ['holdout', 'reconciliation, holdout family (never tuned on)'],
  ] as const) {
    const s = evalReconcileFamily(family, verbose);
    console.log(
      `${label}: precision ${pct(s.precision)} (${s.correct}/${s.predicted}), recall ${pct(s.recall)} (${s.correct}/${s.truth}) over ${SEEDS[family].length} sets of ${INVOICES} invoices`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runReconcileEval(process.argv.includes('--verbose'));
