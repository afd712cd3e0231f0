/**
 * SPEC §9 file sizes: bytes below 1024, KB below 1 MB, otherwise MB with 1 decimal. KB also gets 1 decimal, cut
 * (not rounded) so a size just below 1 MB never shows as '1024.0 KB'.
 */
const KB = 1024;
const MB = 1024 * 1024;

export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '0 B';
  if (bytes < KB) return `${Math.floor(bytes)} B`;
  if (bytes < MB) return `${(Math.floor((bytes / KB) * 10) / 10).toFixed(1)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}
