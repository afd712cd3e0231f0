import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decimalToMinorUnits } from '@invoicebox/core';

/**
 * The real bank statement corpus (eval/real-statements): public statement PDFs with hand-checked truth, provenance and
 * licence per file (README.md there). Loading and validating only; the scoring is in real-statements.eval.ts.
 */

export interface RealStatementTx {
  /** Booking date, YYYY-MM-DD. */
  date: string;
  /** Positive; the direction is `type`. */
  amount: number;
  type: 'debit' | 'credit';
}

export type RealStatementField =
  | 'bank_name'
  | 'account_number'
  | 'start_date'
  | 'end_date'
  | 'currency'
  | 'opening_balance'
  | 'closing_balance';

export interface RealStatementTruth {
  source: string;
  path: string;
  commit: string;
  licence: string;
  sha256: string;
  split: 'dev' | 'held-out';
  kind: 'text-pdf' | 'scan-pdf';
  language: string;
  statement: 'bank' | 'credit-card';
  bank_name: string | null;
  account_number: string | null;
  start_date: string | null;
  end_date: string | null;
  currency: string;
  opening_balance?: number | null;
  closing_balance?: number | null;
  /** Header fields the page does not establish (e.g. two contradicting dates): left out of the header score. */
  unscored?: RealStatementField[];
  note?: string;
  transactions: RealStatementTx[];
}

export const realStatementsDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'real-statements');

/** Fixed held-out rule, independent of content and reader: the first hex digit of the file's SHA-256 is below 4. */
export const isHeldOut = (sha256: string) => Number.parseInt(sha256[0]!, 16) < 4;

/** A truth amount in minor units; a file that states no currency counts in hundredths. */
export const toMinor = (amount: number, currency: string | null) =>
  decimalToMinorUnits(String(amount), currency ?? '') ?? Number.NaN;

export function loadRealStatements(
  dir = realStatementsDir,
): Array<{ file: string; name: string; item: RealStatementTruth }> {
  const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, RealStatementTruth>;
  return Object.entries(truth).map(([name, item]) => ({ file: path.join(dir, 'files', name), name, item }));
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (s: unknown) =>
  typeof s === 'string' && ISO_DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** Everything wrong with one entry (empty when it is sound): file, hash, split rule, provenance, header, rows. */
export function validateRealStatement(file: string, item: RealStatementTruth, readmeText: string): string[] {
  const bad: string[] = [];
  const name = path.basename(file);
  if (!existsSync(file)) return [`${name}: file missing`];
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (sha !== item.sha256) bad.push(`${name}: sha256 ${sha} differs from truth`);
  if (item.split !== (isHeldOut(sha) ? 'held-out' : 'dev')) bad.push(`${name}: split does not follow the sha256 rule`);
  for (const k of ['source', 'path', 'licence'] as const) if (!item[k]) bad.push(`${name}: no ${k}`);
  if (!/^[0-9a-f]{40}$/.test(item.commit)) bad.push(`${name}: commit is not a 40-hex id`);
  if (!readmeText.includes(item.source)) bad.push(`${name}: source ${item.source} not in README.md`);
  if (!/^[A-Z]{3}$/.test(item.currency)) bad.push(`${name}: currency ${item.currency}`);
  for (const k of ['start_date', 'end_date'] as const)
    if (item[k] !== null && !validDate(item[k])) bad.push(`${name}: ${k} ${item[k]}`);
  if (!item.transactions.length) bad.push(`${name}: no transactions`);
  item.transactions.forEach((t, i) => {
    if (!validDate(t.date)) bad.push(`${name}#${i}: date ${t.date}`);
    if (!(typeof t.amount === 'number' && t.amount > 0 && Number.isFinite(toMinor(t.amount, item.currency))))
      bad.push(`${name}#${i}: amount ${t.amount}`);
    if (t.type !== 'debit' && t.type !== 'credit') bad.push(`${name}#${i}: type ${t.type}`);
  });
  // Where both balances are stated, the rows must take the opening balance to the closing one (a card statement's
  // balance is what is owed, so there debits add).
  if (typeof item.opening_balance === 'number' && typeof item.closing_balance === 'number') {
    const sign = item.statement === 'credit-card' ? -1 : 1;
    const moved = item.transactions.reduce(
      (n, t) => n + (t.type === 'credit' ? sign : -sign) * toMinor(t.amount, item.currency),
      0,
    );
    const want = toMinor(item.closing_balance, item.currency) - toMinor(item.opening_balance, item.currency);
    if (moved !== want) bad.push(`${name}: rows move the balance by ${moved}, the header by ${want} (minor units)`);
  }
  return bad;
}
