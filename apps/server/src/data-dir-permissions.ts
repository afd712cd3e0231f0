import fs from 'node:fs/promises';
import path from 'node:path';

export interface TightenResult {
  checked: number;
  fixed: number;
  failed: number;
  /** True when the walk stopped at `maxEntries`. */
  truncated: boolean;
}

/**
 * One pass over the data dir taking group and other permissions off every folder and file (folders 0700, files
 * 0600 as written by this version; older versions left 0755/0644, readable by every local user). Symbolic links are
 * neither changed nor followed. `traversable` keeps the top folder enterable (0711) for the `postgres` OS user that
 * runs the embedded server when we are root.
 */
export async function tightenDataDir(
  dataDir: string,
  options: { traversable?: boolean; maxEntries?: number } = {},
): Promise<TightenResult> {
  const maxEntries = options.maxEntries ?? 100_000;
  const result: TightenResult = { checked: 0, fixed: 0, failed: 0, truncated: false };
  const fix = async (file: string, mode: number) => {
    try {
      await fs.chmod(file, mode);
      result.fixed += 1;
    } catch {
      result.failed += 1; // not ours (a file of the `postgres` user as non-root) or gone meanwhile
    }
  };

  const top = await fs.lstat(dataDir).catch(() => undefined);
  if (!top?.isDirectory()) return result;
  const topMode = options.traversable ? 0o711 : 0o700;
  if ((top.mode & 0o777) !== topMode) await fix(dataDir, topMode);

  const pending = [dataDir];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (result.checked >= maxEntries) {
        result.truncated = true;
        return result;
      }
      const full = path.join(dir, name);
      const stat = await fs.lstat(full).catch(() => undefined);
      if (!stat || stat.isSymbolicLink()) continue;
      result.checked += 1;
      if (stat.isDirectory()) pending.push(full);
      if ((stat.mode & 0o077) !== 0) await fix(full, stat.mode & 0o700);
    }
  }
  return result;
}
