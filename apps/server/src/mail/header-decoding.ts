/**
 * Reading top-level header fields straight from the raw bytes of a message. mailparser decodes header bytes as UTF-8
 * before it decodes RFC 2047 words, which garbles two kinds of real mail: raw 8-bit Latin-1 inside an encoded word
 * (Eudora, old Outlook) and UTF-7 encoded words (Outlook 2000). Working on bytes keeps both readable.
 */

/** How far into a message the header block is looked for; a longer header block is treated as having none. */
export const MAX_HEADER_BLOCK_BYTES = 1024 * 1024;

/** The bytes of the top-level header block (up to the first empty line), without the empty line. */
export function headerBlock(source: Uint8Array, maxBytes = MAX_HEADER_BLOCK_BYTES): Buffer {
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const limit = Math.min(bytes.length, maxBytes);
  for (let i = 0; i < limit; i++) {
    if (bytes[i] !== 0x0a) continue;
    // An empty line: LF LF, or LF CR LF. The line break of the last field is not part of the block.
    const end = i > 0 && bytes[i - 1] === 0x0d ? i - 1 : i;
    if (bytes[i + 1] === 0x0a) return bytes.subarray(0, end);
    if (bytes[i + 1] === 0x0d && bytes[i + 2] === 0x0a) return bytes.subarray(0, end);
  }
  return bytes.subarray(0, limit);
}

/** Header fields of a header block in order: the lowercased name and the unfolded raw value bytes. */
export function headerFields(block: Uint8Array): Array<{ name: string; value: Uint8Array }> {
  // Latin-1 maps every byte to one char, so positions in the string are positions in the bytes.
  const text = Buffer.from(block.buffer, block.byteOffset, block.byteLength).toString('latin1');
  const fields: Array<{ name: string; value: Uint8Array }> = [];
  for (const line of text.split(/\r?\n(?![ \t])/)) {
    const match = /^([!-9;-~]+)[ \t]*:/.exec(line);
    if (!match?.[1]) continue;
    const value = line
      .slice(match[0].length)
      .replace(/\r?\n(?=[ \t])/g, '')
      .trim();
    fields.push({ name: match[1].toLowerCase(), value: Buffer.from(value, 'latin1') });
  }
  return fields;
}

/** The raw bytes of the first field with this name, or undefined. */
export function rawHeader(source: Uint8Array, name: string): Uint8Array | undefined {
  const wanted = name.toLowerCase();
  return headerFields(headerBlock(source)).find((field) => field.name === wanted)?.value;
}

/** Decodes bytes of a known charset; an unknown one falls back to UTF-8 when valid, else Windows-1252. */
export function decodeCharset(bytes: Uint8Array, charset: string): string {
  const label = charset.trim().toLowerCase();
  if (label === 'utf-7' || label === 'unicode-1-1-utf-7') return decodeUtf7(Buffer.from(bytes).toString('latin1'));
  if (WINDOWS_1252_LABELS.has(label)) return decodeWindows1252(bytes);
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return decodeUnlabelled(bytes);
  }
}

/** Header bytes outside encoded words: UTF-8 (RFC 6532) when valid, else the Windows-1252 most old mailers meant. */
export function decodeUnlabelled(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/** Labels that WHATWG maps to Windows-1252 (mail that says Latin-1 or ASCII usually means it). */
const WINDOWS_1252_LABELS = new Set([
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'l1',
  'us-ascii',
  'ascii',
]);

/** 0x80–0x9F of Windows-1252; the rest is Latin-1. Node 20's TextDecoder decodes 'windows-1252' as plain Latin-1. */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes)
    out += byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

const BASE64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** RFC 2152 UTF-7: `+` starts modified base64 of UTF-16BE, ended by `-` or any non-base64 character; `+-` is `+`. */
export function decodeUtf7(text: string): string {
  return text.replace(/\+([A-Za-z0-9+/]*)-?/g, (whole, encoded: string) => {
    if (encoded === '') return whole === '+-' ? '+' : whole;
    let bits = 0;
    let buffer = 0;
    const units: number[] = [];
    let pending: number[] = [];
    for (const char of encoded) {
      buffer = (buffer << 6) | BASE64_CHARS.indexOf(char);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        pending.push((buffer >> bits) & 0xff);
        if (pending.length === 2) {
          units.push(((pending[0] ?? 0) << 8) | (pending[1] ?? 0));
          pending = [];
        }
      }
    }
    return String.fromCharCode(...units);
  });
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?]*?)\?=/g;

function encodedWordBytes(encoding: string, text: string): Buffer {
  if (encoding.toLowerCase() === 'b') return Buffer.from(text.replace(/[^A-Za-z0-9+/]/g, ''), 'base64');
  const bytes = text
    .replace(/_/g, ' ')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1');
}

/**
 * Decodes an unfolded raw header value (RFC 2047): encoded words in any charset Node knows plus UTF-7, adjacent words
 * joined before decoding (a character may be split across them), whitespace between encoded words dropped, and raw
 * bytes elsewhere read as UTF-8 or Windows-1252.
 */
export function decodeHeaderValue(raw: Uint8Array): string {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
  const pieces: Array<{ kind: 'raw'; bytes: Buffer } | { kind: 'word'; charset: string; bytes: Buffer }> = [];
  let last = 0;
  for (const match of text.matchAll(ENCODED_WORD)) {
    const between = text.slice(last, match.index);
    const previous = pieces.at(-1);
    // Whitespace between two encoded words is not part of the text.
    if (between && !(previous?.kind === 'word' && /^[ \t]*$/.test(between))) {
      pieces.push({ kind: 'raw', bytes: Buffer.from(between, 'latin1') });
    }
    // RFC 2231 allows a language after the charset: utf-8*en.
    const charset = (match[1] ?? '').split('*')[0] ?? '';
    const bytes = encodedWordBytes(match[2] ?? 'q', match[3] ?? '');
    const tail = pieces.at(-1);
    if (tail?.kind === 'word' && tail.charset.toLowerCase() === charset.toLowerCase()) {
      tail.bytes = Buffer.concat([tail.bytes, bytes]);
    } else {
      pieces.push({ kind: 'word', charset, bytes });
    }
    last = (match.index ?? 0) + match[0].length;
  }
  if (last < text.length) pieces.push({ kind: 'raw', bytes: Buffer.from(text.slice(last), 'latin1') });
  return pieces
    .map((piece) => (piece.kind === 'raw' ? decodeUnlabelled(piece.bytes) : decodeCharset(piece.bytes, piece.charset)))
    .join('');
}

/** The decoded value of a top-level header, or null when the message has none. */
export function decodedHeader(source: Uint8Array, name: string): string | null {
  const raw = rawHeader(source, name);
  return raw === undefined ? null : decodeHeaderValue(raw);
}
