import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import { AppError } from '../errors';
import type { DriveUpload } from './drive.store';
import { safeDriveName } from './drive-naming';

/**
 * Helpers the three adapters share: the bytes of an upload counted and hashed on their way to the drive (a blob
 * that does not match its recorded SHA-256 must not be filed under it), and the checks of ids and names.
 */
export interface MeteredUpload {
  stream: Readable;
  /** Bytes counted so far, and the SHA-256 once the stream has ended (null before). */
  digest(): { size: number; sha256: string | null };
  /** The error of the source itself (a blob missing from storage), kept apart from the drive's errors. */
  sourceError(): unknown;
}

const sourceErrors = new WeakSet<object>();

/** Whether this error came from an upload's own bytes (see `metered`): adapters pass it on unchanged. */
export function isSourceError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && sourceErrors.has(error);
}

export function metered(source: Readable): MeteredUpload {
  const hash = createHash('sha256');
  let size = 0;
  let sourceError: unknown;
  let sha256: string | null = null;
  source.once('error', (error) => {
    sourceError ??= error;
    if (typeof error === 'object' && error !== null) sourceErrors.add(error);
  });
  const pass = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      sha256 = hash.digest('hex');
      callback();
    },
  });
  pipeline(source, pass, () => {
    // errors reach the consumer through `pass`; the source's own is kept by the listener above
  });
  // A consumer that stops at Content-Length may finish before `flush` runs: the digest of what has passed so far
  // is then taken from a copy of the running hash.
  return {
    stream: pass,
    digest: () => ({ size, sha256: sha256 ?? hash.copy().digest('hex') }),
    sourceError: () => sourceError,
  };
}

/** Whether what went through a metered stream is exactly the upload's bytes. */
export function matches(upload: DriveUpload, got: { size: number; sha256: string | null }): boolean {
  return got.size === upload.size && got.sha256 === upload.sha256;
}

/** SHA-256 and size of a whole stream. */
export async function hashStream(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The bytes that reached the drive are not the ones the upload promised. */
export function contentMismatch(upload: DriveUpload, got: { size: number; sha256: string | null }): AppError {
  return new AppError(
    `The stored file does not match its checksum (expected ${upload.size} bytes ${upload.sha256.slice(0, 12)}…, ` +
      `read ${got.size} bytes ${got.sha256?.slice(0, 12) ?? ''}…); it was not filed`,
    { code: 'drive_content_mismatch', status: 500 },
  );
}

/** Folder segments and file name made safe again, whatever the caller passed (see drive-naming.ts). */
export function safeTarget(upload: Pick<DriveUpload, 'folder' | 'name'>): { folder: string[]; name: string } {
  const folder = upload.folder.map((segment) => safeDriveName(segment, '_'));
  return { folder: folder.length > 0 ? folder : ['Invoices'], name: safeDriveName(upload.name) };
}

/**
 * Splits an id of the form `Invoices/2026/03/name.pdf` into segments, or null when it is not one we could have
 * produced: empty, absolute, '.', '..', backslashes, control characters, anything `safeDriveName` would change.
 */
export function parsePathId(id: unknown): string[] | null {
  if (typeof id !== 'string' || id.length === 0 || id.length > 2048) return null;
  const segments = id.split('/');
  if (segments.length < 1) return null;
  for (const segment of segments) {
    if (!segment || segment !== safeDriveName(segment, '\u0000')) return null;
  }
  return segments;
}

/** Names in a drive folder that are ours (sidecar index, lock, temp files) or hidden, never invoice files. */
export function isInternalName(name: string): boolean {
  return name.startsWith('.');
}

export const INDEX_NAME = '.invoicebox-index.json';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Exponential backoff with jitter, or the server's Retry-After (seconds) when it sent one; at most a minute. */
export function backoffDelay(baseMs: number, attempt: number, retryAfter?: string | null): number {
  const seconds = Number(retryAfter);
  if (retryAfter && Number.isFinite(seconds) && seconds > 0) return Math.min(seconds * 1000, 60_000);
  return Math.min(baseMs * 2 ** attempt * (0.75 + Math.random() * 0.5), 60_000);
}

/** The HTTP status of a client error (gaxios, the webdav client); our own AppErrors carry API statuses, not a server's. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof AppError) return undefined;
  const e = error as { status?: unknown; response?: { status?: unknown } } | null;
  const status = e?.status ?? e?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Connection-level failures worth a retry, whichever HTTP client raised them. */
export const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

/** A server error, rate limit, request timeout or network failure: the drive may answer if asked again. */
export function isTransientHttpError(error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status !== undefined) return status >= 500 || status === 429 || status === 408;
  const e = error as { code?: unknown; errno?: unknown; cause?: { code?: unknown }; name?: string };
  return (
    NETWORK_ERROR_CODES.has(String(e.code ?? '')) ||
    NETWORK_ERROR_CODES.has(String(e.errno ?? '')) ||
    NETWORK_ERROR_CODES.has(String(e.cause?.code ?? '')) ||
    e.name === 'TimeoutError'
  );
}
