import { FIELD_NAMES, type FieldName } from '../src/extraction/extraction.types';
import { fold } from '../src/extraction/rules/date.parser';

export interface Truth {
  vendor: string | null;
  amount: number | null;
  currency: string | null;
  invoice_date: string | null;
  invoice_number: string | null;
}

const LEGAL =
  /\b(gmbh|ag|kg|co|ug|e\.?k|sarl|sas|sa|eurl|srl|s\.?r\.?l|spa|s\.?p\.?a|snc|s\.?l\.?u?|bv|b\.?v|nv|n\.?v|vof|ltd|limited|llc|inc|corp|plc|pvt|private)\b\.?/g;

/** Company names compare without case, accents, punctuation and legal form; one may contain the other. */
export function sameVendor(got: string, want: string): boolean {
  const norm = (s: string) =>
    fold(s)
      .replace(/[.,&'’"()\-–:;]/g, ' ')
      .replace(LEGAL, ' ')
      // "Paper & Pinecone" and "Paper and Pinecone Ltd": the ampersand written out.
      .replace(/\b(?:and|und|et|en|y)\b/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const a = norm(got);
  const b = norm(want);
  if (!a || !b) return a === b;
  // "Wal-Mart" and "WALMART": the same letters, spaced or hyphenated otherwise.
  if (a === b || a.replace(/ /g, '') === b.replace(/ /g, '')) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && ` ${long} `.includes(` ${short} `);
}

/** Invoice numbers compare without surrounding "#", spaces and case. */
export function sameNumber(got: string, want: string): boolean {
  const norm = (s: string) => s.replace(/^#/, '').replace(/\s+/g, '').toLowerCase();
  return norm(got) === norm(want);
}

/** Exact name up to case, accents, spacing and trailing punctuation (used where the truth is the printed name). */
export function sameVendorStrict(got: string, want: string): boolean {
  const norm = (s: string) =>
    fold(s)
      .replace(/\s+/g, ' ')
      .replace(/[\s.,;:]+$/, '')
      .trim();
  return norm(got) === norm(want);
}

export function fieldCorrect(field: FieldName, got: unknown, want: unknown, strictVendor = false): boolean {
  if (want === null || want === undefined) return got === null || got === undefined;
  if (got === null || got === undefined) return false;
  switch (field) {
    case 'amount':
      return Math.abs(Number(got) - Number(want)) < 0.005;
    case 'vendor':
      return strictVendor ? sameVendorStrict(String(got), String(want)) : sameVendor(String(got), String(want));
    case 'invoice_number':
      return sameNumber(String(got), String(want));
    default:
      return got === want;
  }
}

export interface SetScore {
  name: string;
  strictVendor: boolean;
  files: number;
  correct: Record<FieldName, number>;
  allCorrect: number;
  errors: number;
  totalMs: number;
  failures: Array<{ file: string; field: FieldName; got: unknown; want: unknown }>;
}

export function newScore(name: string, strictVendor = false): SetScore {
  return {
    name,
    strictVendor,
    files: 0,
    correct: Object.fromEntries(FIELD_NAMES.map((f) => [f, 0])) as Record<FieldName, number>,
    allCorrect: 0,
    errors: 0,
    totalMs: 0,
    failures: [],
  };
}

export function score(
  s: SetScore,
  file: string,
  got: Record<FieldName, unknown>,
  want: Truth,
  ms: number,
  failed: boolean,
) {
  s.files++;
  s.totalMs += ms;
  if (failed) s.errors++;
  let all = true;
  for (const f of FIELD_NAMES) {
    if (fieldCorrect(f, got[f], want[f], s.strictVendor)) s.correct[f]++;
    else {
      all = false;
      s.failures.push({ file, field: f, got: got[f], want: want[f] });
    }
  }
  if (all) s.allCorrect++;
}

export function formatScore(s: SetScore): string {
  const pct = (n: number) => `${((100 * n) / Math.max(s.files, 1)).toFixed(1)}%`;
  const cols = FIELD_NAMES.map((f) => `${f} ${pct(s.correct[f])}`).join('  ');
  return `${s.name.padEnd(24)} n=${String(s.files).padEnd(4)} ${cols}  all-5 ${pct(s.allCorrect)}  errors ${s.errors}  ${(s.totalMs / Math.max(s.files, 1)).toFixed(1)} ms/file`;
}
