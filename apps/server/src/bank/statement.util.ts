import { currencyDecimals, decimalToMinorUnits } from '@invoicebox/core';
import chardet from 'chardet';
import { decodeWindows1252 } from '../mail/header-decoding';
import type { ParsedStatement, StatementIssue, StatementReadResult, StatementTransaction } from './statement.types';

/** Helpers the structured readers share; money goes through core's ISO 4217 table, never through floats. */

/** A plain decimal ('12.5', '-3', '8.850' or MT940's '12,50') in the currency's minor units, rounded half up. */
export function decimalMinor(value: string, currency: string | null): number | null {
  const s = value.trim().replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  return decimalToMinorUnits(s.endsWith('.') ? s.slice(0, -1) : s, currency ?? 'XXX');
}

export function decimalsOf(currency: string | null): number {
  return currencyDecimals(currency ?? 'XXX');
}

const ISO_CODE = /^[A-Z]{3}$/;
/**
 * The ISO 4217 codes ICU knows (Intl), the withdrawn ones old exports still carry (the litas, the lats, the kroon,
 * the euro's predecessors), XXX (no currency) and CNH (the offshore yuan banks write): three capitals that are none
 * of them ("TOM" in an anonymised export, a tag, a name) are no currency.
 */
const ISO_CURRENCIES = new Set([
  ...Intl.supportedValuesOf('currency'),
  ...'LTL LVL EEK SKK SIT CYP MTL DEM FRF ITL ESP NLG BEF ATS PTE FIM IEP GRD LUF ROL TRL BGL HRK YUM CSD VEF BYR MRO STD ZWL'.split(
    ' ',
  ),
  'XXX',
  'CNH',
]);

/** An ISO 4217-shaped code in upper case, or null. */
export function currencyCode(value: string | null | undefined): string | null {
  const s = value?.trim().toUpperCase();
  // RUR: the rouble's code before 1998, still written by Russian banks' exports.
  if (s === 'RUR') return 'RUB';
  return s && ISO_CODE.test(s) && ISO_CURRENCIES.has(s) ? s : null;
}

/** The days between the earliest and the latest of some ISO dates; null for fewer than two. */
export function daySpan(isoDates: readonly string[]): number | null {
  if (isoDates.length < 2) return null;
  const days = isoDates.map((d) => Date.parse(d) / 86_400_000);
  return Math.max(...days) - Math.min(...days);
}

/**
 * A statement's bookings lie close together: of two readings of ambiguous day-month dates, the one whose bookings span
 * `span` days is the right one when it keeps them within two months and the other (`otherSpan`) spreads them over
 * more than twice as long ("03/05/23, 04/05/23, 05/05/23" are three days of May, not the 5th of three months).
 */
export function closerReading(span: number, otherSpan: number): boolean {
  return span <= 62 && otherSpan > 2 * span + 1;
}

