import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, isAlive, lockPath } from './data-dir-lock';

describe('data dir lock of the embedded server', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-lock-'));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('is taken once: a second taker learns the live holder and its role; released, it can be taken again', async () => {
    const first = await acquireDataDirLock(dir, 'start');
    expect('lock' in first).toBe(true);
    expect(await acquireDataDirLock(dir, 'worker')).toEqual({
      heldBy: expect.objectContaining({ pid: process.pid, role: 'start' }),
    });
    if ('lock' in first) await first.lock.release();
    const again = await acquireDataDirLock(dir, 'worker');
    expect('lock' in again).toBe(true);
    if ('lock' in again) await again.lock.release();
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('takes over the file of a holder that died, and only one of several takers at once gets it', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    expect(isAlive(dead.pid!)).toBe(false);
    await fs.writeFile(lockPath(dir), `${dead.pid} start\n`);

    const results = await Promise.all([1, 2, 3, 4].map(() => acquireDataDirLock(dir, 'start')));
    const taken = results.filter((r) => 'lock' in r);
    expect(taken).toHaveLength(1);
    expect(results.filter((r) => 'heldBy' in r && r.heldBy.pid === process.pid)).toHaveLength(3);
    for (const r of taken) if ('lock' in r) await r.lock.release();
    expect(await fs.readdir(dir)).toEqual([]);
  });
});
