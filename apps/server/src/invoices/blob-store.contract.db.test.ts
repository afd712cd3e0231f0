import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { type BlobStore, LocalBlobStore } from './blob.store';
import { BLOB_CHUNK_BYTES, PgBlobStore } from './pg-blob.store';

const t = useTestDatabase();
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The one behaviour every document store has; the services never know which one they hold. */
function blobStoreContract(name: string, make: () => BlobStore) {
  describe(`${name} document store`, () => {
    let store: BlobStore;
    let dir: string;
    beforeAll(async () => {
      store = make();
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blob-contract-'));
    });
    afterAll(() => fs.rm(dir, { recursive: true, force: true }));

    it('stores bytes once and gives them back whole, as bytes and as a stream', async () => {
      const bytes = Buffer.from('%PDF-1.4 contract');
      await store.put(sha(bytes), bytes);
      await store.put(sha(bytes), bytes);
      expect(await store.has(sha(bytes))).toBe(true);
      expect((await store.get(sha(bytes))).equals(bytes)).toBe(true);
      expect((await buffer(store.stream(sha(bytes)))).equals(bytes)).toBe(true);
    });

    it('keeps a file larger than one chunk exactly, put from memory or from a file', async () => {
      const bytes = randomBytes(BLOB_CHUNK_BYTES * 2 + 12_345);
      await store.put(sha(bytes), bytes);
      expect((await store.get(sha(bytes))).equals(bytes)).toBe(true);
      const other = randomBytes(BLOB_CHUNK_BYTES + 1);
      const file = path.join(dir, 'upload.bin');
      await fs.writeFile(file, other);
      await store.putFile(sha(other), file);
      expect((await buffer(store.stream(sha(other)))).equals(other)).toBe(true);
    });

    it('stores an empty file', async () => {
      const empty = Buffer.alloc(0);
      await store.put(sha(empty), empty);
      expect(await store.has(sha(empty))).toBe(true);
      expect((await store.get(sha(empty))).length).toBe(0);
      expect((await buffer(store.stream(sha(empty)))).length).toBe(0);
    });

    it('stores one copy when several writers put the same file at once', async () => {
      const bytes = randomBytes(BLOB_CHUNK_BYTES + 7);
      await Promise.all(Array.from({ length: 6 }, () => store.put(sha(bytes), bytes)));
      expect((await store.get(sha(bytes))).equals(bytes)).toBe(true);
    });

    it('deletes, and says what is not there', async () => {
      const bytes = Buffer.from('to be deleted');
      await store.put(sha(bytes), bytes);
      await store.delete(sha(bytes));
      await store.delete(sha(bytes));
      expect(await store.has(sha(bytes))).toBe(false);
      await expect(store.get(sha(bytes))).rejects.toThrow();
      await expect(buffer(store.stream(sha(bytes)))).rejects.toThrow();
    });

    it('refuses a key that is not a SHA-256 digest', async () => {
      for (const bad of ['../../etc/passwd', 'A'.repeat(64), `${'a'.repeat(64)}\0`, '']) {
        await expect(store.has(bad)).rejects.toThrow('not a SHA-256 hex digest');
        await expect(store.put(bad, Buffer.from('x'))).rejects.toThrow('not a SHA-256 hex digest');
      }
    });
  });
}

let localRoot = '';
beforeAll(async () => {
  localRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blob-local-'));
});
afterAll(() => fs.rm(localRoot, { recursive: true, force: true }));

blobStoreContract('local', () => new LocalBlobStore(path.join(localRoot, 'blobs')));
blobStoreContract('PostgreSQL', () => new PgBlobStore(t().database.db, 'documents'));

describe('PostgreSQL document store namespaces', () => {
  it('keeps namespaces apart: deleting an upload never takes a document with the same bytes', async () => {
    const bytes = Buffer.from('same bytes, two namespaces');
    const documents = new PgBlobStore(t().database.db, 'documents');
    const uploads = new PgBlobStore(t().database.db, 'uploads');
    await documents.put(sha(bytes), bytes);
    await uploads.put(sha(bytes), bytes);
    await uploads.delete(sha(bytes));
    expect(await uploads.has(sha(bytes))).toBe(false);
    expect((await documents.get(sha(bytes))).equals(bytes)).toBe(true);
  });
});
