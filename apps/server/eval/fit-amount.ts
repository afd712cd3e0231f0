import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { findTotal } from '../src/extraction/rules/amount.rules';
import { AMOUNT_FEATURES, AMOUNT_WEIGHTS, type AmountFeature } from '../src/extraction/rules/amount.weights';
import { prepareDoc } from '../src/extraction/rules/document';
import { findInvoiceNumber } from '../src/extraction/rules/number.rules';
import { type CachedDoc, loadCached } from './rules-lines';

/**
 * Fits the grand-total candidate weights (rules/amount.weights.ts) offline: a logistic regression over every candidate
 * of every tuning document (the real-world dev part and the generated dev families, from the lines cached by
 * `rules-lines.ts --cache [--ocr]`; held-out sets are never used), the candidate equal to the truth being positive.
 * It then picks each document's total with the fitted weights and with the hand weights and prints both accuracies.
 *   npx tsx apps/server/eval/fit-amount.ts [--write]
 * --write stores the fitted weights as rules/amount.weights.fitted.json, meant to be shipped only when they beat the
 * hand weights on the dev documents (they are not loaded by the rules until then).
 */

type Weights = Record<AmountFeature, number>;

const docs = loadCached().filter((d) => !d.heldOut && d.truth.amount !== null && !d.unscored?.includes('amount'));
const prepared = docs.map((d) => {
  const doc = prepareDoc(d.lines);
  return { d, doc, invoiceNumber: findInvoiceNumber(doc)?.value ?? null };
});

function correct(d: CachedDoc, minor: number, decimals: number): boolean {
  return Math.abs(minor / 10 ** decimals - Number(d.truth.amount)) < 0.005;
}

// Candidate rows: features (in AMOUNT_FEATURES order) and whether the candidate is the truth.
const rows: Array<{ x: number[]; y: number }> = [];
for (const { d, doc, invoiceNumber } of prepared) {
  let list: Array<{ minor: number; features: Partial<Weights> }> = [];
  const t = findTotal(doc, { invoiceNumber, onCandidates: (l) => (list = l) });
  const decimals = t?.value.decimals ?? 2;
  if (!list.some((c) => correct(d, c.minor, decimals))) continue; // no candidate to learn from
  for (const c of list)
    rows.push({ x: AMOUNT_FEATURES.map((f) => c.features[f] ?? 0), y: correct(d, c.minor, decimals) ? 1 : 0 });
}

/** Plain batch gradient descent on the log-loss with a little L2, from the hand weights. */
function fit(): Weights {
  const w = AMOUNT_FEATURES.map((f) => AMOUNT_WEIGHTS[f]);
  let bias = 0;
  const lr = 0.5;
  const l2 = 1e-3;
  for (let epoch = 0; epoch < 3000; epoch++) {
    const g = new Array(w.length).fill(0);
    let gb = 0;
    for (const r of rows) {
      const z = bias + r.x.reduce((s, v, k) => s + v * w[k]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const e = p - r.y;
      gb += e;
      r.x.forEach((v, k) => {
        g[k] += e * v;
      });
    }
    bias -= (lr * gb) / rows.length;
    for (let k = 0; k < w.length; k++) w[k]! -= lr * (g[k]! / rows.length + l2 * w[k]!);
  }
  return Object.fromEntries(AMOUNT_FEATURES.map((f, k) => [f, Number(w[k]!.toFixed(4))])) as Weights;
}

function accuracy(weights: Weights): { right: number; total: number; bySet: Map<string, [number, number]> } {
  let right = 0;
  const bySet = new Map<string, [number, number]>();
  for (const { d, doc, invoiceNumber } of prepared) {
    const t = findTotal(doc, { invoiceNumber, weights });
    const ok = !!t && correct(d, t.value.minor, t.value.decimals);
    if (ok) right++;
    const s = bySet.get(d.set) ?? [0, 0];
    bySet.set(d.set, [s[0] + (ok ? 1 : 0), s[1] + 1]);
  }
  return { right, total: prepared.length, bySet };
}

const fitted = fit();
const hand = accuracy(AMOUNT_WEIGHTS);
const model = accuracy(fitted);
console.log(`${rows.length} candidates from ${prepared.length} documents`);
for (const [set, [r, n]] of hand.bySet) {
  const m = model.bySet.get(set)!;
  console.log(`${set.padEnd(32)} hand ${r}/${n}   fitted ${m[0]}/${m[1]}`);
}
console.log(`amount right: hand ${hand.right}/${hand.total}, fitted ${model.right}/${model.total}`);
console.log(JSON.stringify(fitted));
if (process.argv.includes('--write')) {
  const out = path.join(
    path.dirname(new URL(import.meta.url).pathname),
    '../src/extraction/rules/amount.weights.fitted.json',
  );
  writeFileSync(
    out,
    `${JSON.stringify({ fittedOn: 'real-world dev + generated dev families', weights: fitted }, null, 2)}\n`,
  );
  console.log(`written ${out}`);
}
