import { readFileSync } from 'node:fs';
import type { ParsedStatement, StatementReadResult } from '../src/bank/statement.types';
import { mergeStatements } from '../src/bank/statement-merge';
import { matchTransactions, type TruthTx } from '../test/bank/bank-datasets';
import { loadRealStatements, type RealStatementField, toMinor } from './real-statements.dataset';
import { newScore, type StatementScore, tallyBalances } from './statement.score';

/**
 * The real statement corpus (eval/real-statements) scored like the other statement sets: transactions P/R (same
 * booking date, amount ±0.01, same type) and header fields, the dev part and the held-out part apart. Called from
 * statement.eval.ts; `failures` of the held-out part are never printed. Another corpus of the same shape (e.g.
 * eval/bank-exports) is scored the same way when passed as `corpus`.
 */

/** What the scoring needs of one truth entry; RealStatementTruth and BankExportTruth both have it. */
export interface ScoredStatementTruth {
  split: 'dev' | 'held-out';
  /** null: the file states none (amounts then count in hundredths). */
  currency: string | null;
  bank_name: string | null;
  account_number: string | null;
  start_date: string | null;
  end_date: string | null;
  opening_balance?: number | null;
  closing_balance?: number | null;
  unscored?: readonly string[];
  transactions: ReadonlyArray<{ date: string; amount: number; type: 'debit' | 'credit' }>;
}

/** A corpus to score: its entries and the name its lines are printed under. */
export interface StatementCorpus {
  load: () => Array<{ file: string; name: string; item: ScoredStatementTruth }>;
  label: string;
}

export const realStatementsCorpus: StatementCorpus = { load: () => loadRealStatements(), label: 'real statement PDFs' };

type Reader = (bytes: Uint8Array, filename: string) => Promise<StatementReadResult>;

const HEADER: Array<[RealStatementField, keyof ParsedStatement]> = [
  ['bank_name', 'bankName'],
  ['account_number', 'accountNumber'],
  ['start_date', 'startDate'],
  ['end_date', 'endDate'],
  ['currency', 'currency'],
  ['opening_balance', 'openingBalanceMinor'],
  ['closing_balance', 'closingBalanceMinor'],
];

// Account numbers are compared as printed without separators and case.
const normalise = (v: unknown) => (typeof v === 'string' ? v.replace(/[\s.\-/]/g, '').toUpperCase() : v);
// Bank names leniently, as the invoice evals compare vendors: 'Wells Fargo' is right for 'Wells Fargo Bank, N.A.'.
const letters = (v: string) => v.toLowerCase().replace(/[^a-z0-9]/g, '');
function sameField(key: keyof ParsedStatement, got: unknown, want: unknown): boolean {
  if (key === 'bankName' && typeof got === 'string' && typeof want === 'string') {
    const [a, b] = [letters(got), letters(want)];
    // The bank word alone ("Bank") is in every bank's name and names none.
    const generic = (x: string) => /^(?:bank|banque|banca|banco|bankhaus|sparkasse|credit)$/.test(x);
    if (generic(a) || generic(b)) return false;
    return a.length >= 4 && b.length >= 4 && (a.includes(b) || b.includes(a));
  }
  return normalise(got) === normalise(want);
}

function want(item: ScoredStatementTruth, f: RealStatementField): unknown {
  const v = item[f];
  if (f === 'opening_balance' || f === 'closing_balance') return typeof v === 'number' ? toMinor(v, item.currency) : v;
  return v;
}

const money = (minor: number) => (minor / 100).toFixed(2);
const txText = (t: TruthTx) => `${t.date} ${t.type} ${money(t.amountMinor)}`;
// A file read as nothing would list every row: the first few say enough.
const txList = (txs: TruthTx[]) =>
  txs.length > 6 ? `${txs.slice(0, 6).map(txText).join('; ')}; … ${txs.length - 6} more` : txs.map(txText).join('; ');

// Fields in one fixed order, whichever file scored them first.
const order = (r: Record<string, number>) =>
  Object.fromEntries(HEADER.map(([, k]) => [k, r[k]]).filter(([, v]) => v !== undefined));

/** The rows on each side that found no partner, for the verbose list. */
export async function runRealStatements(
  read: Reader,
  split: 'dev' | 'held-out',
  corpus: StatementCorpus = realStatementsCorpus,
): Promise<StatementScore> {
  const s = newScore(`${corpus.label} (${split === 'dev' ? 'dev' : 'held out, never tuned on'})`);
  for (const { file, name, item } of corpus.load()) {
    if (item.split !== split) continue;
    const t0 = performance.now();
    const r = await read(new Uint8Array(readFileSync(file)), name);
    s.ms += performance.now() - t0;
    s.files += 1;
    const sts = r.ok ? r.statements : [];
    // The header the app and the CLI show: several statements in one file are merged into one (statement-merge.ts).
    const st = sts.length ? mergeStatements(sts) : undefined;
    const truth: TruthTx[] = item.transactions.map((t) => ({
      date: t.date,
      amountMinor: toMinor(t.amount, item.currency),
      type: t.type,
    }));
    const ours = sts
      .flatMap((x) => x.transactions)
      .map((t) => ({ date: t.date, amountMinor: t.amountMinor, type: t.type }));
    const m = matchTransactions(truth, ours);
    s.truth += m.truth;
    s.found += m.found;
    s.matched += m.matched;
    if (m.matched < m.truth || m.matched < m.found) {
      s.failures.push(
        `${name}: ${m.matched} of ${m.truth} truth, ${m.found} found${r.ok ? `, ${sts.length} statement(s)` : ` ${r.errors[0]!.code}`}`,
      );
      if (m.missed.length) s.failures.push(`    missed: ${txList(m.missed)}`);
      if (m.extra.length) s.failures.push(`    extra:  ${txList(m.extra)}`);
    }
    for (const [f, key] of HEADER) {
      if (item.unscored?.includes(f) || item[f] === undefined) continue;
      s.headerTotal[key] = (s.headerTotal[key] ?? 0) + 1;
      const got = st?.[key] ?? null;
      if (sameField(key, got, want(item, f))) s.headerRight[key] = (s.headerRight[key] ?? 0) + 1;
      else s.failures.push(`${name}: ${key} got ${JSON.stringify(got)} want ${JSON.stringify(want(item, f))}`);
    }
    if (r.ok) tallyBalances(s, sts);
  }
  s.headerTotal = order(s.headerTotal);
  s.headerRight = order(s.headerRight);
  return s;
}

/** Parts of one corpus scored apart (e.g. per format) added up into one score, failures in the parts' order. */
export function mergeStatementScores(name: string, parts: StatementScore[]): StatementScore {
  const s = newScore(name);
  for (const p of parts) {
    for (const k of [
      'files',
      'truth',
      'found',
      'matched',
      'balanceOk',
      'balanceChecked',
      'balanceUnchecked',
      'ms',
    ] as const)
      s[k] += p[k];
    for (const [k, v] of Object.entries(p.headerTotal)) s.headerTotal[k] = (s.headerTotal[k] ?? 0) + v;
    for (const [k, v] of Object.entries(p.headerRight)) s.headerRight[k] = (s.headerRight[k] ?? 0) + v;
    s.failures.push(...p.failures);
  }
  s.headerTotal = order(s.headerTotal);
  s.headerRight = order(s.headerRight);
  return s;
}
