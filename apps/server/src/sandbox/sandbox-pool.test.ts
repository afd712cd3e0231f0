import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEntry } from './sandbox-entry';
import { SandboxError, SandboxPool, type SandboxPoolOptions } from './sandbox-pool';

const outside = mkdtempSync(path.join(os.tmpdir(), 'invoicebox-sandbox-outside-'));
const secretFile = path.join(outside, 'master.key');
writeFileSync(secretFile, 'not for documents');

let base: Omit<SandboxPoolOptions, 'size' | 'memoryMb'>;
const pools: SandboxPool[] = [];
function pool(options: Partial<SandboxPoolOptions> = {}): SandboxPool {
  const p = new SandboxPool({ ...base, size: 1, memoryMb: 256, ...options });
  pools.push(p);
  return p;
}

beforeAll(async () => {
  const { entry, packageDir } = await sandboxEntry(
    import.meta.url,
    '../../test/fixtures/probe.child.ts',
    'probe-child',
  );
  base = { entry, readPaths: [packageDir, path.resolve(packageDir, '../../node_modules')] };
}, 60_000);

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

afterAll(() => rmSync(outside, { recursive: true, force: true }));

const expectFailure = (promise: Promise<unknown>, failure: SandboxError['failure'], message: RegExp) =>
  expect(promise).rejects.toSatisfy(
    (error: unknown) => error instanceof SandboxError && error.failure === failure && message.test(error.message),
  );

describe('the document sandbox pool', () => {
  it('runs tasks in a child that it reuses, and returns their answers and their errors as they are', async () => {
    const p = pool();
    const first = await p.run<{ length: number; pid: number; first: number }>(
      'echo',
      { bytes: new Uint8Array([7, 8]) },
      10_000,
    );
    expect(first).toMatchObject({ length: 2, first: 7 });
    expect(first.pid).not.toBe(process.pid);
    const second = await p.run<{ pid: number }>('echo', { bytes: new Uint8Array(3) }, 10_000);
    expect(second.pid).toBe(first.pid);
    await expect(p.run('fail', {}, 10_000)).rejects.toMatchObject({ message: 'bad input', code: 'bad_input' });
  });

  it('gives the child none of the server environment', async () => {
    process.env.INVOICEBOX_SECRET_FOR_TEST = 'x'.repeat(40);
    try {
      const keys = await pool({ env: { TMPDIR: os.tmpdir() } }).run<string[]>('env', {}, 10_000);
      expect(keys).not.toContain('INVOICEBOX_SECRET_FOR_TEST');
      expect(keys.filter((k) => k !== 'NODE_OPTIONS')).toEqual(['TMPDIR']);
    } finally {
      delete process.env.INVOICEBOX_SECRET_FOR_TEST;
    }
  });

  it('lets the child read only its own code: not other files, and it may not write or start processes', async () => {
    const p = pool();
    await expect(p.run('read', { path: secretFile }, 10_000)).rejects.toMatchObject({ code: 'ERR_ACCESS_DENIED' });
    await expect(p.run('read', { path: '/etc/passwd' }, 10_000)).rejects.toMatchObject({ code: 'ERR_ACCESS_DENIED' });
    await expect(p.run('write', { path: path.join(outside, 'w.txt') }, 10_000)).rejects.toMatchObject({
      code: 'ERR_ACCESS_DENIED',
    });
    await expect(p.run('spawn', {}, 10_000)).rejects.toMatchObject({ code: 'ERR_ACCESS_DENIED' });
    // Its own code stays readable.
    await expect(p.run<number>('read', { path: base.entry.pathname }, 10_000)).resolves.toBeGreaterThan(0);
  });

  it('kills a child whose resident memory passes the limit, says so, and serves the next task with a new child', async () => {
    const p = pool({ memoryMb: 300 });
    const before = await p.run<{ pid: number }>('echo', { bytes: new Uint8Array(1) }, 10_000);
    await expectFailure(
      p.run('allocateNative', {}, 60_000),
      'document_out_of_memory',
      /^document could not be read: out of memory at 300 MB$/,
    );
    const after = await p.run<{ pid: number }>('echo', { bytes: new Uint8Array(1) }, 10_000);
    expect(after.pid).not.toBe(before.pid);
  });

  it('reads a document once more in a fresh child when the child ran out of memory with earlier documents in it', async () => {
    const p = pool({ memoryMb: 400, size: 1 });
    const holder = await p.run<number>('hold', { mb: 200 }, 10_000);
    // 200 MB left behind (under the 70 % that recycles a child) + 200 MB for this one: too much for that child,
    // enough for a fresh one.
    const reader = await p.run<number>('allocate', { mb: 200 }, 60_000);
    expect(reader).not.toBe(holder);
  });

  it('reports a child that reaches its JavaScript heap limit as out of memory', async () => {
    await expectFailure(
      pool({ memoryMb: 200 }).run('allocateHeap', {}, 60_000),
      'document_out_of_memory',
      /out of memory at 200 MB/,
    );
  });

  it('kills a child that spins past the time limit', async () => {
    const p = pool();
    await expectFailure(p.run('spin', {}, 500), 'document_timeout', /took longer than 1 s/);
    await expect(p.run('echo', { bytes: new Uint8Array(1) }, 10_000)).resolves.toMatchObject({ length: 1 });
  });

  it('gives a task that reports each page read its time limit again per page, up to a ceiling', async () => {
    const p = pool();
    // 8 pages of 400 ms against a 2 s limit: 3.2 s in all, never 2 s between two reports.
    await expect(p.run('pages', { pages: 8, ms: 400 }, 2_000)).resolves.toBe(8);
    // The same work without reports is one task over its limit.
    await expectFailure(
      p.run('pages', { pages: 8, ms: 400, silent: true }, 2_000),
      'document_timeout',
      /took longer than \d+ s/,
    );
    // Reporting for ever does not keep a task alive: it ends at PROGRESS_CEILING limits.
    await expectFailure(p.run('pages', { pages: 1e6, ms: 50 }, 200), 'document_timeout', /took longer than/);
    // The pool goes on with a new child.
    await expect(p.run('pages', { pages: 1, ms: 1 }, 2_000)).resolves.toBe(1);
  });

  it('reports a native crash of the child as a crash of that task only', async () => {
    const p = pool({ size: 2 });
    const [crashed, fine] = await Promise.allSettled([
      p.run('segfault', {}, 10_000),
      p.run('echo', { bytes: new Uint8Array(5) }, 10_000),
    ]);
    expect(crashed).toMatchObject({ status: 'rejected', reason: { failure: 'document_crashed' } });
    expect((crashed as PromiseRejectedResult).reason.message).toBe(
      'document could not be read: the reader crashed (SIGSEGV)',
    );
    expect(fine).toMatchObject({ status: 'fulfilled', value: { length: 5 } });
  });

  it('runs at most `size` children at once and queues the rest', async () => {
    const p = pool({ size: 2 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => p.run<{ pid: number }>('echo', { bytes: new Uint8Array(i) }, 10_000)),
    );
    expect(new Set(answers.map((a) => a.pid)).size).toBeLessThanOrEqual(2);
    expect(p.pids().length).toBeLessThanOrEqual(2);
  });

  it('stops its children on close and refuses new work', async () => {
    const p = pool();
    const { pid } = await p.run<{ pid: number }>('echo', { bytes: new Uint8Array(1) }, 10_000);
    await p.close();
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(p.run('echo', { bytes: new Uint8Array(1) }, 10_000)).rejects.toThrow('closed');
  });
});
