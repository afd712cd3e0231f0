import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../src/db/data-dir-lock';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { assertBuiltCliIsCurrent } from './cli-processes';
import { type EmbeddedStart, postmasterPid, spawnEmbeddedStart } from './embedded-processes';
import { waitFor } from './wait-for';

/**
 * Real `invoicebox start` processes on the embedded PostgreSQL, each on its own temporary data dir: the postmaster
 * is supervised, a server orphaned by a killed `start` is adopted, one `start` per data dir, private file modes.
 */
describe('embedded PostgreSQL supervision (real processes)', { timeout: 60_000 }, () => {
  let dir: string;
  const started: EmbeddedStart[] = [];
  /** A data dir with an initialised cluster copied from the template (initdb once, not per test). */
  const prepare = async (name: string) => {
    const dataDir = path.join(dir, name);
    await fs.mkdir(dataDir);
    execFileSync('cp', ['-a', path.join(template, 'pg'), path.join(template, 'secrets'), dataDir]);
    return dataDir;
  };
  let template: string;
  const start = async (dataDir: string) => {
    const process_ = spawnEmbeddedStart(dataDir);
    started.push(process_);
    return process_;
  };

  beforeAll(async () => {
    await assertBuiltCliIsCurrent();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-supervise-'));
    await fs.chmod(dir, 0o755); // as root, the `postgres` user must reach the data dirs below
    template = path.join(dir, 'template');
    await (await startEmbeddedPostgres(template)).stop();
  }, 60_000);

  afterAll(async () => {
    for (const p of started) await p.stop(5_000);
    // Never leave a server behind, whatever failed above.
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const pid = await postmasterPid(path.join(dir, name));
      if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    await fs.rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('restarts a postmaster that was killed, and /health is back to ok by itself', async () => {
    const dataDir = await prepare('restart');
    const app = await start(dataDir);
    const url = await app.ready;
    const first = await postmasterPid(dataDir);
    expect(first).toBeGreaterThan(0);

    process.kill(first!, 'SIGKILL');
    const health = await waitFor(async () => {
      const response = await fetch(`${url}/api/v1/health`).catch(() => undefined);
      const body = (await response?.json()) as { database: { restarts?: number } } | undefined;
      return response?.status === 200 && body?.database.restarts === 1 ? body : undefined;
    }, 45_000);
    expect(health).toMatchObject({ status: 'ok', database: { status: 'up', engine: 'embedded', restarts: 1 } });
    const second = await postmasterPid(dataDir);
    expect(second).not.toBe(first);
    expect(isAlive(second!)).toBe(true);
    expect(app.output()).toMatch(/the embedded PostgreSQL stopped \(killed by SIGKILL\); restarting it/);
    expect(app.output()).toMatch(/the embedded PostgreSQL is back on port/);

    expect(await app.stop()).toBe(0);
    expect(isAlive(second!)).toBe(false);
  });

  it('adopts the server left running by a killed start, so one SIGTERM stops both', async () => {
    const dataDir = await prepare('adopt');
    const first = await start(dataDir);
    await first.ready;
    const postmaster = await postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(postmaster!)).toBe(true); // orphaned

    const second = await start(dataDir);
    const url = await second.ready;
    expect(second.output()).toContain(`adopting the embedded PostgreSQL left running`);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);

    expect(await second.stop()).toBe(0);
    expect(isAlive(postmaster!)).toBe(false);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });

  it('runs one start per data dir, and takes group and other access off files that were there before', async () => {
    const dataDir = path.join(dir, 'single');
    // What an older version left: 0755 folders, 0644 documents and secrets.
    const sha = randomBytes(32).toString('hex');
    const blob = path.join(dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
    await fs.mkdir(path.dirname(blob), { recursive: true, mode: 0o755 });
    await fs.writeFile(blob, '%PDF-1.4 old', { mode: 0o644 });
    await fs.mkdir(path.join(dataDir, 'secrets'), { mode: 0o755 });
    await fs.writeFile(path.join(dataDir, 'secrets', 'pg-password'), `${randomBytes(12).toString('hex')}\n`, {
      mode: 0o644,
    });
    await fs.mkdir(path.join(dataDir, 'drive', '2024'), { recursive: true, mode: 0o755 });
    await fs.writeFile(path.join(dataDir, 'drive', '2024', 'invoice.pdf'), 'x', { mode: 0o644 });
    for (const d of ['blobs', path.dirname(path.dirname(blob)), path.dirname(blob), 'drive', 'drive/2024']) {
      await fs.chmod(path.resolve(dataDir, d), 0o755);
    }

    // Two at once on a new data dir: one runs, the other says why it does not.
    const both = [await start(dataDir), await start(dataDir)];
    const outcomes = await Promise.all(
      both.map((p) =>
        Promise.race([p.ready.then(() => 'running'), p.exited.then((code) => `exited ${code}`)]).catch(
          () => `exited ${p.child.exitCode}`,
        ),
      ),
    );
    expect([...outcomes].sort()).toEqual(['exited 1', 'running']);
    const winner = both[outcomes.indexOf('running')]!;
    const loser = both.find((p) => p !== winner)!;
    expect(loser.output()).toMatch(/another 'invoicebox start' \(pid \d+\) is running on the data dir/);

    // And one more while it runs.
    const third = await start(dataDir);
    expect(await third.exited).toBe(1);
    expect(third.output()).toContain(`another 'invoicebox start' (pid ${winner.pid}) is running on the data dir`);
    expect((await fetch(`${await winner.ready}/api/v1/health`)).status).toBe(200);

    const modes = await modesUnder(dataDir);
    const loose = Object.entries(modes).filter(([, mode]) => (mode & 0o077) !== 0);
    expect(loose).toEqual([]);
    expect(modes[path.relative(dataDir, blob)]).toBe(0o600);
    expect(modes['secrets/pg-password']).toBe(0o600);
    expect(modes['drive/2024']).toBe(0o700);
    // The top folder: private, or only enterable (not listable) by the `postgres` user that runs the server as root.
    const top = (await fs.stat(dataDir)).mode & 0o777;
    expect(top).toBe(process.getuid?.() === 0 ? 0o711 : 0o700);
    expect(await winner.stop()).toBe(0);
  });
});

/** Mode bits of every folder and file under `root` (symbolic links left out), by relative path. */
async function modesUnder(root: string): Promise<Record<string, number>> {
  const modes: Record<string, number> = {};
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const stat = await fs.lstat(full).catch(() => undefined);
    if (stat) modes[path.relative(root, full)] = stat.mode & 0o777;
  }
  return modes;
}
