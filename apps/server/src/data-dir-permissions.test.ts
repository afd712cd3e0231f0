import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tightenDataDir } from './data-dir-permissions';

describe('tightening the data dir', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-modes-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const mode = async (file: string) => (await fs.lstat(file)).mode & 0o777;

  it('takes group and other access off folders and files, leaves links and what they point to alone', async () => {
    const data = path.join(dir, 'data');
    await fs.mkdir(path.join(data, 'blobs', 'ab', 'cd'), { recursive: true });
    const outside = path.join(dir, 'outside.txt');
    await fs.writeFile(outside, 'x', { mode: 0o644 });
    await fs.writeFile(path.join(data, 'blobs', 'ab', 'cd', 'doc'), 'x', { mode: 0o644 });
    await fs.writeFile(path.join(data, 'run.sh'), 'x', { mode: 0o755 });
    await fs.symlink(outside, path.join(data, 'link'));
    for (const d of [data, 'blobs', 'blobs/ab', 'blobs/ab/cd']) await fs.chmod(path.resolve(data, d), 0o755);

    const result = await tightenDataDir(data);
    expect(result).toEqual({ checked: 5, fixed: 6, failed: 0, truncated: false });
    expect(await mode(data)).toBe(0o700);
    expect(await mode(path.join(data, 'blobs', 'ab', 'cd'))).toBe(0o700);
    expect(await mode(path.join(data, 'blobs', 'ab', 'cd', 'doc'))).toBe(0o600);
    expect(await mode(path.join(data, 'run.sh'))).toBe(0o700);
    expect(await mode(outside)).toBe(0o644);

    // A second pass finds nothing to do; the top folder may stay enterable for the `postgres` user.
    expect(await tightenDataDir(data)).toMatchObject({ fixed: 0 });
    await tightenDataDir(data, { traversable: true });
    expect(await mode(data)).toBe(0o711);
  });

  it('stops at its bound and says so', async () => {
    const data = path.join(dir, 'many');
    await fs.mkdir(data);
    for (let i = 0; i < 5; i++) await fs.writeFile(path.join(data, `f${i}`), 'x', { mode: 0o644 });
    expect(await tightenDataDir(data, { maxEntries: 3 })).toMatchObject({ checked: 3, truncated: true });
  });
});
