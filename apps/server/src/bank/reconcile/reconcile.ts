/**
 * Reconciliation: which debit transactions of a statement paid which invoices. One-to-one and optimal over the whole
 * statement (the assignment with the greatest total score, not first come first served), pure code, no database.
 *
 * 1. Candidates by blocking: a transaction is compared only with invoices whose amount it could be — equal, within
 *    the fee tolerance, or converted from another currency within the FX tolerance — and whose date fits.
 * 2. Each candidate pair gets a score in [0, 1] from amount, date and text evidence; pairs under MATCH_THRESHOLD are
 *    dropped: an honest Unmatched beats a wrong Matched.
 * 3. The candidate graph splits into connected components; each is solved with the Hungarian algorithm (`munkres`) on
 *    costs −score, where a pair that is no candidate costs 0, the same as leaving both sides unmatched.
 * Manual decisions win: pinned pairs are kept as they are and leave the pool; forbidden pairs are never candidates.
 */
import { currencyDecimals, minorUnitsToDecimal } from '@invoicebox/core';
import munkres from 'munkres';
import type { StatementTransaction } from '../statement.types';
import { statedAmounts } from './amounts';
import { FX_TABLE_SOURCE, ImpliedRates, tableRate } from './fx-rates';
import {
  containsInvoiceNumber,
  invoiceNumberKey,
  normalizeIban,
  type TransactionText,
  transactionText,
  type VendorEvidence,
  vendorEvidence,
  vendorTokens,
} from './text';

export type ReconcileTransaction = Pick<
  StatementTransaction,
  'date' | 'description' | 'amountMinor' | 'type' | 'currency' | 'reference' | 'counterpartyName' | 'counterpartyIban'
>;

export interface ReconcileInvoice {
  id: string;
  vendor: string | null;
  /** Positive, in minor units of `currency`; null when the invoice's amount is unknown (never matched then). */
  amountMinor: number | null;
  /** ISO 4217; null means "unknown", compared as if it were the transaction's currency. */
  currency: string | null;
  /** YYYY-MM-DD or null. */
  invoiceDate: string | null;
  invoiceNumber: string | null;
  vendorIban?: string | null;
}

/** A decision made by hand: a transaction (its 0-based index in the list given) and an invoice. */
export interface ManualPair {
  transactionIndex: number;
  invoiceId: string;
}

export interface ReconcileOptions {
  /** Manual matches: kept whatever the scores say; their transaction and invoice take part in nothing else. */
  pinned?: readonly ManualPair[];
  /** Manual unmatches: these pairs are never matched. */
  forbidden?: readonly ManualPair[];
  /** Minimum score of an automatic match (default MATCH_THRESHOLD). */
  threshold?: number;
}

export interface ReconcileMatch {
  transactionIndex: number;
  invoiceId: string;
  /** [0, 1], three decimals; 1 for a manual match. */
  score: number;
  /** For people: "amount equal, paid 3 days after the invoice date, 'ACME' in the description". */
  explanation: string;
  manual: boolean;
}

export interface ReconcileResult {
  /** By transaction index. */
  matches: ReconcileMatch[];
  stats: { candidates: number; components: number; largestComponent: number };
}

/** The score an automatic match needs. Exact amount and a close date alone reach it; a fee or FX difference needs text. */
export const MATCH_THRESHOLD = 0.55;

/**
 * Fee tolerance: a payment may differ from the invoice by bank or card fees of up to 2 % of the invoice amount,
 * at least 0.50 and at most 25.00 in the invoice's currency (major units).
 */
export const FEE_RELATIVE = 0.02;
export const FEE_MIN_MAJOR = 0.5;
export const FEE_MAX_MAJOR = 25;
/** FX tolerance: a converted amount may be off by 3 % with the statement's own rate, 6 % with the bundled table. */
export const FX_TOLERANCE_IMPLIED = 0.03;
export const FX_TOLERANCE_TABLE = 0.06;

/** Date window of a candidate (days from the invoice date to the payment); wider when the invoice number is quoted. */
const EARLIEST_DAYS = -14;
const LATEST_DAYS = 180;
const EARLIEST_DAYS_WITH_NUMBER = -60;
const LATEST_DAYS_WITH_NUMBER = 400;
/** Fee and FX matches (approximate amounts) later than this need the invoice number or the IBAN. */
const FEE_FX_LATEST_DAYS = 90;