/** A real calendar date as YYYY-MM-DD, or null. */
export function isoDate(y: number, m: number, d: number): string | null {
  if (!Number.isInteger(y) || y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return null;
  if (d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** 'YYYYMMDD…' or 'YYYY-MM-DD…' (any time part is cut: statements book calendar days). */
export function compactDate(value: string | null | undefined): string | null {
  const m = /^\s*(\d{4})-?(\d{2})-?(\d{2})/.exec(value ?? '');
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** Collapses whitespace and joins the non-empty parts with ' '. */
export function joinText(...parts: Array<string | null | undefined>): string {
  return parts
    .map((p) => (p ?? '').replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0)
    .join(' ');
}

export function emptyStatement(): ParsedStatement {
  return {
    bankName: null,
    accountNumber: null,
    startDate: null,
    endDate: null,
    currency: null,
    openingBalanceMinor: null,
    closingBalanceMinor: null,
    transactions: [],
    warnings: [],
  };
}

export function transaction(
  t: Partial<StatementTransaction> & Pick<StatementTransaction, 'date' | 'amountMinor' | 'type' | 'currency'>,
): StatementTransaction {
  return {
    valueDate: null,
    description: '',
    balanceAfterMinor: null,
    reference: null,
    counterpartyName: null,
    counterpartyIban: null,
    ...t,
  };
}

export function fail(code: string, message: string, at?: number): StatementReadResult {
  return { ok: false, errors: [at === undefined ? { code, message } : { code, message, at }] };
}

export function issue(code: string, message: string, at?: number): StatementIssue {
  return at === undefined ? { code, message } : { code, message, at };
}

/**
 * Bytes to text: a BOM decides; otherwise strict UTF-8, and where that fails Windows-1252 (the other encoding bank
 * exports use). A file mixing both is decoded line by line, and `mixed` says so.
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: string; mixed: boolean } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { ...decodeText(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le', mixed: false };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be', mixed: false };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8', mixed: false };
  } catch {
    // Not UTF-8 as a whole: a Japanese, Chinese, Korean or Cyrillic code page, else decided per line, so a
    // Windows-1252 line in a UTF-8 file keeps its umlauts.
  }
  const other = legacyEncoding(bytes);
  if (other) {
    try {
      return { text: new TextDecoder(other, { fatal: true }).decode(bytes), encoding: other, mixed: false };
    } catch {
      // Not that code page after all: the line-by-line reading below.
    }
  }
  const strict = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  let utf8Lines = 0;
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    end = end === -1 ? bytes.length : end + 1;
    const line = bytes.subarray(start, end);
    try {
      parts.push(strict.decode(line));
      if (line.some((b) => b >= 0x80)) utf8Lines += 1;
    } catch {
      // Not TextDecoder('windows-1252'): Node 20 decodes that as plain Latin-1 (0x80 is no €); Node 22+ does not.
      parts.push(decodeWindows1252(line));
    }
    start = end;
  }
  return { text: parts.join(''), encoding: 'windows-1252', mixed: utf8Lines > 0 };
}

/** Multi-byte code pages chardet tells reliably (Japanese exports are Shift_JIS, Chinese GB18030, Korean EUC-KR). */
const CJK_ENCODINGS = new Map([
  ['Shift_JIS', 'shift_jis'],
  ['EUC-JP', 'euc-jp'],
  ['GB18030', 'gb18030'],
  ['Big5', 'big5'],
  ['EUC-KR', 'euc-kr'],
]);

/**
 * The legacy code page of a non-UTF-8 file, when it is not Windows-1252: a CJK one as chardet detects it (its
 * statistics need no dictionary), or Windows-1251 when the high bytes form whole words, as Cyrillic letters do
 * (Latin-1 text has one accented letter among ASCII ones: "Müller"). Null otherwise.
 */
export function legacyEncoding(bytes: Uint8Array): string | null {
  const sample = bytes.subarray(0, 64 * 1024);
  const top = chardet.analyse(sample)[0];
  if (top && top.confidence >= 80 && CJK_ENCODINGS.has(top.name)) return CJK_ENCODINGS.get(top.name)!;
  let words = 0;
  let highWords = 0;
  let run = 0;
  let high = false;
  for (const b of sample) {
    if (b >= 0xc0) run += 1;
    const letter = b >= 0x80 || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
    if (b >= 0x80) high = true;
    if (!letter) {
      if (high) words += 1;
      if (run >= 3) highWords += 1;
      run = 0;
      high = false;
    } else if (b < 0xc0) run = 0;
  }
  return highWords >= 3 && highWords >= 0.5 * words ? 'windows-1251' : null;
}

/** The first bytes as Latin-1 text, for cheap sniffing. */
export function headText(head: Uint8Array, n = 4096): string {
  // Buffer's latin1 is byte-for-byte on every Node; WHATWG's 'latin1' label is Windows-1252 on Node 22+.
  return Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, n)).toString('latin1');
}
