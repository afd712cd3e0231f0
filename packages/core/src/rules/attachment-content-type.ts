/**
 * Attachment content type (SPEC §5): the attachment's own mimeType when it has one, otherwise a guess from the first
 * bytes of its content. Content arrives as base64 (standard or URL-safe, as Gmail sends it) or, on the server, as bytes.
 */

export const GENERIC_BINARY_TYPE = 'application/octet-stream';

/** How many leading bytes the sniffers look at. */
const SNIFF_BYTES = 512;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

/** Magic numbers, checked in order; the first match wins. */
const SIGNATURES: ReadonlyArray<{ type: string; signature: readonly number[] }> = [
  { type: 'image/png', signature: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', signature: [0xff, 0xd8, 0xff] },
  { type: 'application/pdf', signature: ascii('%PDF-') },
  { type: 'image/gif', signature: ascii('GIF8') },
  { type: 'application/zip', signature: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/zip', signature: [0x50, 0x4b, 0x05, 0x06] },
  // OLE compound file: the container of .doc (and old .xls), reported as msword as the spec asks.
  { type: 'application/msword', signature: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { type: 'image/tiff', signature: [0x49, 0x49, 0x2a, 0x00] },
  { type: 'image/tiff', signature: [0x4d, 0x4d, 0x00, 0x2a] },
];

/** The sniffed window as Latin-1 text: enough to look for ASCII markup without a TextDecoder (core has no DOM). */
const latin1Head = (bytes: Uint8Array): string => String.fromCharCode(...bytes.subarray(0, SNIFF_BYTES));

function isSvg(bytes: Uint8Array): boolean {
  const head = latin1Head(bytes)
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<svg')) return true;
  // An XML prolog, comment or doctype may come first; an <svg root within the sniffed window decides.
  return (
    (head.startsWith('<?xml') || head.startsWith('<!--') || head.startsWith('<!doctype svg')) && head.includes('<svg')
  );
}

/** Length of the UTF-8 sequence a lead byte starts, or 0 when it cannot start one. */
function utf8SequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Text when every sniffed byte is printable ASCII, whitespace, or part of a valid UTF-8 sequence. */
function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  const head = bytes.subarray(0, SNIFF_BYTES);
  let i = 0;
  while (i < head.length) {
    const byte = head[i]!;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return false;
    if (byte === 0x7f) return false;
    const length = utf8SequenceLength(byte);
    if (length === 0) return false;
    for (let k = 1; k < length; k++) {
      // A character cut at the window's end is fine.
      if (i + k >= head.length) return true;
      const next = head[i + k]!;
      if (next < 0x80 || next > 0xbf) return false;
    }
    i += length;
  }
  return true;
}

/** Guesses a content type from the first bytes of a file. */
export function sniffContentTypeFromBytes(bytes: Uint8Array): string {
  for (const { type, signature } of SIGNATURES) if (startsWith(bytes, signature)) return type;
  if (isSvg(bytes)) return 'image/svg+xml';
  if (isPlainText(bytes)) return 'text/plain';
  return GENERIC_BINARY_TYPE;
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES = new Map(Array.from(BASE64_ALPHABET, (char, index) => [char, index] as const));

/**
 * Decodes the start of a base64 string, standard or URL-safe (`-`, `_`), padded or not. Whitespace is skipped; decoding
 * stops at the first character outside the alphabet. Pure, so it runs in the browser and in Node alike.
 */
export function decodeBase64Prefix(base64: string, maxBytes = SNIFF_BYTES): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const raw of base64) {
    if (out.length >= maxBytes) break;
    if (raw === ' ' || raw === '\n' || raw === '\r' || raw === '\t') continue;
    const char = raw === '-' ? '+' : raw === '_' ? '/' : raw;
    const value = BASE64_VALUES.get(char);
    if (value === undefined) break;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** Guesses a content type from base64 content (a `data:` URL is read from its own prefix). */
export function sniffContentTypeFromBase64(data: string): string {
  const dataUrl = /^data:([^;,]+)[;,]/i.exec(data);
  if (dataUrl?.[1]) return dataUrl[1].toLowerCase();
  return sniffContentTypeFromBytes(decodeBase64Prefix(data));
}

/** SPEC §5: the attachment's mimeType, else a guess from its base64 data. */
export function attachmentContentType(attachment: { mimeType?: string | null; data?: string | null }): string {
  const declared = attachment.mimeType?.trim();
  if (declared) return declared;
  return attachment.data ? sniffContentTypeFromBase64(attachment.data) : GENERIC_BINARY_TYPE;
}

/** The server's variant: declared type, else a guess from the bytes. */
export function attachmentContentTypeFromBytes(bytes: Uint8Array, mimeType?: string | null): string {
  const declared = mimeType?.trim();
  return declared ? declared : sniffContentTypeFromBytes(bytes);
}

/** SPEC §5: a data URL is previewable only if it starts with an image or PDF data prefix. */
export function isPreviewableDataUrl(url: string | null | undefined): boolean {
  if (!url) return false;
  const lower = url.slice(0, 32).toLowerCase();
  return lower.startsWith('data:image/') || lower.startsWith('data:application/pdf');
}
