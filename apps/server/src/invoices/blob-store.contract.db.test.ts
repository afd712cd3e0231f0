import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { startS3, type TestS3 } from '../../test/s3-server';
import { waitFor } from '../../test/wait-for';
import { type BlobStore, LocalBlobStore } from './blob.store';
import { BLOB_CHUNK_BYTES, PgBlobStore } from './pg-blob.store';
import { createS3Client, S3_PART_BYTES, S3BlobStore, verifyS3Bucket } from './s3-blob.store';

const t = useTestDatabase();
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
}, 60_000);
afterAll(() => s3?.dispose());

/**
 * A writer process killed with -9 while it stores a file: it reads the file from a FIFO that this test feeds with
 * 10 MB (more than one S3 part, ten PostgreSQL chunks) and then stops feeding, so the kill lands mid-write, always.
 */
async function killWriterMidWrite(
  kind: string,
  env: Record<string, string>,
  dir: string,
  beforeKill: () => Promise<void> = async () => {},
): Promise<string> {
  const bytes = randomBytes(10 * 1024 * 1024 + 99);
  const fifo = path.join(dir, `writer-${randomBytes(4).toString('hex')}.fifo`);
  execFileSync('mkfifo', [fifo]);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverRoot, 'test/fixtures/blob-writer.ts')], {
    cwd: serverRoot,
    env: { ...process.env, ...env, BLOB_STORE_KIND: kind, SHA: sha(bytes), FILE: fifo },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Opening the FIFO for writing waits for the writer to open it for reading; then all but the end goes through.
  const feed = createWriteStream(fifo);
  await new Promise<void>((resolve, reject) => {
    feed.once('error', reject);
    feed.write(bytes.subarray(0, bytes.length - 99), () => resolve());
  });
  await beforeKill();
  child.kill('SIGKILL');
  await exited;
  feed.destroy();
  expect(output).not.toContain('stored');
  return sha(bytes);
}

/** The one behaviour every document store has; the services never know which one they hold. */
function blobStoreContract(
  name: string,
  make: () => BlobStore,
  /** For stores that stream from the source file: the store's kind and environment for a writer process. */
  killedWriter?: () => { kind: string; env: Record<string, string> },
) {
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

    it('keeps a file of several S3 parts exactly, put from a file or from memory (multipart upload)', {
      timeout: 120_000,
    }, async () => {
      const bytes = randomBytes(S3_PART_BYTES * 2 + 4321);
      const file = path.join(dir, 'large.bin');
      await fs.writeFile(file, bytes);
      await store.putFile(sha(bytes), file);
      await store.putFile(sha(bytes), file);
      expect((await buffer(store.stream(sha(bytes)))).equals(bytes)).toBe(true);
      const other = randomBytes(S3_PART_BYTES + 1);
      await store.put(sha(other), other);
      expect((await store.get(sha(other))).equals(other)).toBe(true);
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

    it('says which document is missing', async () => {
      const absent = sha(randomBytes(16));
      await expect(store.get(absent)).rejects.toThrow(`No stored document ${absent.slice(0, 12)}`);
      await expect(buffer(store.stream(absent))).rejects.toThrow(`No stored document ${absent.slice(0, 12)}`);
    });

    if (killedWriter) {
      it('shows nothing of a writer killed mid-write (kill -9)', {
        timeout: 60_000,
      }, async () => {
        const { kind, env } = killedWriter();
        const hash = await killWriterMidWrite(kind, env, dir);
        expect(await store.has(hash)).toBe(false);
        await expect(store.get(hash)).rejects.toThrow('No stored document');
      });
    }

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
blobStoreContract(
  'PostgreSQL',
  () => new PgBlobStore(t().database.db, 'documents'),
  () => ({ kind: 'postgres', env: { DATABASE_URL: t().url } }),
);
blobStoreContract(
  'S3',
  () => new S3BlobStore(createS3Client(s3.config), s3.config.bucket, 'documents/'),
  () => ({ kind: 's3', env: { ...s3.env, DOCUMENT_STORE: 's3' } }),
);

describe('S3 document store', () => {
  const client = () => createS3Client(s3.config);

  it('checks the bucket at start-up and says what to fix', async () => {
    await expect(verifyS3Bucket(client(), s3.config)).resolves.toBeUndefined();
    await expect(verifyS3Bucket(client(), { ...s3.config, bucket: 'no-such-bucket' })).rejects.toThrow(
      `DOCUMENT_STORE=s3: S3 bucket 'no-such-bucket' at ${s3.endpoint} does not exist: create it, or correct S3_BUCKET`,
    );
    const nowhere = { ...s3.config, endpoint: 'http://127.0.0.1:9' };
    await expect(verifyS3Bucket(createS3Client(nowhere), nowhere)).rejects.toThrow('check S3_ENDPOINT');
  });

  it('aborts its multipart upload when the source fails, leaving no parts behind', async () => {
    const store = new S3BlobStore(client(), s3.config.bucket, 'failing/');
    const hash = sha(randomBytes(8));
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(S3_PART_BYTES + 1024);
        throw new Error('the source broke');
      })(),
    );
    await expect(store.upload(store.keyOf(hash), failing)).rejects.toThrow('the source broke');
    expect(await store.has(hash)).toBe(false);
    const pending = await client().send(
      new ListMultipartUploadsCommand({ Bucket: s3.config.bucket, Prefix: 'failing/' }),
    );
    expect(pending.Uploads ?? []).toEqual([]);
  });

  it('sweeps the parts a killed writer left, and in the uploads namespace the objects past their expiry', {
    timeout: 60_000,
  }, async () => {
    const documents = new S3BlobStore(client(), s3.config.bucket, 'documents/');
    const kept = Buffer.from('a document that stays');
    await documents.put(sha(kept), kept);
    // Killed once its first part is on the server (the parts are what a sweep has to find).
    await killWriterMidWrite('s3', { ...s3.env }, localRoot, async () => {
      await waitFor(async () => {
        const listed = await client().send(
          new ListMultipartUploadsCommand({ Bucket: s3.config.bucket, Prefix: 'documents/' }),
        );
        return (listed.Uploads?.length ?? 0) > 0 ? true : undefined;
      }, 30_000);
    });
    const before = await client().send(
      new ListMultipartUploadsCommand({ Bucket: s3.config.bucket, Prefix: 'documents/' }),
    );
    expect(before.Uploads?.length).toBeGreaterThan(0);
    expect(await documents.sweepTemp(0)).toBe(before.Uploads?.length);
    const after = await client().send(
      new ListMultipartUploadsCommand({ Bucket: s3.config.bucket, Prefix: 'documents/' }),
    );
    expect(after.Uploads ?? []).toEqual([]);
    expect(await documents.has(sha(kept))).toBe(true);

    const uploads = new S3BlobStore(client(), s3.config.bucket, 'uploads/', 0);
    const upload = Buffer.from('an upload nobody read');
    await uploads.put(sha(upload), upload);
    await new Promise((r) => setTimeout(r, 5));
    expect(await uploads.sweepTemp(0)).toBe(1);
    expect(await uploads.has(sha(upload))).toBe(false);
    expect(await documents.has(sha(kept))).toBe(true);
  });
});

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
