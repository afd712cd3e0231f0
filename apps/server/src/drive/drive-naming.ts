/**
 * Names of folders and files in the person's drive. Pure functions; the adapters apply `safeDriveName` again to
 * whatever they are given, so a name that reaches a drive can never be a path, a hidden file or a reserved device
 * name, whatever the mail contained.
 *
 * Rules (the strictest of Windows, macOS, Linux, Google Drive and common WebDAV servers, so that a synced copy of the
 * drive works everywhere): NFC; no control characters, no bidi overrides (they disguise extensions: "fdp.exe"
 * shown as "exe.pdf"); no / \ : | (replaced by '-') and no < > " ? * (removed); no leading dots or spaces (hidden
 * files, '.' and '..'), no trailing dots or spaces (Windows drops them); Windows device names (CON, NUL, COM1...)
 * get a leading '_'; at most 120 UTF-8 bytes, cut at a character boundary with the extension kept.
 */

import path from 'node:path';

export const MAX_NAME_BYTES = 120;
const FALLBACK_NAME = 'invoice';

/** ['Invoices', 'YYYY', 'MM'] of the invoice date, or of `fallback` (the mail's date, in UTC) when it has none. */
export function driveFolderFor(date: string | null, fallback: Date): string[] {
  const parsed = parseInvoiceDate(date) ?? fromInstant(fallback) ?? fromInstant(new Date())!;
  return ['Invoices', parsed.year, parsed.month];
}

/** `2026-03-14 Acme GmbH INV-2026-001.pdf`: date, vendor and number as far as known, the original extension. */
export function driveFileName(input: {
  date: string | null;
  vendor: string | null;
  invoiceNumber: string | null;
  originalName: string;
}): string {
  const date = parseInvoiceDate(input.date);
  const { stem: originalStem, ext } = splitExtension(input.originalName);
  const parts = [date ? `${date.year}-${date.month}-${date.day}` : null, input.vendor, input.invoiceNumber]
    .map((p) => (p ? cleanText(p) : ''))
    .filter(Boolean);
  // With nothing known about the invoice, the attachment's own name is better than 'invoice'.
  const stem = parts.length > 0 ? parts.join(' ') : cleanText(originalStem);
  return assemble(stem, ext ? ext.toLowerCase() : null);
}

/**
 * The documents of one invoice as they are filed (in the drive and in the ZIP export): each distinct file once, in the
 * folder of the invoice date (the mail's date when it has none), named by date, vendor and number; a file beside the
 * main document (`mainSha256`, else the first) adds its own name, so the two never collide.
 */
export function invoiceDocuments<F extends { sha256: string; filename: string }>(
  invoice: {
    invoiceDate: string | null;
    vendor: string | null;
    invoiceNumber: string | null;
    mailDate: Date | string | null;
    mainSha256: string | null;
  },
  files: readonly F[],
): { folder: string[]; documents: Array<{ file: F; name: string; main: boolean }> } {
  const mailDate = invoice.mailDate ? new Date(invoice.mailDate) : new Date();
  const folder = driveFolderFor(invoice.invoiceDate, Number.isNaN(mailDate.getTime()) ? new Date() : mailDate);
  const mainSha = files.some((f) => f.sha256 === invoice.mainSha256) ? invoice.mainSha256 : files[0]?.sha256;
  const seen = new Set<string>();
  const documents: Array<{ file: F; name: string; main: boolean }> = [];
  for (const file of files) {
    if (seen.has(file.sha256)) continue; // the same bytes attached twice are one file
    seen.add(file.sha256);
    const main = file.sha256 === mainSha;
    const extra = main ? null : path.parse(file.filename).name;
    const name = driveFileName({
      date: invoice.invoiceDate,
      vendor: invoice.vendor,
      invoiceNumber: [invoice.invoiceNumber, extra].filter(Boolean).join(' ') || null,
      originalName: file.filename,
    });
    documents.push({ file, name, main });
  }
  return { folder, documents };
}

