import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decimalToMinorUnits } from '@invoicebox/core';
import { repoRoot } from '../../eval/eval.dataset';
import { parseOfx } from '../../src/bank/ofx.reader';
import type { ParsedStatement, StatementTransaction } from '../../src/bank/statement.types';

/**
 * Truth for ../shared/datasets/bank from each source project's own expected output, reduced to what we compare:
 * transactions (booking date, amount in minor units, debit/credit) and header fields per statement.
 */

export const bankDatasets = path.resolve(repoRoot(), '..', 'shared', 'datasets', 'bank');

export interface TruthTx {
  date: string;
  amountMinor: number;
  type: 'debit' | 'credit';
}

export interface TruthHeader {
  accountNumber?: string | null;
  currency?: string | null;
  openingBalanceMinor?: number | null;
  closingBalanceMinor?: number | null;
}

export interface TruthFile {
  file: string;
  transactions: TruthTx[];
  /** Header fields and the 0-based statement of the file they belong to. */
  headers: Array<{ index: number; fields: TruthHeader }>;
  /** The truth's transactions are only those of the file's last statement. */
  lastOnly?: boolean;
}

const minor = (decimal: string, currency: string | null) =>
  decimalToMinorUnits(decimal, currency ?? 'XXX') ?? Number.NaN;
const day = (s: string | null | undefined) => (s ? s.slice(0, 10) : '');

// biome-ignore lint/suspicious/noExplicitAny: the foreign expected dumps have no types of ours
type Json = Record<string, any>;

export function camtTruth(): TruthFile[] {
  const dir = path.join(bankDatasets, 'camt053');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .map((file) => {
      const exp = JSON.parse(readFileSync(path.join(dir, 'expected', file.replace(/\.xml$/, '.json')), 'utf8')) as Json;
      const headers: TruthHeader[] = [];
      const ids: string[] = [];
      const seen = new Set<string>();
      const transactions = (exp.getEntries as Json[]).map((e) => {
        const rec = e.getRecord as Json;
        if (rec && typeof rec === 'object' && !seen.has(rec.getId)) {
          seen.add(rec.getId);
          const bal = (type: string) => {
            const b = (rec.getBalances as Json[]).find((x) => x.getType === type);
            return b ? Number(b.getAmount.getAmount) : null;
          };
          headers.push({
            accountNumber: rec.getAccount?.getIdentification ?? null,
            openingBalanceMinor: bal('opening'),
            closingBalanceMinor: bal('closing'),
          });
          ids.push(String(rec.getId));
        }
        return {
          date: day(e.getBookingDate?.['0'] ?? e.getValueDate?.['0']),
          amountMinor: Math.abs(Number(e.getAmount.getAmount)),
          type: e.getCreditDebitIndicator === 'DBIT' ? 'debit' : 'credit',
        } as TruthTx;
      });
      // genkgo's Message::getEntries() dumps only the last statement's entries when a file holds several.
      const xml = readFileSync(path.join(dir, file), 'utf8');
      const stmtIds = [...xml.matchAll(/<Stmt>\s*<Id>([^<]*)<\/Id>/g)].map((m) => m[1]);
      return {
        file,
        transactions,
        headers: headers.map((fields, i) => ({ index: Math.max(0, stmtIds.indexOf(ids[i]!)), fields })),
        lastOnly: stmtIds.length > headers.length,
      };
    });
}

export function mt940Truth(): TruthFile[] {
  const dir = path.join(bankDatasets, 'mt940');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sta'))
    .map((file) => {
      const exp = JSON.parse(readFileSync(path.join(dir, 'expected', file.replace(/\.sta$/, '.json')), 'utf8')) as Json;
      const s = exp.statement as Json;
      const bal = (b: Json | undefined) => (b ? minor(b.amount.amount, b.amount.currency) : null);
      const transactions = (exp.transactions as Json[]).map((t) => {
        const amount = minor(t.amount.amount, t.amount.currency);
        return {
          date: day(t.entry_date ?? t.date),
          amountMinor: Math.abs(amount),
          type: amount < 0 ? 'debit' : 'credit',
        } as TruthTx;
      });
      // python-mt940 keeps one header: the last :25:, the last :60F: and the last :62F: of the file.
      const groups = readFileSync(path.join(dir, file), 'latin1').split(/^:20:/m).slice(1);
      const lastWith = (tag: string) => groups.map((g) => g.includes(tag)).lastIndexOf(true);
      const headers: TruthFile['headers'] = [];
      if (s.account_identification)
        headers.push({
          index: groups.length - 1,
          fields: { accountNumber: String(s.account_identification).replace(/\s+/g, '') },
        });
      if (s.final_opening_balance)
        headers.push({ index: lastWith(':60F:'), fields: { openingBalanceMinor: bal(s.final_opening_balance) } });
      if (s.final_closing_balance)
        headers.push({ index: lastWith(':62F:'), fields: { closingBalanceMinor: bal(s.final_closing_balance) } });
      return { file, transactions, headers };
    });
}