const WEIGHT_AMOUNT = 0.45;
const WEIGHT_DATE = 0.2;
const WEIGHT_TEXT = 0.35;
/** Components larger than this (rows × columns) are solved greedily. */
const MAX_COMPONENT_CELLS = 1_500_000;
const MAX_CANDIDATES_PER_TRANSACTION = 24;

type AmountKind = 'equal' | 'fee' | 'stated' | 'implied' | 'table';

interface AmountEvidence {
  kind: AmountKind;
  score: number;
  /** Fee: payment − invoice in the invoice's currency; FX: the invoice converted to the payment's currency. */
  detailMinor: number;
  rate?: number;
}

interface Candidate {
  tx: number;
  inv: number;
  score: number;
  amount: AmountEvidence;
  days: number | null;
  number: boolean;
  iban: boolean;
  vendor: VendorEvidence;
  mismatch: string | null;
}

interface PreparedInvoice {
  source: ReconcileInvoice;
  index: number;
  currency: string | null;
  vendor: string[];
  numberKey: string | null;
  iban: string | null;
  day: number | null;
}

const DAY_MS = 86_400_000;

const dayCache = new Map<string, number | null>();

/** Days since 1970 of a YYYY-MM-DD date (memoised: a statement repeats its dates). */
function dayNumber(date: string | null | undefined): number | null {
  if (!date) return null;
  let day = dayCache.get(date);
  if (day === undefined) {
    day = parseDay(date);
    if (dayCache.size > 100_000) dayCache.clear();
    dayCache.set(date, day);
  }
  return day;
}

function parseDay(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(t) ? null : Math.round(t / DAY_MS);
}

function feeToleranceMinor(invoiceMinor: number, currency: string): number {
  const unit = unitOf(currency);
  return Math.round(Math.min(FEE_MAX_MAJOR * unit, Math.max(FEE_MIN_MAJOR * unit, invoiceMinor * FEE_RELATIVE)));
}

/** Amounts that are whole tens (100.00, 250.00) coincide by chance far more often than 117.43 does. */
function isRound(minor: number, currency: string): boolean {
  return minor % (10 * unitOf(currency)) === 0;
}

/** [0, 1] from the days between invoice and payment: best on the day, fading over 45 days, then over late payments. */
function dateScore(days: number | null): number {
  if (days === null) return 0.4;
  if (days >= 0 && days <= 45) return 1 - (0.5 * days) / 45;
  if (days > 45) return Math.max(0, 0.5 - (0.4 * (days - 45)) / 135);
  // Paid before the invoice date: card charges a day or two ahead happen, anything earlier is unlikely.
  if (days >= -3) return 0.6;
  return Math.max(0, 0.3 - (0.3 * (-days - 3)) / 11);
}

/** Sorted (amount, invoice index) per currency for range look-ups. */
class AmountIndex {
  private readonly amounts: Float64Array;
  private readonly order: Int32Array;

  constructor(items: Array<{ amount: number; index: number }>) {
    items.sort((a, b) => a.amount - b.amount);
    this.amounts = Float64Array.from(items, (x) => x.amount);
    this.order = Int32Array.from(items, (x) => x.index);
  }

  /** Invoice indexes with an amount in [lo, hi], appended to `out`. */
  collect(lo: number, hi: number, out: number[]): void {
    let a = 0;
    let b = this.amounts.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (this.amounts[mid]! < lo) a = mid + 1;
      else b = mid;
    }
    for (let i = a; i < this.amounts.length && this.amounts[i]! <= hi; i++) out.push(this.order[i]!);
  }
}

