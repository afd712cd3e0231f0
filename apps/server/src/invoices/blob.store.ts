import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { NotFoundError, ValidationError } from '../errors';

/** Content-addressed file storage: bytes are stored once per SHA-256 and found by it. */
export interface BlobStore {
  /** Stores bytes under their hash (a second put of the same content is a no-op). */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** Stores a local file's bytes under their hash (the caller computed it), without holding them in memory. */
  putFile(sha256: string, file: string): Promise<void>;
  get(sha256: string): Promise<Buffer>;
  has(sha256: string): Promise<boolean>;
  /** The bytes as a stream (downloads never hold a whole file in memory). */
  stream(sha256: string): Readable;
  /** Removes the bytes (no-op when absent). Only for stores whose entries have one owner, such as uploads. */
  delete(sha256: string): Promise<void>;
  /** Removes what writers that died left half-written (stores whose writes are not atomic by themselves). */
  sweepTemp?(olderThanMs?: number): Promise<number>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The embedded default: `<dataDir>/blobs/ab/cd/<sha256>`, written atomically (temp file + rename). */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  /** The only way a path is built here, from a validated hex hash: it cannot leave the root. */
  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new ValidationError('not a SHA-256 hex digest');
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    await this.write(sha256, (temp) => fs.writeFile(temp, bytes, { mode: 0o600 }));
  }

  async putFile(sha256: string, source: string): Promise<void> {
    await this.write(sha256, async (temp) => {
      await fs.copyFile(source, temp);
      await fs.chmod(temp, 0o600);
    });
  }

  /**
   * Written in one temp folder, then renamed into place: a process killed mid-write leaves its partial file there,
   * where `sweepTemp` finds it, never beside the real ones. Documents are for this process's user only (0600/0700).
   */
  private async write(sha256: string, fill: (temp: string) => Promise<void>): Promise<void> {
    const file = this.pathOf(sha256);
    if (await this.has(sha256)) return;
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tempDir = path.join(this.root, 'tmp');
    await fs.mkdir(tempDir, { recursive: true, mode: 0o700 });
    const temp = path.join(tempDir, `${sha256}.${randomBytes(6).toString('hex')}.tmp`);
    await fill(temp);
    await fs.rename(temp, file);
  }

  async delete(sha256: string): Promise<void> {
    await fs.rm(this.pathOf(sha256), { force: true });
  }

  /** Removes partial files of writers that died (older than `olderThanMs`); returns how many. */
  async sweepTemp(olderThanMs = 60 * 60_000): Promise<number> {
    const tempDir = path.join(this.root, 'tmp');
    const names = await fs.readdir(tempDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const full = path.join(tempDir, name);
      const stat = await fs.stat(full).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
        await fs.rm(full, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  get(sha256: string): Promise<Buffer> {
    return fs.readFile(this.pathOf(sha256)).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? missingBlob(sha256) : error;
    });
  }

  stream(sha256: string): Readable {
    const source = createReadStream(this.pathOf(sha256));
    const out = new PassThrough();
    source.once('error', (error: NodeJS.ErrnoException) =>
      out.destroy(error.code === 'ENOENT' ? missingBlob(sha256) : error),
    );
    out.once('close', () => source.destroy());
    return source.pipe(out);
  }

  async has(sha256: string): Promise<boolean> {
    const file = this.pathOf(sha256);
    try {
      await fs.access(file);
      return true;
    } catch {
      return false;
    }
  }
}

/** A hash the store does not hold (its own class, so that callers tell it from other "not found" errors). */
export class MissingBlobError extends NotFoundError {}

/** What every store says of a hash it does not hold. */
export function missingBlob(sha256: string): NotFoundError {
  return new MissingBlobError(`No stored document ${sha256.slice(0, 12)}…`);
}
