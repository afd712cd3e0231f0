import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from './blob.store';

describe('local blob store', () => {
  let dir: string;
  let store: LocalBlobStore;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blob-'));
    store = new LocalBlobStore(path.join(dir, 'blobs'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('stores bytes once under blobs/ab/cd/<sha256>, with no temp file left', async () => {
    const bytes = Buffer.from('%PDF-1.4 hello');
    const sha = createHash('sha256').update(bytes).digest('hex');
    await store.put(sha, bytes);
    await store.put(sha, bytes);
    const file = path.join(dir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
    expect(store.pathOf(sha)).toBe(file);
    expect(await fs.readdir(path.dirname(file))).toEqual([sha]);
    expect((await store.get(sha)).equals(bytes)).toBe(true);
    expect(await text(store.stream(sha))).toBe('%PDF-1.4 hello');
    expect(await store.has('0'.repeat(64))).toBe(false);
    // Only this process's user may read documents.
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(dir, 'blobs'))).mode & 0o777).toBe(0o700);
  });

  it('never builds a path outside its folder', async () => {
    for (const bad of [
      '../../etc/passwd',
      `../${'a'.repeat(61)}`,
      `${'a'.repeat(63)}/`,
      `/${'a'.repeat(63)}`,
      'A'.repeat(64),
      `${'a'.repeat(64)}\0`,
      `${'a'.repeat(62)}..`,
      '',
    ]) {
      expect(() => store.pathOf(bad), bad).toThrow();
      await expect(store.put(bad, Buffer.from('x'))).rejects.toThrow();
      expect(() => store.stream(bad)).toThrow();
    }
    expect(await fs.readdir(dir)).toEqual(['blobs']);
  });

  it('sweeps partial files that a killed writer left, and only old ones', async () => {
    const tempDir = path.join(dir, 'blobs', 'tmp');
    await fs.mkdir(tempDir, { recursive: true });
    const stale = path.join(tempDir, `${'a'.repeat(64)}.dead.tmp`);
    const fresh = path.join(tempDir, `${'b'.repeat(64)}.live.tmp`);
    await fs.writeFile(stale, 'partial');
    await fs.writeFile(fresh, 'being written');
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    await fs.utimes(stale, old, old);
    expect(await store.sweepTemp()).toBe(1);
    expect(await fs.readdir(tempDir)).toEqual([path.basename(fresh)]);
  });
});
