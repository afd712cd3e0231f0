import { describe, expect, it } from 'vitest';
import { MATCH_THRESHOLD, type ReconcileInvoice, type ReconcileTransaction, reconcile } from './reconcile';

function tx(
  date: string,
  amount: number,
  description: string,
  more: Partial<ReconcileTransaction> = {},
): ReconcileTransaction {
  return {
    date,
    description,
    amountMinor: Math.round(amount * 100),
    type: 'debit',
    currency: 'EUR',
    reference: null,
    counterpartyName: null,
    counterpartyIban: null,
    ...more,
  };
}

function inv(id: string, vendor: string, amount: number, invoiceDate: string, more: Partial<ReconcileInvoice> = {}) {
  return {
    id,
    vendor,
    amountMinor: Math.round(amount * 100),
    currency: 'EUR',
    invoiceDate,
    invoiceNumber: null,
    ...more,
  } satisfies ReconcileInvoice;
}

const pairs = (r: ReturnType<typeof reconcile>) => r.matches.map((m) => [m.transactionIndex, m.invoiceId]);

describe('reconcile', () => {
  it('matches an exact payment and explains why', () => {
    const r = reconcile(
      [tx('2026-03-05', 117.43, 'SEPA Überweisung ACME SOFTWARE Rechnung 4711')],
      [inv('a', 'ACME Software GmbH', 117.43, '2026-03-02')],
    );
    expect(pairs(r)).toEqual([[0, 'a']]);
    expect(r.matches[0]!.score).toBeGreaterThan(0.85);
    expect(r.matches[0]!.score).toBeLessThanOrEqual(1);
    expect(r.matches[0]!.explanation).toBe(
      "amount equal, paid 3 days after the invoice date, 'ACME SOFTWARE' in the description",
    );
  });

  it('folds case, diacritics, punctuation and legal forms, and reads the counterparty and the invoice number', () => {
    const r = reconcile(
      [
        tx('2026-04-10', 250.4, 'Virement', { counterpartyName: 'ATELIER DUREE S.A.R.L.' }),
        tx('2026-04-11', 80.15, 'Zahlung RE-2026/0042 danke'),
        tx('2026-04-12', 64.2, 'Überweisung', { counterpartyIban: 'DE89 3704 0044 0532 0130 00' }),
      ],
      [
        inv('fr', 'Atelier Durée SARL', 250.4, '2026-04-01'),
        inv('num', 'Unknown Vendor', 80.15, '2026-03-30', { invoiceNumber: 'RE 2026 0042' }),
        inv('iban', 'Someone', 64.2, '2026-04-01', { vendorIban: 'DE89370400440532013000' }),
      ],
    );
    expect(pairs(r)).toEqual([
      [0, 'fr'],
      [1, 'num'],
      [2, 'iban'],
    ]);
    expect(r.matches[0]!.explanation).toContain("'ATELIER DUREE' as the counterparty");
    expect(r.matches[1]!.explanation).toContain("invoice number 'RE 2026 0042' in the description");
    expect(r.matches[2]!.explanation).toContain('vendor IBAN DE89370400440532013000 as the counterparty');
  });

  it('accepts a bank fee within the tolerance when the text confirms it, not on amount alone', () => {
    const r = reconcile(
      [tx('2026-03-05', 118.93, 'ACME SOFTWARE'), tx('2026-03-06', 52.1, 'POS 4711')],
      [inv('a', 'ACME Software', 117.43, '2026-03-02'), inv('b', 'Other', 51.1, '2026-03-02')],
    );
    expect(pairs(r)).toEqual([[0, 'a']]);
    expect(r.matches[0]!.explanation).toContain('amount 1.50 EUR more than the invoice (within the fee tolerance)');
  });

  it('never matches beyond the fee tolerance (partial payments stay unmatched)', () => {
    const r = reconcile(
      [tx('2026-03-05', 250, 'ACME SOFTWARE INV-2026-77 1/2'), tx('2026-03-05', 113.43, 'ACME SOFTWARE')],
      [
        inv('a', 'ACME Software', 500, '2026-03-02', { invoiceNumber: 'INV-2026-77' }),
        inv('b', 'ACME', 117.43, '2026-03-01'),
      ],
    );
    expect(pairs(r)).toEqual([]);
  });

  it('converts another currency with the bundled table and with a stated original amount', () => {
    // USD 120.00 at the 2024 table rate (1 / 1.0824 ≈ 0.9239) ≈ 110.87 EUR; card spread 0.8 %.
    const table = reconcile(
      [tx('2024-05-12', 111.8, 'CARD GITHUB INC SAN FRANCISCO')],
      [inv('gh', 'GitHub, Inc.', 120, '2024-05-10', { currency: 'USD' })],
    );
    expect(pairs(table)).toEqual([[0, 'gh']]);
    expect(table.matches[0]!.explanation).toMatch(/^120\.00 USD ≈ 110\.8\d EUR at 0\.92\d+ \(ECB reference rate/);
    const stated = reconcile(
      [tx('2024-05-13', 47.31, 'CARD FIGMA ORIG USD 49.99')],
      [inv('figma', 'Figma Inc', 49.99, '2024-05-13', { currency: 'USD' })],
    );
    expect(pairs(stated)).toEqual([[0, 'figma']]);
    expect(stated.matches[0]!.explanation).toContain('invoice amount 49.99 USD stated in the description');
    // Without any text, a converted amount is not enough.
    const bare = reconcile(
      [tx('2024-05-12', 111.8, 'CARD 4711')],
      [inv('gh', 'GitHub, Inc.', 120, '2024-05-10', { currency: 'USD' })],
    );
    expect(pairs(bare)).toEqual([]);
  });

  it('uses the rate the statement implies when it has one', () => {
    const r = reconcile(
      [
        tx('2026-02-01', 92, 'CARD SHOP A USD 100.00'),
        // No original amount on this line: the statement's rate (0.92) converts the invoice, 3 % tolerance.
        tx('2026-02-03', 184.5, 'CARD JETBRAINS'),
      ],
      [inv('jb', 'JetBrains s.r.o.', 200, '2026-02-02', { currency: 'USD' })],
    );
    expect(pairs(r)).toEqual([[1, 'jb']]);
    expect(r.matches[0]!.explanation).toContain("the statement's own rate");
  });

  it('leaves a batch payment of several invoices unmatched', () => {
    const r = reconcile(
      [tx('2026-05-02', 300.65, 'ACME SAMMELZAHLUNG')],
      [inv('a', 'ACME', 100.55, '2026-04-20'), inv('b', 'ACME', 200.1, '2026-04-21')],
    );
    expect(pairs(r)).toEqual([]);
  });

  it('prefers the true payment to a decoy with the right amount but another merchant or a far-off date', () => {
    const invoices = [inv('a', 'ACME Software GmbH', 89.9, '2026-03-01')];
    const decoyMerchant = tx('2026-03-02', 89.9, 'Kartenzahlung', { counterpartyName: 'Globex Corporation' });
    const decoyFar = tx('2026-08-20', 89.9, 'ACME SOFTWARE');
    const truth = tx('2026-03-09', 89.9, 'ACME SOFTWARE GMBH');
    expect(pairs(reconcile([decoyMerchant, truth, decoyFar], invoices))).toEqual([[1, 'a']]);
    expect(pairs(reconcile([decoyFar, decoyMerchant, truth], invoices))).toEqual([[2, 'a']]);
    // Alone, the decoy of another merchant is no match at all.
    const alone = reconcile([decoyMerchant], invoices);
    expect(pairs(alone)).toEqual([]);
    const lonelyDescription = reconcile([tx('2026-03-02', 89.9, 'KARTENZAHLUNG GLOBEX BERLIN')], invoices);
    expect(pairs(lonelyDescription)).toEqual([]);
  });

  it('matches an exact, unround amount close to the date with no text, but not a round one', () => {
    const r = reconcile(
      [tx('2026-03-10', 117.43, 'POS 4711 10.03'), tx('2026-03-20', 100, 'POS 4712 20.03')],
      [inv('a', 'ACME', 117.43, '2026-03-01'), inv('b', 'Bolt', 100, '2026-03-01')],
    );
    expect(pairs(r)).toEqual([[0, 'a']]);
    expect(r.matches[0]!.explanation).toBe(
      'amount equal, paid 9 days after the invoice date, no name or number to confirm it',
    );
  });

  it('never lets a credit or refund pay an invoice', () => {
    const r = reconcile(
      [tx('2026-03-03', 89.9, 'ACME SOFTWARE refund', { type: 'credit' })],
      [inv('a', 'ACME Software', 89.9, '2026-03-01')],
    );
    expect(pairs(r)).toEqual([]);
  });

  it('chooses the best assignment overall, not the greedy one', () => {
    // tx0 is a little better for A than tx1, but tx1 may only pay A (tx1–B is forbidden by hand): the optimum gives
    // A to tx1 and B to tx0, where greedy would leave tx1 unmatched.
    const r = reconcile(
      [tx('2026-03-02', 117.43, 'ACME'), tx('2026-03-03', 117.43, 'ACME')],
      [inv('A', 'ACME', 117.43, '2026-03-01'), inv('B', 'ACME', 117.43, '2026-02-20')],
      { forbidden: [{ transactionIndex: 1, invoiceId: 'B' }] },
    );
    expect(pairs(r)).toEqual([
      [0, 'B'],
      [1, 'A'],
    ]);
  });

  it('breaks ties in order: earlier payment to the earlier-listed invoice', () => {
    const twins = [inv('x1', 'Netflix', 12.99, '2026-03-01'), inv('x2', 'Netflix', 12.99, '2026-03-01')];
    const payments = [tx('2026-03-01', 12.99, 'NETFLIX.COM'), tx('2026-03-01', 12.99, 'NETFLIX.COM')];
    expect(pairs(reconcile(payments, twins))).toEqual([
      [0, 'x1'],
      [1, 'x2'],
    ]);
  });

  it('keeps pinned pairs whatever the scores and never matches forbidden ones', () => {
    const transactions = [tx('2026-03-05', 117.43, 'ACME'), tx('2026-03-06', 42, 'cash')];
    const invoices = [inv('a', 'ACME', 117.43, '2026-03-02'), inv('b', 'Other', 99, '2026-01-01')];
    const pinned = reconcile(transactions, invoices, { pinned: [{ transactionIndex: 1, invoiceId: 'a' }] });
    expect(pairs(pinned)).toEqual([[1, 'a']]);
    expect(pinned.matches[0]).toMatchObject({ score: 1, manual: true });
    expect(pinned.matches[0]!.explanation).toMatch(/^matched by hand/);
    const forbidden = reconcile(transactions, invoices, { forbidden: [{ transactionIndex: 0, invoiceId: 'a' }] });
    expect(pairs(forbidden)).toEqual([]);
    // Pins naming unknown transactions or invoices are ignored, not fatal.
    expect(pairs(reconcile(transactions, invoices, { pinned: [{ transactionIndex: 9, invoiceId: 'zz' }] }))).toEqual([
      [0, 'a'],
    ]);
  });

  it('pays a monthly subscription month by month', () => {
    const months = ['01', '02', '03', '04', '05', '06'];
    const invoices = months.map((m) => inv(`n${m}`, 'Netflix International B.V.', 12.99, `2026-${m}-03`));
    // One month's payment is missing: its invoice stays unmatched instead of taking a neighbour's.
    const transactions = months
      .filter((m) => m !== '04')
      .map((m) => tx(`2026-${m}-04`, 12.99, 'NETFLIX.COM AMSTERDAM'));
    const r = reconcile(transactions, invoices);
    expect(pairs(r)).toEqual([
      [0, 'n01'],
      [1, 'n02'],
      [2, 'n03'],
      [3, 'n05'],
      [4, 'n06'],
    ]);
  });

  it('still matches one to one when thousands of equal amounts make one huge block', () => {
    const n = 1300;
    const day = (i: number) =>
      new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10);
    const invoices = Array.from({ length: n }, (_, i) => inv(`n${i}`, 'Netflix B.V.', 12.99, day(i)));
    const transactions = Array.from({ length: n }, (_, i) => tx(day(i), 12.99, 'NETFLIX.COM'));
    const r = reconcile(transactions, invoices);
    expect(r.stats.largestComponent).toBeGreaterThan(2000);
    expect(r.matches).toHaveLength(n);
    expect(new Set(r.matches.map((m) => m.invoiceId)).size).toBe(n);
    expect(r.matches.every((m) => m.explanation.includes('paid on the invoice date'))).toBe(true);
  });

  it('gives every match a score between the threshold and 1', () => {
    const r = reconcile(
      [tx('2026-03-05', 117.43, 'ACME'), tx('2026-03-25', 50.01, 'x')],
      [inv('a', 'ACME', 117.43, '2026-03-02'), inv('b', 'B', 50.01, '2026-03-01')],
    );
    for (const m of r.matches) {
      expect(m.score).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
      expect(m.score).toBeLessThanOrEqual(1);
    }
  });
});
