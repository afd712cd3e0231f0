/** RFC 6266 Content-Disposition: an ASCII fallback and the UTF-8 name, with nothing that could break the header. */
export function contentDisposition(filename: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const clean = [...filename]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/["\\/]/g, '_');
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_') || 'attachment';
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean || 'attachment')}`;
}

/** A stored content type goes out only when it is a plain `type/subtype`; anything else is generic binary. */
export function safeContentType(value: string | null | undefined): string {
  return value && /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i.test(value)
    ? value.toLowerCase()
    : 'application/octet-stream';
}

/** What a served file gets when its type could run script (HTML, SVG, XML, anything unknown): no script, no origin. */
export const DOWNLOAD_SANDBOX_CSP = "default-src 'none'; sandbox";

/** Types a browser shows by itself without running anything of the file's: the only ones ever served inline. */
const INLINE_SAFE_TYPES = /^(application\/pdf|image\/(png|jpeg|gif|webp))$/;

/**
 * The headers of a file from mail or the drive, whatever its bytes hold. It goes inline only when asked and its type
 * is one of the inert ones; everything else (text/html, image/svg+xml, unknown types) is a download under a sandbox
 * CSP, so that even a browser that renders it runs no script in our origin. Never sniffed (nosniff).
 */
export function servedFileHeaders(
  file: { contentType: string | null | undefined; filename: string },
  wanted: 'inline' | 'attachment',
): Record<string, string> {
  const type = safeContentType(file.contentType);
  const inline = wanted === 'inline' && INLINE_SAFE_TYPES.test(type);
  return {
    'content-type': type,
    'content-disposition': contentDisposition(file.filename, inline ? 'inline' : 'attachment'),
    'x-content-type-options': 'nosniff',
    // A sandbox CSP would stop Chromium's PDF viewer; an inline type is exact and never sniffed as HTML, and the
    // SPA's policy (which would restrict the viewer too) gives way to one that only forbids framing.
    'content-security-policy': inline ? "frame-ancestors 'none'" : DOWNLOAD_SANDBOX_CSP,
  };
}