export function reconcile(
  transactions: readonly ReconcileTransaction[],
  invoices: readonly ReconcileInvoice[],
  options: ReconcileOptions = {},
): ReconcileResult {
  const threshold = options.threshold ?? MATCH_THRESHOLD;
  const prepared: PreparedInvoice[] = invoices.map((inv, index) => ({
    source: inv,
    index,
    currency: inv.currency ? inv.currency.trim().toUpperCase() : null,
    vendor: inv.vendor ? vendorTokens(inv.vendor) : [],
    numberKey: invoiceNumberKey(inv.invoiceNumber),
    iban: inv.vendorIban ? normalizeIban(inv.vendorIban) : null,
    day: dayNumber(inv.invoiceDate),
  }));
  const invoiceById = new Map(prepared.map((p) => [p.source.id, p]));

  // Manual decisions first.
  const matches: ReconcileMatch[] = [];
  const takenTx = new Set<number>();
  const takenInv = new Set<number>();
  for (const pin of options.pinned ?? []) {
    const inv = invoiceById.get(pin.invoiceId);
    const tx = transactions[pin.transactionIndex];
    if (!inv || !tx || takenTx.has(pin.transactionIndex) || takenInv.has(inv.index)) continue;
    takenTx.add(pin.transactionIndex);
    takenInv.add(inv.index);
    const text = transactionText(tx);
    const evidence = scorePair(
      pin.transactionIndex,
      tx,
      text,
      statedAmounts(tx.description),
      inv,
      new ImpliedRates(),
      true,
    );
    matches.push({
      transactionIndex: pin.transactionIndex,
      invoiceId: inv.source.id,
      score: 1,
      explanation: evidence ? `matched by hand; ${explain(evidence, tx, inv)}` : 'matched by hand',
      manual: true,
    });
  }
  const forbidden = new Set((options.forbidden ?? []).map((f) => `${f.transactionIndex}\u0000${f.invoiceId}`));

  // Blocking index: invoices by currency and amount ('*' holds those of unknown currency).
  const byCurrency = new Map<string, Array<{ amount: number; index: number }>>();
  for (const p of prepared) {
    const amount = p.source.amountMinor;
    if (takenInv.has(p.index) || amount === null || !(amount > 0)) continue;
    const key = p.currency ?? '*';
    const list = byCurrency.get(key) ?? [];
    list.push({ amount, index: p.index });
    byCurrency.set(key, list);
  }
  const index = new Map([...byCurrency].map(([c, items]) => [c, new AmountIndex(items)]));

  // The statement's own rates: lines that state an original amount in another currency.
  const implied = new ImpliedRates();
  const texts: Array<TransactionText | null> = transactions.map((tx, i) => {
    if (tx.type !== 'debit' || takenTx.has(i) || !(tx.amountMinor > 0)) return null;
    return transactionText(tx);
  });
  const stated = transactions.map((tx) => statedAmounts(`${tx.description} ${tx.reference ?? ''}`));
  transactions.forEach((tx, ti) => {
    if (!(tx.amountMinor > 0)) return;
    const own = tx.currency.toUpperCase();
    for (const s of stated[ti]!) {
      if (s.currency === own) continue;
      implied.add(
        s.currency,
        own,
        majorOf(tx.amountMinor, own) / majorOf(s.minor, s.currency),
        dayNumber(tx.date) ?? 0,
      );
    }
  });

  // Candidates.
  const candidates: Candidate[] = [];
  transactions.forEach((tx, ti) => {
    const mine: Candidate[] = [];
    const text = texts[ti];
    if (!text) return;
    const own = tx.currency.toUpperCase();
    const seen = new Set<number>();
    const txDay = dayNumber(tx.date);
    const consider = (invIndex: number) => {
      if (seen.has(invIndex)) return;
      seen.add(invIndex);
      const inv = prepared[invIndex]!;
      if (forbidden.size > 0 && forbidden.has(`${ti}\u0000${inv.source.id}`)) return;
      // The widest date window there is, before any text work.
      if (txDay !== null && inv.day !== null) {
        const days = txDay - inv.day;
        if (days < EARLIEST_DAYS_WITH_NUMBER || days > LATEST_DAYS_WITH_NUMBER) return;
      }
      const c = scorePair(ti, tx, text, stated[ti]!, inv, implied, false, threshold);
      if (c) mine.push(c);
    };
    const amount = tx.amountMinor;
    for (const key of [own, '*']) {
      // An invoice x within its fee tolerance of this amount is at most FEE_MAX above it: bound the look-up so.
      const bound = feeToleranceMinor(amount + FEE_MAX_MAJOR * unitOf(own), own) + 1;
      const found: number[] = [];
      index.get(key)?.collect(amount - bound, amount + bound, found);
      for (const i of found) {
        const invAmount = prepared[i]!.source.amountMinor!;
        if (Math.abs(amount - invAmount) <= feeToleranceMinor(invAmount, own)) consider(i);
      }
    }
    for (const [currency, idx] of index) {
      if (currency === own || currency === '*') continue;
      for (const s of stated[ti]!) {
        if (s.currency !== currency) continue;
        const found: number[] = [];
        idx.collect(s.minor, s.minor, found);
        for (const i of found) consider(i);
      }
      const day = dayNumber(tx.date) ?? 0;
      for (const rate of [implied.get(currency, own, day), tableRate(currency, own, tx.date)]) {
        if (rate === null) continue;
        // The invoice amounts that convert to this payment, within the wider (table) tolerance.
        const center = (majorOf(amount, own) / rate) * unitOf(currency);
        const found: number[] = [];
        idx.collect(center / (1 + FX_TOLERANCE_TABLE) - 1, center / (1 - FX_TOLERANCE_TABLE) + 1, found);
        for (const i of found) consider(i);
      }
    }
    // Thousands of equal amounts: only a transaction's best candidates can matter to the assignment.
    if (mine.length > MAX_CANDIDATES_PER_TRANSACTION) {
      mine.sort((a, b) => b.score - a.score || Math.abs(a.inv - ti) - Math.abs(b.inv - ti));
      mine.length = MAX_CANDIDATES_PER_TRANSACTION;
    }
    for (const c of mine) candidates.push(c);
  });

  const chosen = solve(candidates, transactions.length, invoices.length);
  for (const c of chosen.pairs) {
    matches.push({
      transactionIndex: c.tx,
      invoiceId: prepared[c.inv]!.source.id,
      score: Math.round(c.score * 1000) / 1000,
      explanation: explain(c, transactions[c.tx]!, prepared[c.inv]!),
      manual: false,
    });
  }
  matches.sort((a, b) => a.transactionIndex - b.transactionIndex);
  return {
    matches,
    stats: { candidates: candidates.length, components: chosen.components, largestComponent: chosen.largest },
  };
}

