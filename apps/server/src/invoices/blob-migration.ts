import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { BlobStore } from './blob.store';

/**
 * Every document hash a row refers to (attachments of messages, bank statement files, the raw invoice emails kept for
 * forwarding), in a stable order.
 */
export async function referencedDocuments(db: Db): Promise<string[]> {
  const result = await db.execute<{ sha256: string }>(sql`
    select sha256 from message_attachments
    union
    select sha256 from bank_statements
    union
    select raw_sha256 from mail_messages where raw_sha256 is not null
    order by 1`);
  return result.rows.map((r) => r.sha256);
}

export interface BlobProgress {
  done: number;
  total: number;
  copied: number;
  /** Already in the target (a run that was interrupted, or both stores shared them). */
  present: number;
  missing: string[];
  /** Bytes whose SHA-256 is not their name in the source: not copied. */
  corrupt: string[];
  bytes: number;
}

function startProgress(total: number): BlobProgress {
  return { done: 0, total, copied: 0, present: 0, missing: [], corrupt: [], bytes: 0 };
}

/**
 * Copies every referenced document from `source` to `target`, one at a time through a temporary file whose SHA-256
 * is checked against its name before the target gets it. Resumable: what the target has is skipped, so an
 * interrupted run is simply started again. Nothing is deleted from the source.
 */
export async function migrateBlobs(
  db: Db,
  source: BlobStore,
  target: BlobStore,
  options: { tempDir: string; onProgress?: (progress: BlobProgress) => void },
): Promise<BlobProgress> {
  const hashes = await referencedDocuments(db);
  const progress = startProgress(hashes.length);
  await fs.mkdir(options.tempDir, { recursive: true, mode: 0o700 });
  for (const sha256 of hashes) {
    if (await target.has(sha256)) {
      progress.present += 1;
    } else if (!(await source.has(sha256))) {
      progress.missing.push(sha256);
    } else {
      const temp = path.join(options.tempDir, `${sha256}.${randomUUID()}.migrate`);
      try {
        const { digest, size } = await copyHashing(source, sha256, temp);
        if (digest === sha256) {
          await target.putFile(sha256, temp);
          progress.copied += 1;
          progress.bytes += size;
        } else {
          progress.corrupt.push(sha256);
        }
      } finally {
        await fs.rm(temp, { force: true });
      }
    }
    progress.done += 1;
    options.onProgress?.(progress);
  }
  return progress;
}

/** Documents whose bytes the store lacks (or, with `verify`, holds under a hash that is not theirs). */
export async function checkBlobs(
  db: Db,
  store: BlobStore,
  options: { verify?: boolean; onProgress?: (progress: BlobProgress) => void } = {},
): Promise<BlobProgress> {
  const hashes = await referencedDocuments(db);
  const progress = startProgress(hashes.length);
  for (const sha256 of hashes) {
    if (!(await store.has(sha256))) {
      progress.missing.push(sha256);
    } else if (options.verify) {
      const hash = createHash('sha256');
      for await (const chunk of store.stream(sha256)) {
        hash.update(chunk as Buffer);
        progress.bytes += (chunk as Buffer).length;
      }
      if (hash.digest('hex') === sha256) progress.present += 1;
      else progress.corrupt.push(sha256);
    } else {
      progress.present += 1;
    }
    progress.done += 1;
    options.onProgress?.(progress);
  }
  return progress;
}

async function copyHashing(store: BlobStore, sha256: string, file: string): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    store.stream(sha256),
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    }),
    createWriteStream(file, { flags: 'wx', mode: 0o600 }),
  );
  return { digest: hash.digest('hex'), size };
}
