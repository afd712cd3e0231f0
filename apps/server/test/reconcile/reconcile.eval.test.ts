import { describe, expect, it } from 'vitest';
import { generateReconcileCase, scoreMatches } from '../../eval/reconcile.generator';
import { reconcile } from '../../src/bank/reconcile/reconcile';

// The accuracy targets of issue 13 (precision ≥ 95 %, recall ≥ 90 %) on one generated set of each family. The full
// figures over five sets each come from `npm run eval`.
describe('reconciliation on generated statements', () => {
  for (const [family, seed] of [
    ['dev', 11],
    ['holdout', 111],
  ] as const) {
    it(`meets the targets on the ${family} family`, () => {
      const set = generateReconcileCase({ invoices: 600, seed, family });
      const s = scoreMatches(set.truth, reconcile(set.transactions, set.invoices).matches);
      expect(s.truth).toBeGreaterThan(300);
      expect(s.precision).toBeGreaterThanOrEqual(0.95);
      expect(s.recall).toBeGreaterThanOrEqual(0.9);
    });
  }

  it('never matches a credit, and every match has a score and an explanation', () => {
    const set = generateReconcileCase({ invoices: 300, seed: 12, family: 'dev' });
    const r = reconcile(set.transactions, set.invoices);
    for (const m of r.matches) {
      expect(set.transactions[m.transactionIndex]!.type).toBe('debit');
      expect(m.score).toBeGreaterThan(0);
      expect(m.score).toBeLessThanOrEqual(1);
      expect(m.explanation.length).toBeGreaterThan(10);
    }
    expect(new Set(r.matches.map((m) => m.invoiceId)).size).toBe(r.matches.length);
  });
});