const unitCache = new Map<string, number>();

/** 10 ^ decimals of a currency: 100 for EUR, 1 for JPY. */
function unitOf(currency: string): number {
  let unit = unitCache.get(currency);
  if (unit === undefined) {
    unit = 10 ** currencyDecimals(currency);
    unitCache.set(currency, unit);
  }
  return unit;
}

function majorOf(minor: number, currency: string): number {
  return minor / unitOf(currency);
}

/** The evidence for one pair and its score, or null when the amounts cannot be the same payment. */
function scorePair(
  ti: number,
  tx: ReconcileTransaction,
  text: TransactionText,
  stated: ReadonlyArray<{ currency: string; minor: number }>,
  inv: PreparedInvoice,
  implied: ImpliedRates,
  manual: boolean,
  threshold = 0,
): Candidate | null {
  const invAmount = inv.source.amountMinor;
  if (invAmount === null || !(invAmount > 0)) return null;
  const own = tx.currency.toUpperCase();
  const currency = inv.currency ?? own;
  const amount = amountEvidence(tx, own, stated, invAmount, currency, implied);
  if (!amount && !manual) return null;

  const txDay = dayNumber(tx.date);
  const days = txDay !== null && inv.day !== null ? txDay - inv.day : null;
  const number = inv.numberKey !== null && containsInvoiceNumber(inv.numberKey, text);
  const iban = inv.iban !== null && text.ibans.has(inv.iban);
  if (days !== null && !manual) {
    const early = number ? EARLIEST_DAYS_WITH_NUMBER : EARLIEST_DAYS;
    const late = number ? LATEST_DAYS_WITH_NUMBER : LATEST_DAYS;
    if (days < early || days > late) return null;
    // An approximate amount from a late payment is a guess unless the invoice number or IBAN backs it.
    if (amount && amount.kind !== 'equal' && amount.kind !== 'stated' && days > FEE_FX_LATEST_DAYS && !number) {
      if (!(inv.iban !== null && text.ibans.has(inv.iban))) return null;
    }
  }
  const vendor = vendorEvidence(inv.vendor, text);

  const kinds = (number ? 1 : 0) + (iban ? 1 : 0) + (vendor.score >= 0.5 ? 1 : 0);
  let textScore = Math.max(number ? 1 : 0, iban ? 0.9 : 0, 0.85 * vendor.score);
  if (kinds >= 2) textScore = Math.min(1, textScore + 0.1);

  // Another name where the vendor's should be speaks against the pair.
  let mismatch: string | null = null;
  let penalty = 0;
  if (textScore === 0 && !vendor.resembles) {
    const counterpartyWords = text.counterpartyTokens.filter((t) => text.nameLikeTokens.includes(t));
    if (counterpartyWords.length > 0) {
      mismatch = `the counterparty is '${tx.counterpartyName}'`;
      penalty = 0.25;
    } else if (text.nameLikeTokens.length > 0) {
      mismatch = `the description names '${text.nameLikeTokens.slice(0, 2).join(' ').toUpperCase()}'`;
      penalty = 0.15;
    }
  }
  const score = Math.max(
    0,
    Math.min(
      1,
      WEIGHT_AMOUNT * (amount?.score ?? 0) + WEIGHT_DATE * dateScore(days) + WEIGHT_TEXT * textScore - penalty,
    ),
  );
  if (score < threshold) return null;
  return {
    tx: ti,
    inv: inv.index,
    score,
    amount: amount ?? { kind: 'table', score: 0, detailMinor: Number.NaN },
    days,
    number,
    iban,
    vendor,
    mismatch,
  };
}

