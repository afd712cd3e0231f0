import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type NotFoundError, ValidationError } from '../errors';
import { type BlobStore, MissingBlobError } from './blob.store';
import { documentBlobChunks, documentBlobs } from './blob.tables';

const SHA256 = /^[0-9a-f]{64}$/;
/** One chunk per row: small enough to stream, large enough that a 20 MB PDF is 20 rows. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

/**
 * The document store in PostgreSQL itself (see blob.tables.ts): what a scaled-out deployment uses, so that an API
 * process on one machine stores the bytes a worker on another reads. Writes are one transaction per file: a process
 * killed mid-write leaves nothing, and two processes storing the same file at once store it once.
 */
export class PgBlobStore implements BlobStore {
  constructor(
    private readonly db: Db,
    /** Separates kinds of content that must not share entries (documents are shared by hash; uploads are not). */
    private readonly namespace: string,
  ) {}

  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    check(sha256);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await this.write(
      sha256,
      buffer.length,
      (async function* () {
        for (let offset = 0; offset < buffer.length; offset += BLOB_CHUNK_BYTES) {
          yield buffer.subarray(offset, offset + BLOB_CHUNK_BYTES);
        }
      })(),
    );
  }

  async putFile(sha256: string, file: string): Promise<void> {
    check(sha256);
    if (await this.has(sha256)) return;
    const stream = createReadStream(file, { highWaterMark: BLOB_CHUNK_BYTES });
    let size = 0;
    await this.write(
      sha256,
      null,
      (async function* () {
        // A read stream yields at most highWaterMark bytes, often less: gather whole chunks.
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        for await (const piece of stream as AsyncIterable<Buffer>) {
          pending.push(piece);
          pendingBytes += piece.length;
          size += piece.length;
          while (pendingBytes >= BLOB_CHUNK_BYTES) {
            const all = Buffer.concat(pending);
            yield all.subarray(0, BLOB_CHUNK_BYTES);
            const rest = all.subarray(BLOB_CHUNK_BYTES);
            pending = rest.length ? [rest] : [];
            pendingBytes = rest.length;
          }
        }
        if (pendingBytes > 0) yield Buffer.concat(pending);
      })(),
      () => size,
    );
  }

  async get(sha256: string): Promise<Buffer> {
    check(sha256);
    const rows = await this.db
      .select({ data: documentBlobChunks.data })
      .from(documentBlobChunks)
      .where(and(eq(documentBlobChunks.namespace, this.namespace), eq(documentBlobChunks.sha256, sha256)))
      .orderBy(asc(documentBlobChunks.seq));
    if (rows.length === 0 && !(await this.has(sha256))) throw missing(sha256);
    return Buffer.concat(rows.map((r) => r.data));
  }

  async has(sha256: string): Promise<boolean> {
    check(sha256);
    const rows = await this.db
      .select({ sha256: documentBlobs.sha256 })
      .from(documentBlobs)
      .where(and(eq(documentBlobs.namespace, this.namespace), eq(documentBlobs.sha256, sha256)))
      .limit(1);
    return rows.length > 0;
  }

  /** Reads one chunk at a time, as the consumer asks for it: a large download holds 1 MiB, not the file. */
  stream(sha256: string): Readable {
    check(sha256);
    const { db, namespace } = this;
    return Readable.from(
      (async function* () {
        const [head] = await db
          .select({ chunks: documentBlobs.chunks })
          .from(documentBlobs)
          .where(and(eq(documentBlobs.namespace, namespace), eq(documentBlobs.sha256, sha256)));
        if (!head) throw missing(sha256);
        for (let seq = 0; seq < head.chunks; seq++) {
          const [row] = await db
            .select({ data: documentBlobChunks.data })
            .from(documentBlobChunks)
            .where(
              and(
                eq(documentBlobChunks.namespace, namespace),
                eq(documentBlobChunks.sha256, sha256),
                eq(documentBlobChunks.seq, seq),
              ),
            );
          if (!row) throw missing(sha256);
          yield row.data;
        }
      })(),
      { objectMode: false },
    );
  }

  async delete(sha256: string): Promise<void> {
    check(sha256);
    await this.db
      .delete(documentBlobs)
      .where(and(eq(documentBlobs.namespace, this.namespace), eq(documentBlobs.sha256, sha256)));
  }

  /**
   * One transaction: claim the entry (the loser of a race between two writers of the same file sees the winner's
   * row and stops), write the chunks, then record the count and size that readers go by.
   */
  private async write(
    sha256: string,
    knownSize: number | null,
    chunks: AsyncIterable<Buffer>,
    sizeAfter?: () => number,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const claimed = await tx
        .insert(documentBlobs)
        .values({ namespace: this.namespace, sha256, size: knownSize ?? 0, chunks: 0 })
        .onConflictDoNothing()
        .returning({ sha256: documentBlobs.sha256 });
      if (claimed.length === 0) return;
      let seq = 0;
      for await (const data of chunks) {
        await tx.insert(documentBlobChunks).values({ namespace: this.namespace, sha256, seq, data });
        seq += 1;
      }
      await tx
        .update(documentBlobs)
        .set({ chunks: seq, size: knownSize ?? sizeAfter?.() ?? 0, createdAt: sql`now()` })
        .where(and(eq(documentBlobs.namespace, this.namespace), eq(documentBlobs.sha256, sha256)));
    });
  }
}

function check(sha256: string): void {
  if (!SHA256.test(sha256)) throw new ValidationError('not a SHA-256 hex digest');
}

function missing(sha256: string): NotFoundError {
  return new MissingBlobError(`No stored document ${sha256.slice(0, 12)}…`);
}
