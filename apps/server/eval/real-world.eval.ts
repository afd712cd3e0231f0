import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LOW_CONFIDENCE } from '../src/extraction/confidence';
import { type DocumentType, FIELD_NAMES, type FieldName } from '../src/extraction/extraction.types';
import { fieldCorrect, type Truth } from './eval.scoring';

/**
 * The real-world corpus (eval/real-world): public invoices and receipts with hand-checked truth. Scored with the same
 * comparison rules as the shared datasets (lenient vendor match). Fields listed in an item's `unscored` were not
 * established by reading the document and are left out of its field and all-5 counts. The held-out part (a fixed
 * fifth, chosen by the hash of the file name) is reported apart: read its score only, never its single misses.
 */

export interface RealWorldItem extends Truth {
  kind: 'text-pdf' | 'scan-pdf' | 'photo' | 'image';
  language: string;
  split: 'dev' | 'held-out';
  unscored?: FieldName[];
  /** What the document is (invoice, receipt, credit_note...), read on it. */
  document_type?: DocumentType;
}

export const realWorldDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'real-world');

export function loadRealWorld(dir = realWorldDir): Array<{ file: string; name: string; item: RealWorldItem }> {
  const truth = JSON.parse(readFileSync(path.join(dir, 'truth.json'), 'utf8')) as Record<string, RealWorldItem>;
  return Object.entries(truth).map(([name, item]) => ({ file: path.join(dir, 'files', name), name, item }));
}

interface Tally {
  files: number;
  all: number;
  right: Record<FieldName, number>;
  scored: Record<FieldName, number>;
}

const newTally = (): Tally => ({
  files: 0,
  all: 0,
  right: Object.fromEntries(FIELD_NAMES.map((f) => [f, 0])) as Record<FieldName, number>,
  scored: Object.fromEntries(FIELD_NAMES.map((f) => [f, 0])) as Record<FieldName, number>,
});

export interface RealWorldResult {
  name: string;
  item: RealWorldItem;
  got: Record<FieldName, unknown> & { document_type?: DocumentType | null };
  /** Each field's confidence as the extractor stated it (null: no value). */
  confidence?: Partial<Record<FieldName, number | null>>;
  ms: number;
  /** The document's read error (sandbox crash, time-out, unreadable file), if any: it then counts as all wrong. */
  error?: string;
}

/** Per-field and all-5 accuracy for a group; `misses` lists the wrong scored fields (dev only). */
export function tallyRealWorld(results: RealWorldResult[]) {
  const t = newTally();
  const misses: Array<{ file: string; field: FieldName; got: unknown; want: unknown }> = [];
  for (const r of results) {
    t.files++;
    let all = true;
    for (const f of FIELD_NAMES) {
      if (r.item.unscored?.includes(f)) continue;
      t.scored[f]++;
      if (fieldCorrect(f, r.got[f], r.item[f], false)) t.right[f]++;
      else {
        all = false;
        misses.push({ file: r.name, field: f, got: r.got[f], want: r.item[f] });
      }
    }
    if (all) t.all++;
  }
  return { tally: t, misses };
}

export function formatTally(label: string, t: Tally, ms?: number): string {
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '  -  ');
  const cols = FIELD_NAMES.map((f) => `${f} ${pct(t.right[f], t.scored[f])}`).join('  ');
  const time = ms === undefined ? '' : `  ${(ms / Math.max(t.files, 1)).toFixed(1)} ms/file`;
  return `${label.padEnd(34)} n=${String(t.files).padEnd(4)} ${cols}  all-5 ${pct(t.all, t.files)}${time}`;
}

/**
 * Groups: dev and held-out overall, then by kind and by language within each split. `label` names the corpus on the
 * split lines ('real-world dev'); another corpus (eval/real-world-2) is reported under its own.
 */