function amountEvidence(
  tx: ReconcileTransaction,
  own: string,
  stated: ReadonlyArray<{ currency: string; minor: number }>,
  invAmount: number,
  currency: string,
  implied: ImpliedRates,
): AmountEvidence | null {
  if (currency === own) {
    const diff = tx.amountMinor - invAmount;
    if (diff === 0) return { kind: 'equal', score: isRound(invAmount, currency) ? 0.8 : 1, detailMinor: 0 };
    const tolerance = feeToleranceMinor(invAmount, currency);
    if (Math.abs(diff) > tolerance) return null;
    return { kind: 'fee', score: 0.6 - 0.3 * (Math.abs(diff) / tolerance), detailMinor: diff };
  }
  if (stated.some((s) => s.currency === currency && s.minor === invAmount)) {
    return { kind: 'stated', score: 0.95, detailMinor: invAmount };
  }
  // The statement's own rate first (tighter), then the bundled table.
  const sources = [
    {
      kind: 'implied' as const,
      rate: implied.get(currency, own, dayNumber(tx.date) ?? 0),
      tolerance: FX_TOLERANCE_IMPLIED,
      top: 0.75,
    },
    { kind: 'table' as const, rate: tableRate(currency, own, tx.date), tolerance: FX_TOLERANCE_TABLE, top: 0.65 },
  ];
  for (const { kind, rate, tolerance, top } of sources) {
    if (rate === null) continue;
    const converted = Math.round(majorOf(invAmount, currency) * rate * unitOf(own));
    const off = Math.abs(tx.amountMinor - converted) / converted;
    if (off <= tolerance) return { kind, score: top - 0.3 * (off / tolerance), detailMinor: converted, rate };
  }
  return null;
}

function explain(c: Candidate, tx: ReconcileTransaction, inv: PreparedInvoice): string {
  const own = tx.currency.toUpperCase();
  const currency = inv.currency ?? own;
  const invAmount = inv.source.amountMinor ?? 0;
  const parts: string[] = [];
  const money = (minor: number, cur: string) => `${minorUnitsToDecimal(minor, cur)} ${cur}`;
  switch (c.amount.kind) {
    case 'equal':
      parts.push(inv.currency ? 'amount equal' : `amount equal (invoice currency unknown, taken as ${own})`);
      break;
    case 'fee':
      parts.push(
        `amount ${money(Math.abs(c.amount.detailMinor), currency)} ${c.amount.detailMinor > 0 ? 'more' : 'less'} than the invoice (within the fee tolerance)`,
      );
      break;
    case 'stated':
      parts.push(`invoice amount ${money(invAmount, currency)} stated in the description`);
      break;
    default: {
      if (Number.isNaN(c.amount.detailMinor)) {
        parts.push(`amount ${money(tx.amountMinor, own)} against ${money(invAmount, currency)} on the invoice`);
        break;
      }
      const off = (Math.abs(tx.amountMinor - c.amount.detailMinor) / c.amount.detailMinor) * 100;
      const source = c.amount.kind === 'implied' ? "the statement's own rate" : FX_TABLE_SOURCE;
      parts.push(
        `${money(invAmount, currency)} ≈ ${money(c.amount.detailMinor, own)} at ${c.amount.rate!.toFixed(4)} (${source}), paid ${money(tx.amountMinor, own)} (${off.toFixed(1)} % off)`,
      );
    }
  }
  if (c.days === null) parts.push('invoice date unknown');
  else if (c.days === 0) parts.push('paid on the invoice date');
  else {
    const n = Math.abs(c.days);
    parts.push(`paid ${n} day${n === 1 ? '' : 's'} ${c.days > 0 ? 'after' : 'before'} the invoice date`);
  }
  if (c.number) parts.push(`invoice number '${inv.source.invoiceNumber}' in the description`);
  if (c.iban)
    parts.push(`vendor IBAN ${inv.iban} ${tx.counterpartyIban ? 'as the counterparty' : 'in the description'}`);
  if (c.vendor.found.length > 0 && c.vendor.score > 0) {
    const words = c.vendor.found.map((w) => w.toUpperCase()).join(' ');
    parts.push(`'${words}' ${c.vendor.inCounterparty ? 'as the counterparty' : 'in the description'}`);
  }
  if (c.mismatch) parts.push(c.mismatch);
  if (!c.number && !c.iban && c.vendor.score === 0 && !c.mismatch) parts.push('no name or number to confirm it');
  return parts.join(', ');
}