/** `name` made safe for a drive (see the rules above); idempotent, so already safe names stay as they are. */
export function safeDriveName(name: string, fallback = FALLBACK_NAME): string {
  const { stem, ext } = splitExtension(name);
  return assemble(cleanText(stem), ext ? ext.toLowerCase() : null, fallback);
}

/** `stem (n).ext`, still within the byte limit. */
export function suffixedName(name: string, n: number): string {
  const { stem, ext } = splitExtension(name);
  const suffix = ` (${n})`;
  const tail = ext ? `.${ext}` : '';
  const room = MAX_NAME_BYTES - byteLength(suffix + tail);
  return `${cutToBytes(stem || FALLBACK_NAME, room).trimEnd()}${suffix}${tail}`;
}

/** Content type for serving a file from a drive that does not keep one (local folder, most WebDAV servers). */
export function contentTypeFor(name: string): string {
  const ext = splitExtension(name).ext?.toLowerCase();
  const types: Record<string, string> = {
    pdf: 'application/pdf',
    xml: 'application/xml',
    json: 'application/json',
    txt: 'text/plain; charset=utf-8',
    csv: 'text/csv; charset=utf-8',
    html: 'text/html; charset=utf-8',
    htm: 'text/html; charset=utf-8',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    tif: 'image/tiff',
    tiff: 'image/tiff',
    eml: 'message/rfc822',
    zip: 'application/zip',
  };
  return (ext && types[ext]) || 'application/octet-stream';
}

// ---- internals ----

interface DateParts {
  year: string;
  month: string;
  day: string;
}

/**
 * 'YYYY-MM-DD...' is taken as written (no time zone shift); anything else `Date` can parse is read in local time,
 * which is how `Date` read it. Impossible dates (2026-02-30) and implausible years are no date at all.
 */
function parseInvoiceDate(date: string | null): DateParts | null {
  if (!date) return null;
  const iso = /^\s*(\d{4})-(\d{2})-(\d{2})(?:$|[T\s])/.exec(date);
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
    return plausible(year, month, day);
  }
  const parsed = new Date(date);
  if (Number.isNaN(parsed.getTime())) return null;
  return plausible(parsed.getFullYear(), parsed.getMonth() + 1, parsed.getDate());
}

function fromInstant(date: Date): DateParts | null {
  if (Number.isNaN(date.getTime())) return null;
  return plausible(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

function plausible(year: number, month: number, day: number): DateParts | null {
  if (year < 1970 || year > 2199) return null;
  return { year: String(year), month: String(month).padStart(2, '0'), day: String(day).padStart(2, '0') };
}

/** The extension when it looks like one (1–8 letters or digits after the last dot of a non-empty stem). */
function splitExtension(name: string): { stem: string; ext: string | null } {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  if (/^[A-Za-z0-9]{1,8}$/.test(ext) && name.slice(0, dot).replace(/^[\s.]+/, '') !== '') {
    return { stem: name.slice(0, dot), ext };
  }
  return { stem: name, ext: null };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** Bidi embeddings, overrides, isolates and marks, the BOM and the interlinear annotation characters. */
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufff9-\ufffb]/g;

/** Halves of surrogate pairs on their own: not text, and some filesystems refuse them. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function cleanText(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\ufffd')
    .normalize('NFC')
    .replace(CONTROL, ' ')
    .replace(INVISIBLE, '')
    .replace(/[/\\:|]/g, '-')
    .replace(/[<>"?*]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
}

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function assemble(stem: string, ext: string | null, fallback = FALLBACK_NAME): string {
  const tail = ext ? `.${ext}` : '';
  let safe = cutToBytes(stem, MAX_NAME_BYTES - byteLength(tail)).replace(/[\s.]+$/, '');
  if (!safe) safe = fallback;
  if (RESERVED.test(safe)) safe = cutToBytes(`_${safe}`, MAX_NAME_BYTES - byteLength(tail));
  return safe + tail;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest prefix of whole characters (grapheme clusters: emoji sequences stay whole) within `max` bytes. */
function cutToBytes(text: string, max: number): string {
  if (byteLength(text) <= max) return text;
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = byteLength(segment);
    if (used + size > max) break;
    out += segment;
    used += size;
  }
  return out;
}
