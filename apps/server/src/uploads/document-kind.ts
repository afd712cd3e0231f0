/**
 * What an added file is, from its first bytes only (the content is parsed later, in the document sandbox). The name
 * is a hint for nothing but display: a PDF called `photo.jpg` is a PDF.
 */

export type DocumentKind =
  | { kind: 'pdf' | 'jpeg' | 'png' | 'heic' | 'xml'; contentType: string }
  | { kind: 'eml'; contentType: 'message/rfc822' }
  | { kind: 'avif' }
  | { kind: 'other' };

/** Bytes read to decide. */
export const SNIFF_BYTES = 4096;

/** Header fields one of which a mail file has near its start. */
const MAIL_HEADERS = /^(from|to|subject|date|received|message-id|mime-version|return-path|delivered-to):/im;

export function sniffDocument(head: Buffer): DocumentKind {
  const latin = head.toString('latin1');
  if (latin.slice(0, 1024).includes('%PDF-')) return { kind: 'pdf', contentType: 'application/pdf' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { kind: 'jpeg', contentType: 'image/jpeg' };
  if (latin.startsWith('\x89PNG\r\n\x1a\n')) return { kind: 'png', contentType: 'image/png' };
  // ISO base media with a HEIF brand: an iPhone photo (HEIC, read in the sandbox with libheif), or an AVIF (not read).
  if (latin.slice(4, 8) === 'ftyp') {
    const brand = latin.slice(8, 12);
    if (/^(heic|heix|hevc|hevx|mif1|msf1)$/.test(brand)) return { kind: 'heic', contentType: 'image/heic' };
    if (/^(avif|avis)$/.test(brand)) return { kind: 'avif' };
  }
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<?xml') || /^<([A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*[\s>/]/.test(text)) {
    return { kind: 'xml', contentType: 'application/xml' };
  }
  // An .eml starts with header fields ("Name: value") and has at least one that mail always carries.
  if (/^[!-9;-~]+:[ \t]?\S/.test(text) && MAIL_HEADERS.test(text.split(/\r?\n\r?\n/, 1)[0] ?? '')) {
    return { kind: 'eml', contentType: 'message/rfc822' };
  }
  return { kind: 'other' };
}

/**
 * A file name from a request, a command line or a folder, made safe to show and store: the last path segment, no
 * control or bidi characters, at most 200 characters. Never used as a path.
 */
export function displayName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const clean = last.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return ([...clean].slice(0, 200).join('') || 'file').normalize('NFC');
}