/** The best one-to-one choice among the candidates: connected components, each solved by the Hungarian algorithm. */
function solve(
  candidates: Candidate[],
  txCount: number,
  invCount: number,
): { pairs: Candidate[]; components: number; largest: number } {
  const pairs: Candidate[] = [];
  let components = 0;
  let largest = 0;
  for (const group of splitComponents(candidates, txCount, invCount)) {
    const rows = [...new Set(group.map((c) => c.tx))];
    const cols = [...new Set(group.map((c) => c.inv))];
    components++;
    largest = Math.max(largest, rows.length + cols.length);
    // Too large for the cubic algorithm (thousands of equal amounts of one vendor, never seen on real statements):
    // best pairs first, ties in list order. Bounded time instead of an exact optimum.
    pairs.push(
      ...(rows.length * cols.length > MAX_COMPONENT_CELLS
        ? solveGreedy(group, txCount, invCount)
        : solveComponent(group, rows, cols)),
    );
  }
  return { pairs, components, largest };
}

function solveGreedy(group: Candidate[], txCount: number, invCount: number): Candidate[] {
  const skew = (c: Candidate) => Math.abs(c.tx / Math.max(1, txCount) - c.inv / Math.max(1, invCount));
  const sorted = [...group].sort((a, b) => b.score - a.score || skew(a) - skew(b) || a.tx - b.tx);
  const txs = new Set<number>();
  const invs = new Set<number>();
  const out: Candidate[] = [];
  for (const c of sorted) {
    if (txs.has(c.tx) || invs.has(c.inv)) continue;
    txs.add(c.tx);
    invs.add(c.inv);
    out.push(c);
  }
  return out;
}

function splitComponents(candidates: Candidate[], txCount: number, invCount: number): Candidate[][] {
  // Union-find over transactions [0, txCount) and invoices [txCount, txCount + invCount).
  const parent = new Int32Array(txCount + invCount).map((_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (const c of candidates) {
    const a = find(c.tx);
    const b = find(txCount + c.inv);
    if (a !== b) parent[a] = b;
  }
  const groups = new Map<number, Candidate[]>();
  for (const c of candidates) {
    const root = find(c.tx);
    const list = groups.get(root);
    if (list) list.push(c);
    else groups.set(root, [c]);
  }
  return [...groups.values()];
}

function solveComponent(group: Candidate[], rows: number[], cols: number[]): Candidate[] {
  if (group.length === 1) return group;
  // Ties (identical invoices, identical payments) go in order: earlier payment to earlier invoice, by a cost far
  // smaller than any real score difference.
  rows.sort((a, b) => a - b);
  cols.sort((a, b) => a - b);
  const rowAt = new Map(rows.map((r, i) => [r, i]));
  const colAt = new Map(cols.map((c, i) => [c, i]));
  const matrix = rows.map(() => new Float64Array(cols.length));
  const cell: Array<Array<Candidate | undefined>> = rows.map(() => new Array(cols.length));
  const rn = Math.max(1, rows.length - 1);
  const cn = Math.max(1, cols.length - 1);
  for (const c of group) {
    const r = rowAt.get(c.tx)!;
    const k = colAt.get(c.inv)!;
    const skew = r / rn - k / cn;
    matrix[r]![k] = -c.score + 1e-7 * skew * skew;
    cell[r]![k] = c;
  }
  const out: Candidate[] = [];
  for (const [r, k] of munkres(matrix)) {
    const c = cell[r]![k];
    if (c) out.push(c);
  }
  return out;
}