/**
 * csv2ofx's expected OFX conversions, read back with our OFX reader. Left out: the QIF ones, and mint.ofx, which
 * csv2ofx writes as transfers between two accounts (<INTRARS>), not as a statement.
 */
export function csvTruth(): Array<TruthFile & { csv: string }> {
  const dir = path.join(bankDatasets, 'csv');
  const pairs: Array<[string, string]> = readdirSync(path.join(dir, 'expected'))
    .filter((f) => f.endsWith('.ofx') && f !== 'mint.ofx')
    .map((f) => [f.replace(/\.ofx$/, '.csv').replace(/^n26\.csv$/, 'n26-fr.csv'), f]);
  return pairs.map(([csv, ofx]) => {
    const r = parseOfx(readFileSync(path.join(dir, 'expected', ofx), 'utf8'));
    const sts = r.ok ? r.statements : [];
    const transactions = sts.flatMap((s) =>
      s.transactions.map((t) => ({ date: t.date, amountMinor: t.amountMinor, type: t.type })),
    );
    return { file: ofx, csv, transactions: (CSV2OFX_CORRECTIONS[csv] ?? ((x) => x))(transactions), headers: [] };
  });
}

/**
 * Where csv2ofx's expected output is not what the CSV says, checked by hand against the file and csv2ofx's own test
 * set-up (expected/csv2ofx_test_cli.py); each correction says why.
 */
const CSV2OFX_CORRECTIONS: Record<string, (txs: TruthTx[]) => TruthTx[]> = {
  // csv2ofx's test sets AMAZON_EXCLUDE_CARDS=9876, which drops the order paid with that card; read without that
  // set-up, the file has three purchases.
  'amazon.csv': (txs) => [...txs, { date: '2022-10-11', amountMinor: 3412, type: 'debit' }],
  // dateutil read the ambiguous "08/04/2022" month first; the file is day-first (24/03/2022, 31/12/2022, 29/07/2022).
  'ingesp.csv': (txs) => txs.map((t) => (t.date === '2022-08-04' ? { ...t, date: '2022-04-08' } : t)),
};

/**
 * ofxparse's fixtures with hand-checked truth (ofx-truth.json: each <STMTTRN> read by eye, cross-checked with
 * ofxparse's own assertions where it makes them).
 */
export function ofxTruth(): TruthFile[] {
  const raw = JSON.parse(
    readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'ofx-truth.json'), 'utf8'),
  ) as {
    files: Array<{
      file: string;
      transactions: Array<[string, number, 'debit' | 'credit']>;
      headers: TruthFile['headers'];
    }>;
  };
  return raw.files.map((f) => ({
    file: f.file,
    transactions: f.transactions.map(([date, amountMinor, type]) => ({ date, amountMinor, type })),
    headers: f.headers,
  }));
}

export interface Score {
  truth: number;
  found: number;
  matched: number;
}

/** Multiset match: same date, amount within one minor unit (±0.01), same type; what is left on each side too. */
export function matchTransactions<T extends Pick<StatementTransaction, 'date' | 'amountMinor' | 'type'>>(
  truth: TruthTx[],
  ours: T[],
): Score & { missed: TruthTx[]; extra: T[] } {
  const left = [...truth];
  const extra: T[] = [];
  for (const t of ours) {
    const k = left.findIndex(
      (e) => e.date === t.date && e.type === t.type && Math.abs(e.amountMinor - t.amountMinor) <= 1,
    );
    if (k === -1) extra.push(t);
    else left.splice(k, 1);
  }
  return { truth: truth.length, found: ours.length, matched: ours.length - extra.length, missed: left, extra };
}

export function headerScore(
  truth: TruthFile,
  ours: ParsedStatement[],
): { fields: number; right: number; misses: string[] } {
  let fields = 0;
  let right = 0;
  const misses: string[] = [];
  const pairs: Array<[TruthHeader, ParsedStatement | undefined]> = truth.headers.map((h) => [h.fields, ours[h.index]]);
  for (const [h, st] of pairs) {
    for (const key of Object.keys(h) as Array<keyof TruthHeader>) {
      if (h[key] === undefined) continue;
      fields += 1;
      if (st && st[key] === h[key]) right += 1;
      else misses.push(`${truth.file}: ${key} expected ${h[key]} got ${st?.[key]}`);
    }
  }
  return { fields, right, misses };
}

export function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`;
}