export function reportRealWorld(results: RealWorldResult[], verbose: boolean, label = 'real-world'): string[] {
  const lines: string[] = [];
  for (const split of ['dev', 'held-out'] as const) {
    const part = results.filter((r) => r.item.split === split);
    if (!part.length) continue;
    const { tally, misses } = tallyRealWorld(part);
    const ms = part.reduce((n, r) => n + r.ms, 0);
    lines.push(formatTally(`${label} ${split}`, tally, ms));
    // A document whose read failed (a crashed or timed-out sandbox child) is reported, never silently dropped.
    const failed = part.filter((r) => r.error);
    if (failed.length)
      lines.push(
        split === 'dev'
          ? `  ${split} read errors: ${failed.map((r) => `${r.name} (${r.error})`).join(', ')}`
          : `  ${split} read errors: ${failed.length} document(s)`,
      );
    const groups = (key: 'kind' | 'language') => [...new Set(part.map((r) => r.item[key]))].sort();
    for (const key of ['kind', 'language'] as const)
      for (const g of groups(key))
        lines.push(formatTally(`  ${split} ${g}`, tallyRealWorld(part.filter((r) => r.item[key] === g)).tally));
    const calibration = confidenceReport(part);
    if (calibration) lines.push(`  ${split} ${calibration}`);
    lines.push(formatTypeTally(`  ${split} document type`, part, verbose && split === 'dev'));
    // Held out: its single misses are never printed.
    if (verbose && split === 'dev')
      for (const m of misses)
        lines.push(`    ${m.file}  ${m.field}: got ${JSON.stringify(m.got)} want ${JSON.stringify(m.want)}`);
  }
  return lines;
}

/**
 * How well the stated confidence tells right from wrong, over the fields with a value: the share right per confidence
 * band, and how many of the wrong ones the card's low-confidence mark (below LOW_CONFIDENCE) catches and at what cost
 * (right fields marked too).
 */
export function confidenceReport(results: RealWorldResult[]): string | null {
  const edges = [0.5, 0.6, 0.7, 0.8, 0.9];
  const bands = Array.from({ length: edges.length + 1 }, () => ({ n: 0, right: 0 }));
  let [wrong, caught, markedRight] = [0, 0, 0];
  for (const r of results) {
    if (!r.confidence) continue;
    for (const f of FIELD_NAMES) {
      const c = r.confidence[f];
      if (r.item.unscored?.includes(f) || c === null || c === undefined) continue;
      const band = bands[edges.filter((e) => c >= e).length]!;
      const right = fieldCorrect(f, r.got[f], r.item[f], false);
      band.n++;
      if (right) band.right++;
      else wrong++;
      if (c < LOW_CONFIDENCE) {
        if (right) markedRight++;
        else caught++;
      }
    }
  }
  if (bands.every((b) => b.n === 0)) return null;
  const label = (i: number) => (i === 0 ? `<${edges[0]}` : `${edges[i - 1]}+`);
  const cols = bands
    .map((b, i) => `${label(i)} ${b.n ? `${Math.round((100 * b.right) / b.n)}%/${b.n}` : '-'}`)
    .join('  ');
  return `confidence (right%/fields): ${cols}; marked < ${LOW_CONFIDENCE}: ${caught} of ${wrong} wrong, ${markedRight} right`;
}

/**
 * How often the document's type was read right, over the documents whose type was read (an image with --no-ocr
 * has none) and that carry a `document_type` in truth.json.
 */
export function formatTypeTally(label: string, results: RealWorldResult[], listMisses: boolean): string {
  const typed = results.filter((r) => r.item.document_type);
  const read = typed.filter((r) => r.got.document_type);
  const wrong = read.filter((r) => r.got.document_type !== r.item.document_type);
  const right = read.length - wrong.length;
  const pct = read.length ? `${((100 * right) / read.length).toFixed(1)}%` : '  -  ';
  let line = `${label.padEnd(34)} n=${String(read.length).padEnd(4)} right ${right} (${pct}), not read ${typed.length - read.length}`;
  if (listMisses && wrong.length) {
    line += wrong
      .map((r) => `\n    ${r.name}  document_type: got ${r.got.document_type} want ${r.item.document_type}`)
      .join('');
  }
  return line;
}
