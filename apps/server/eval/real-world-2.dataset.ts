import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENT_TYPES, FIELD_NAMES } from '../src/extraction/extraction.types';
import { loadRealWorld, type RealWorldItem } from './real-world.eval';

/**
 * The second real-world corpus (eval/real-world-2, the sixth fresh sample, 2026-12): public invoices and receipts with
 * hand-checked truth in the schema of eval/real-world, loaded with `loadRealWorld(realWorld2Dir)` and scored beside
 * the first corpus by run-eval.ts. Its held-out rule is its own (below), not the first corpus' (hash of the name).
 */

export const realWorld2Dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'real-world-2');

export const REAL_WORLD_2_LABEL = 'real-world, sixth sample (2026-12)';

/** An entry as truth.json holds it: the scored fields (RealWorldItem) and its provenance. */
export interface RealWorld2Item extends RealWorldItem {
  source: string;
  path: string;
  commit: string;
  licence: string;
  sha256: string;
  /** A different amount the page prints as due (already paid, rounded); not scored. */
  amount_due?: number | null;
  note?: string;
  truth_from: string;
}

/** The corpus through the first corpus' loader, typed with its provenance. */
export const loadRealWorld2 = (dir = realWorld2Dir) =>
  loadRealWorld(dir) as Array<{ file: string; name: string; item: RealWorld2Item }>;

/** Fixed held-out rule, independent of content and reader: the first byte of the file's SHA-256 is divisible by 3. */
export const isRealWorld2HeldOut = (sha256: string) => Number.parseInt(sha256.slice(0, 2), 16) % 3 === 0;

/** The licence texts of a source in licenses/: named `<owner>__<repo>__<its file name>`. */
export const licenceFiles = (dir: string, source: string) =>
  readdirSync(path.join(dir, 'licenses')).filter((f) => f.startsWith(`${source.replace('/', '__')}__`));

const KINDS = ['text-pdf', 'scan-pdf', 'image', 'photo'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
function validDate(s: unknown): boolean {
  if (typeof s !== 'string' || !ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Everything wrong with one entry (empty when it is sound): file, hash, split rule, provenance, licence, fields. */
export function validateRealWorld2(
  file: string,
  item: RealWorld2Item,
  readmeText: string,
  dir = realWorld2Dir,
): string[] {
  const bad: string[] = [];
  const name = path.basename(file);
  if (!existsSync(file)) return [`${name}: file missing`];
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
  if (sha !== item.sha256) bad.push(`${name}: sha256 ${sha} differs from truth`);
  if (item.split !== (isRealWorld2HeldOut(sha) ? 'held-out' : 'dev'))
    bad.push(`${name}: split does not follow the sha256 rule`);
  for (const k of ['source', 'path', 'licence', 'language', 'truth_from'] as const)
    if (typeof item[k] !== 'string' || !item[k]) bad.push(`${name}: no ${k}`);
  if (typeof item.commit !== 'string' || !/^[0-9a-f]{40}$/.test(item.commit))
    bad.push(`${name}: commit is not a 40-hex id`);
  if (typeof item.source === 'string') {
    if (!readmeText.includes(item.source)) bad.push(`${name}: source ${item.source} not in README.md`);
    if (!licenceFiles(dir, item.source).length) bad.push(`${name}: no licence text for ${item.source} in licenses/`);
  }
  if (!KINDS.includes(item.kind)) bad.push(`${name}: kind ${item.kind}`);
  if (item.document_type !== undefined && !DOCUMENT_TYPES.includes(item.document_type))
    bad.push(`${name}: document_type ${item.document_type}`);
  if (item.vendor !== null && (typeof item.vendor !== 'string' || !item.vendor.trim()))
    bad.push(`${name}: vendor ${item.vendor}`);
  for (const k of ['amount', 'amount_due'] as const)
    if (item[k] !== null && item[k] !== undefined && !(typeof item[k] === 'number' && Number.isFinite(item[k])))
      bad.push(`${name}: ${k} ${item[k]}`);
  if (item.currency !== null && !(typeof item.currency === 'string' && /^[A-Z]{3}$/.test(item.currency)))
    bad.push(`${name}: currency ${item.currency}`);
  if (item.invoice_date !== null && !validDate(item.invoice_date))
    bad.push(`${name}: invoice_date ${item.invoice_date}`);
  if (item.invoice_number !== null && (typeof item.invoice_number !== 'string' || !item.invoice_number))
    bad.push(`${name}: invoice_number ${item.invoice_number}`);
  for (const f of item.unscored ?? []) if (!FIELD_NAMES.includes(f)) bad.push(`${name}: unscored ${f}`);
  return bad;
}
