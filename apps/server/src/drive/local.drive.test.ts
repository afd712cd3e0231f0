import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DriveContractHarness,
  describeDriveContract,
  pdf,
  readThroughStore,
  testUpload,
  walk,
} from '../../test/drive/drive.contract';
import { DriveAuthError, DriveFileNotFoundError, DriveUnavailableError } from './drive.store';
import { LocalDriveStore } from './local.drive';

async function localHarness(): Promise<DriveContractHarness & { base: string; root: string }> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-local-drive-'));
  const root = path.join(base, 'drive');
  await fs.mkdir(root);
  return {
    base,
    root,
    store: new LocalDriveStore(root),
    another: () => new LocalDriveStore(root),
    list: async (folder) =>
      (await fs.readdir(path.join(root, ...folder)).catch(() => [] as string[]))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    read: (folder, name) => fs.readFile(path.join(root, ...folder, name)),
    allFiles: () => walk(root),
    outside: async () => (await fs.readdir(base)).filter((n) => n !== 'drive'),
    teardown: () => fs.rm(base, { recursive: true, force: true }),
  };
}

describeDriveContract('local folder', localHarness);

describe('local folder specifics', () => {
  let h: Awaited<ReturnType<typeof localHarness>>;
  beforeEach(async () => {
    h = await localHarness();
  });
  afterEach(async () => {
    await h.teardown();
  });
  const folder = ['Invoices', '2026', '03'];

  it('ids are POSIX paths under the root; files are plain files there', async () => {
    const result = await h.store.upload(testUpload(pdf('plain')));
    expect(result.file.id).toBe('Invoices/2026/03/2026-03-14 Acme GmbH INV-1.pdf');
    const stat = await fs.lstat(path.join(h.root, ...folder, result.file.name));
    expect(stat.isFile()).toBe(true);
    const opened = await h.store.open(result.file.id);
    expect(opened).toMatchObject({ kind: 'stream', contentType: 'application/pdf' });
    if (opened.kind === 'stream') opened.stream.destroy();
  });

  it('does not follow a symlink put in place of a file, nor one pointing out of the drive', async () => {
    await fs.writeFile(path.join(h.base, 'secret.txt'), 'secret');
    await fs.mkdir(path.join(h.root, ...folder), { recursive: true });
    await fs.symlink(path.join(h.base, 'secret.txt'), path.join(h.root, ...folder, 'link.pdf'));
    await expect(h.store.open('Invoices/2026/03/link.pdf')).rejects.toBeInstanceOf(DriveFileNotFoundError);
    // Nor does a duplicate check hash through it.
    const secret = Buffer.from('secret');
    const result = await h.store.upload(
      testUpload(secret, { sha256: createHash('sha256').update(secret).digest('hex') }),
    );
    expect(result.created).toBe(true);
  });

  it('uses the sidecar index as a cache only: a changed file is hashed again, a corrupt index is ignored', async () => {
    const content = pdf('cached');
    const first = await h.store.upload(testUpload(content));
    const file = path.join(h.root, ...folder, first.file.name);
    const indexPath = path.join(h.root, ...folder, '.invoicebox-index.json');
    const index = JSON.parse(await fs.readFile(indexPath, 'utf8'));
    expect(index.files[first.file.name].sha256).toBe(first.file.sha256);

    // Same size and mtime, other bytes: the cache wins (this is what makes it a cache, and what proves it is used).
    const mtime = new Date('2026-03-20T10:00:00Z');
    await fs.utimes(file, mtime, mtime);
    expect((await h.store.findByHash(folder, first.file.sha256!))?.name).toBe(first.file.name); // re-indexed
    const replaced = pdf('replaced', content.length);
    await fs.writeFile(file, replaced);
    await fs.utimes(file, mtime, mtime);
    expect((await h.store.findByHash(folder, first.file.sha256!))?.name).toBe(first.file.name);

    // A real edit changes the mtime: hashed again, the old content is no longer there, the new one is.
    await fs.utimes(file, new Date(), new Date(Date.now() + 5000));
    expect(await h.store.findByHash(folder, first.file.sha256!)).toBeNull();
    const replacedSha = createHash('sha256').update(replaced).digest('hex');
    expect((await h.store.findByHash(folder, replacedSha))?.name).toBe(first.file.name);

    await fs.writeFile(indexPath, '{"version":1,"files":{"x":');
    expect((await h.store.findByHash(folder, replacedSha))?.name).toBe(first.file.name);
    await fs.writeFile(indexPath, JSON.stringify({ version: 1, files: { [first.file.name]: { size: 1 } } }));
    const again = await h.store.upload(testUpload(replaced, { name: 'other.pdf' }));
    expect(again).toMatchObject({ created: false, file: { name: first.file.name } });
  });

  it('finds a file someone copied into the folder by hand', async () => {
    const content = pdf('by hand');
    await fs.mkdir(path.join(h.root, ...folder), { recursive: true });
    await fs.writeFile(path.join(h.root, ...folder, 'Scan from the copier.pdf'), content);
    const result = await h.store.upload(testUpload(content));
    expect(result).toMatchObject({ created: false, file: { name: 'Scan from the copier.pdf', size: content.length } });
    const streamed = await readThroughStore(h.store, result.file);
    expect(streamed?.equals(content)).toBe(true);
  });

  it('waits for a held lock and takes over one left by a crashed process', async () => {
    await fs.mkdir(path.join(h.root, ...folder), { recursive: true });
    const lock = path.join(h.root, ...folder, '.invoicebox-lock');
    await fs.writeFile(lock, 'someone else');
    const quick = new LocalDriveStore(h.root, { lockWaitMs: 200, lockStaleMs: 60_000 });
    await expect(quick.upload(testUpload(pdf('blocked')))).rejects.toBeInstanceOf(DriveUnavailableError);
    expect(await h.list(folder)).toEqual([]);

    const old = new Date(Date.now() - 120_000);
    await fs.utimes(lock, old, old);
    const result = await quick.upload(testUpload(pdf('after crash')));
    expect(result.created).toBe(true);
    await expect(fs.access(lock)).rejects.toThrow(); // released
  });

  it('never creates the root: a missing folder is an unmounted disk, not a place to write', async () => {
    const missing = new LocalDriveStore(path.join(h.base, 'not-mounted'));
    await expect(missing.check()).rejects.toBeInstanceOf(DriveUnavailableError);
    await expect(missing.upload(testUpload(pdf('x')))).rejects.toBeInstanceOf(DriveUnavailableError);
    await expect(fs.access(path.join(h.base, 'not-mounted'))).rejects.toThrow();
  });

  it('reports a file standing where a folder belongs as the drive being unusable', async () => {
    await fs.writeFile(path.join(h.root, 'Invoices'), 'not a folder');
    const error = await h.store.upload(testUpload(pdf('blocked'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect(error).not.toBeInstanceOf(DriveAuthError);
  });

  it('cleans temp files left by a crash after an hour, not before', async () => {
    await fs.mkdir(path.join(h.root, ...folder), { recursive: true });
    const old = path.join(h.root, ...folder, '.invoicebox-tmp-old');
    const fresh = path.join(h.root, ...folder, '.invoicebox-tmp-fresh');
    await fs.writeFile(old, 'x');
    await fs.writeFile(fresh, 'x');
    const then = new Date(Date.now() - 2 * 3_600_000);
    await fs.utimes(old, then, then);
    await h.store.upload(testUpload(pdf('tidy')));
    await expect(fs.access(old)).rejects.toThrow();
    await fs.access(fresh);
  });
});
