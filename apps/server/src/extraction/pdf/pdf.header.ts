/** A PDF by its bytes: `%PDF-` within the first 1,024 (readers accept some junk before the header). */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  // Buffer's latin1 is byte-for-byte; WHATWG's 'latin1' label is Windows-1252 on Node 22+ (0x89 becomes U+2030).
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1').includes('%PDF-');
}
