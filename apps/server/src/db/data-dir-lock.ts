import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Which process runs (and supervises) the embedded PostgreSQL of a data dir: `<dataDir>/embedded.lock` holds its pid
 * and role. Created atomically (a complete file linked into place); a file left by a process that died is taken over.
 */
export type LockRole = 'start' | 'worker' | 'other';

export interface LockHolder {
  pid: number;
  role: LockRole;
  /** Start time of the process (Linux, /proc), so that a pid reused after a reboot is not taken for the holder. */
  startedAt?: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'embedded.lock');
}

/** Takes the lock, or returns the live process that holds it. */
export async function acquireDataDirLock(
  dataDir: string,
  role: LockRole,
): Promise<{ lock: DataDirLock } | { heldBy: LockHolder }> {
  const file = lockPath(dataDir);
  const mine = `${process.pid} ${role} ${processStartTime(process.pid) ?? '-'}\n`;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(temp, mine, { mode: 0o600 });
  try {
    // A few rounds: each either takes the lock, finds a live holder, or clears one dead holder's file.
    for (let round = 0; round < 50; round++) {
      try {
        await fs.link(temp, file);
        return { lock: { release: () => releaseIfMine(file, mine) } };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readHolder(file);
      if (!holder) continue; // removed meanwhile
      if (isHolderAlive(holder)) return { heldBy: holder };
      // A dead holder's file is removed only under a second lock, so that no contender removes a fresh one.
      await clearDeadHolder(file, temp);
    }
    const holder = await readHolder(file);
    if (holder) return { heldBy: holder };
    throw new Error(`could not take ${file}`);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function clearDeadHolder(file: string, temp: string): Promise<void> {
  const takeover = `${file}.takeover`;
  try {
    await fs.link(temp, takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Someone else is clearing it; a takeover lock left by a process that died in these few steps is old.
    const stat = await fs.stat(takeover).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > 10_000) await fs.rm(takeover, { force: true });
    await new Promise((r) => setTimeout(r, 20));
    return;
  }
  try {
    const holder = await readHolder(file);
    if (holder && !isHolderAlive(holder)) await fs.rm(file, { force: true });
  } finally {
    await fs.rm(takeover, { force: true });
  }
}

export async function readHolder(file: string): Promise<LockHolder | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const [pid, role, startedAt] = text.trim().split(/\s+/);
  return {
    pid: Number(pid) || 0,
    role: role === 'start' || role === 'worker' ? role : 'other',
    ...(startedAt && startedAt !== '-' ? { startedAt } : {}),
  };
}

function isHolderAlive(holder: LockHolder): boolean {
  if (!isAlive(holder.pid)) return false;
  const startedAt = processStartTime(holder.pid);
  return !holder.startedAt || !startedAt || startedAt === holder.startedAt;
}

/** Field 22 of /proc/<pid>/stat (clock ticks since boot); undefined without /proc. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

async function releaseIfMine(file: string, mine: string): Promise<void> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === mine) await fs.rm(file, { force: true });
}

/** Alive and (where /proc tells) not a zombie; EPERM means alive but someone else's. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; a zombie (Z) has exited but is not reaped yet.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(0) is all we know
  }
}
