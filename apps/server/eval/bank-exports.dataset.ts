import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type RealStatementField, toMinor } from './real-statements.dataset';

/**
 * The real bank export corpus (eval/bank-exports): CSV, OFX, camt.053 and MT940 exports and statement PDFs from
 * public repositories, taken in three rounds, with hand-checked truth, provenance and licence per file (README.md
 * there). Loading and validating only; it is scored by real-statements.eval.ts (runRealStatements with this corpus),
 * called from statement.eval.ts.
 */

export type BankExportFormat = 'csv' | 'ofx' | 'camt053' | 'mt940' | 'pdf';
export const BANK_EXPORT_FORMATS: readonly BankExportFormat[] = ['csv', 'ofx', 'camt053', 'mt940', 'pdf'];

export interface BankExportTx {
  /** Booking date, YYYY-MM-DD. */
  date: string;
  /** Positive; the direction is `type`. */
  amount: number;
  type: 'debit' | 'credit';
  /** A short description as printed (for reading the truth; not scored). */
  description?: string;
}

export interface BankExportTruth {
  format: BankExportFormat;
  kind: 'csv' | 'ofx' | 'xml' | 'mt940' | 'text-pdf' | 'scan-pdf';
  statement: 'bank' | 'credit-card';
  language: string;
  /** The file's character encoding as read (null for PDFs). */
  encoding: string | null;
  source: string;
  path: string;
  commit: string;
  licence: string;
  sha256: string;
  /** The sample round the file came in: 1 (fully used for tuning), 2 or 3. */
  round: 1 | 2 | 3;
  split: 'dev' | 'held-out';
  bank_name: string | null;
  account_number: string | null;
  start_date: string | null;
  end_date: string | null;
  /** ISO 4217; null where the file states none (then also unscored). */
  currency: string | null;
  opening_balance: number | null;
  closing_balance: number | null;
  /** Fields the file does not establish: left out of the header score ('language' only informs). */
  unscored: Array<RealStatementField | 'language'>;
  note: string;
  /** Rows in the file that are not transactions (pending, zero amounts), with the reason. */
  excluded_rows?: unknown[];
  transactions: BankExportTx[];
}

export const bankExportsDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'bank-exports');

/**
 * Fixed held-out rule, independent of content and reader: round 1 was fully used for tuning, so all of it is dev;
 * in rounds 2 and 3 a file is held out when the first byte of its SHA-256 is divisible by 3 (the rule their samples
 * were drawn with, frozen here).
 */
export const isBankExportHeldOut = (round: 1 | 2 | 3, sha256: string) =>
  round !== 1 && Number.parseInt(sha256.slice(0, 2), 16) % 3 === 0;

/** Minor units of an amount; a file without a currency counts in hundredths. */

export function loadBankExports(dir = bankExportsDir): Array<{ file: string; name: string; item: BankExportTruth }> {
  const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, BankExportTruth>;
  return Object.entries(truth).map(([name, item]) => ({ file: path.join(dir, 'files', name), name, item }));
}

/** The licence text every source must have in licenses/: `<owner>_<repo>.LICENSE`. */
export const licenceFile = (source: string) => `${source.replace('/', '_')}.LICENSE`;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
// A real calendar day (2023-02-30 and 2023-13-01 are not; an invalid Date has no ISO string, hence the NaN test).
function validDate(s: unknown): boolean {
  if (typeof s !== 'string' || !ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * Everything wrong with one entry (empty when it is sound): file, hash, split rule, provenance, header, rows, and
 * where both balances are numbers and scored, that the rows take the opening balance to the closing one.
 */
export function validateBankExport(file: string, item: BankExportTruth, readmeText: string): string[] {
  const bad: string[] = [];
  const name = path.basename(file);
  if (!existsSync(file)) return [`${name}: file missing`];
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (sha !== item.sha256) bad.push(`${name}: sha256 ${sha} differs from truth`);
  if (item.round !== 1 && item.round !== 2 && item.round !== 3) bad.push(`${name}: round ${item.round}`);
  if (item.split !== (isBankExportHeldOut(item.round, sha) ? 'held-out' : 'dev'))
    bad.push(`${name}: split does not follow the round and sha256 rule`);
  if (!BANK_EXPORT_FORMATS.includes(item.format)) bad.push(`${name}: format ${item.format}`);
  if (item.statement !== 'bank' && item.statement !== 'credit-card') bad.push(`${name}: statement ${item.statement}`);
  for (const k of ['source', 'path', 'licence', 'language'] as const) if (!item[k]) bad.push(`${name}: no ${k}`);
  if (!/^[0-9a-f]{40}$/.test(item.commit)) bad.push(`${name}: commit is not a 40-hex id`);
  if (!readmeText.includes(item.source)) bad.push(`${name}: source ${item.source} not in README.md`);
  if (item.currency !== null && !/^[A-Z]{3}$/.test(item.currency)) bad.push(`${name}: currency ${item.currency}`);
  for (const k of ['start_date', 'end_date'] as const)
    if (item[k] !== null && !validDate(item[k])) bad.push(`${name}: ${k} ${item[k]}`);
  for (const k of ['opening_balance', 'closing_balance'] as const)
    if (item[k] !== null && !(typeof item[k] === 'number' && Number.isFinite(toMinor(item[k], item.currency))))
      bad.push(`${name}: ${k} ${item[k]}`);
  if (!Array.isArray(item.transactions)) return [...bad, `${name}: no transactions list`];
  item.transactions.forEach((t, i) => {
    if (!validDate(t.date)) bad.push(`${name}#${i}: date ${t.date}`);
    if (!(typeof t.amount === 'number' && t.amount > 0 && Number.isFinite(toMinor(t.amount, item.currency))))
      bad.push(`${name}#${i}: amount ${t.amount}`);
    if (t.type !== 'debit' && t.type !== 'credit') bad.push(`${name}#${i}: type ${t.type}`);
  });
  // Only where both balances are stated and scored (hand-edited fixtures that do not add up have them unscored). A
  // card statement's balance is what is owed, so there debits add; OFX card files keep the bank's sign (LEDGERBAL).
  const scored = (k: RealStatementField) => !item.unscored.includes(k);
  if (
    typeof item.opening_balance === 'number' &&
    typeof item.closing_balance === 'number' &&
    scored('opening_balance') &&
    scored('closing_balance')
  ) {
    const sign = item.statement === 'credit-card' && item.format !== 'ofx' ? -1 : 1;
    const moved = item.transactions.reduce(
      (n, t) => n + (t.type === 'credit' ? sign : -sign) * toMinor(t.amount, item.currency),
      0,
    );
    const want = toMinor(item.closing_balance, item.currency) - toMinor(item.opening_balance, item.currency);
    if (moved !== want) bad.push(`${name}: rows move the balance by ${moved}, the header by ${want} (minor units)`);
  }
  return bad;
}
