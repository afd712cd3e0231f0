import { randomUUID } from 'node:crypto';
import { constants, createReadStream, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DriveAuthError,
  type DriveFile,
  DriveFileNotFoundError,
  type DriveOpenResult,
  type DriveStore,
  DriveUnavailableError,
  type DriveUpload,
  type DriveUploadResult,
} from './drive.store';
import { contentTypeFor, suffixedName } from './drive-naming';
import {
  contentMismatch,
  hashStream,
  INDEX_NAME,
  isInternalName,
  isSourceError,
  matches,
  metered,
  parsePathId,
  safeTarget,
  sleep,
} from './drive-stream';

/**
 * A folder on the server's disk as the drive: `<root>/Invoices/YYYY/MM/<name>`; the id is the POSIX path under the
 * root.
 *
 * Duplicates and concurrency: each upload holds a lock file (`.invoicebox-lock`, created with O_EXCL) in the target
 * folder while it looks for the content and writes, so uploads from any number of instances and processes on this
 * machine leave exactly one copy. The bytes go to a temp file first and appear under their name with link(2), which
 * never replaces an existing file; a name that is taken moves on to `name (2).ext`. Hashes are cached in
 * `.invoicebox-index.json` per folder, keyed by name, size and mtime; it is only a cache (a stale or corrupt one is
 * ignored), the files themselves are the truth. A lock left by a crashed process is taken over after `lockStaleMs`.
 * The root itself is never created: a missing root is an unmounted disk or a typo, not a place to write into.
 */
export interface LocalDriveOptions {
  /** A lock older than this was left by a process that died (ms). */
  lockStaleMs?: number;
  /** How long an upload waits for another one in the same folder (ms). */
  lockWaitMs?: number;
}

const LOCK_NAME = '.invoicebox-lock';
const TEMP_PREFIX = '.invoicebox-tmp-';

interface IndexEntry {
  size: number;
  mtimeMs: number;
  sha256: string;
}
type FolderIndex = Map<string, IndexEntry>;

export class LocalDriveStore implements DriveStore {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly lockStaleMs: number;
  private readonly lockWaitMs: number;

  constructor(root: string, options: LocalDriveOptions = {}) {
    this.root = path.resolve(root);
    this.lockStaleMs = options.lockStaleMs ?? 60_000;
    this.lockWaitMs = options.lockWaitMs ?? 30_000;
  }

  async check(): Promise<{ root: string }> {
    await this.requireRoot();
    try {
      await fs.access(this.root, constants.W_OK | constants.X_OK);
    } catch (error) {
      throw fsError(error, this.root);
    }
    return { root: this.root };
  }

  async findByHash(folder: string[], sha256: string): Promise<DriveFile | null> {
    const target = safeTarget({ folder, name: 'x' }).folder;
    const dir = path.join(this.root, ...target);
    try {
      const index = await readIndex(dir);
      const found = await this.scan(dir, index, sha256, undefined);
      if (found.changed) await writeIndex(dir, index).catch(() => undefined);
      return found.match ? this.file(target, found.match.name, sha256, found.match.size) : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw fsError(error, dir);
    }
  }

  async upload(upload: DriveUpload): Promise<DriveUploadResult> {
    const { folder, name } = safeTarget(upload);
    await this.requireRoot();
    const dir = path.join(this.root, ...folder);
    try {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw fsError(error, dir);
    }
    const release = await this.lock(dir);
    try {
      const index = await readIndex(dir);
      const found = await this.scan(dir, index, upload.sha256, upload.size);
      if (found.match) {
        if (found.changed) await writeIndex(dir, index).catch(() => undefined);
        return { file: this.file(folder, found.match.name, upload.sha256, found.match.size), created: false };
      }
      const temp = path.join(dir, `${TEMP_PREFIX}${randomUUID()}`);
      try {
        await this.writeTemp(temp, upload);
        const finalName = await linkUnderFreeName(temp, dir, name);
        const stat = await fs.stat(path.join(dir, finalName));
        index.set(finalName, { size: stat.size, mtimeMs: stat.mtimeMs, sha256: upload.sha256 });
        await writeIndex(dir, index).catch(() => undefined);
        return { file: this.file(folder, finalName, upload.sha256, stat.size), created: true };
      } finally {
        await fs.rm(temp, { force: true });
      }
    } catch (error) {
      throw fsError(error, dir);
    } finally {
      await release();
    }
  }

  async open(id: string): Promise<DriveOpenResult> {
    const segments = parsePathId(id);
    if (!segments || isInternalName(segments.at(-1)!)) throw new DriveFileNotFoundError();
    const full = path.resolve(this.root, ...segments);
    if (!full.startsWith(this.root + path.sep)) throw new DriveFileNotFoundError();
    let handle: fs.FileHandle;
    try {
      // O_NOFOLLOW: a symlink put in place of a filed invoice is not followed out of the drive.
      handle = await fs.open(full, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR' || code === 'EISDIR') {
        throw new DriveFileNotFoundError();
      }
      throw fsError(error, full);
    }
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      throw new DriveFileNotFoundError();
    }
    const name = segments.at(-1)!;
    return {
      kind: 'stream',
      stream: handle.createReadStream(),
      name,
      contentType: contentTypeFor(name),
      size: stat.size,
    };
  }

  private file(folder: string[], name: string, sha256: string, size: number): DriveFile {
    return {
      id: [...folder, name].join('/'),
      name,
      folder,
      size,
      sha256,
      webUrl: null,
    };
  }

  private async requireRoot(): Promise<void> {
    let stat: Stats;
    try {
      stat = await fs.stat(this.root);
    } catch (error) {
      throw fsError(error, this.root);
    }
    if (!stat.isDirectory()) throw new DriveUnavailableError(`The drive folder ${this.root} is not a directory`);
  }

  /**
   * The first file in `dir` (by name) with this content. Only files of the same size are hashed when the size is
   * known; hashes come from the index when name, size and mtime still match.
   */
  private async scan(
    dir: string,
    index: FolderIndex,
    sha256: string,
    size: number | undefined,
  ): Promise<{ match: { name: string; size: number } | null; changed: boolean }> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    const names = new Set(entries.map((e) => e.name));
    let changed = false;
    for (const name of [...index.keys()]) {
      if (!names.has(name)) {
        index.delete(name);
        changed = true;
      }
    }
    const files = entries.filter((e) => e.isFile() && !isInternalName(e.name)).map((e) => e.name);
    files.sort();
    await removeOldTemps(
      dir,
      entries.filter((e) => e.isFile() && e.name.startsWith(TEMP_PREFIX)).map((e) => e.name),
    );
    for (const name of files) {
      let stat: Stats;
      try {
        stat = await fs.stat(path.join(dir, name));
      } catch {
        continue; // removed meanwhile
      }
      if (size !== undefined && stat.size !== size) continue;
      const cached = index.get(name);
      let hash: string;
      if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) {
        hash = cached.sha256;
      } else {
        try {
          hash = (await hashStream(createReadStream(path.join(dir, name)))).sha256;
        } catch {
          continue;
        }
        index.set(name, { size: stat.size, mtimeMs: stat.mtimeMs, sha256: hash });
        changed = true;
      }
      if (hash === sha256) return { match: { name, size: stat.size }, changed };
    }
    return { match: null, changed };
  }

  private async writeTemp(temp: string, upload: DriveUpload): Promise<void> {
    const handle = await fs.open(temp, 'wx', 0o600);
    const meter = metered(upload.open());
    try {
      for await (const chunk of meter.stream) await handle.write(chunk as Buffer);
      await handle.sync(); // the bytes are on disk before the name appears
    } catch (error) {
      throw meter.sourceError() ?? error;
    } finally {
      await handle.close();
    }
    if (!matches(upload, meter.digest())) throw contentMismatch(upload, meter.digest());
  }

  /** Takes the folder's lock file; returns its release. */
  private async lock(dir: string): Promise<() => Promise<void>> {
    const lockPath = path.join(dir, LOCK_NAME);
    const token = `${process.pid} ${randomUUID()}`;
    const deadline = Date.now() + this.lockWaitMs;
    for (;;) {
      try {
        await fs.writeFile(lockPath, token, { flag: 'wx', mode: 0o600 });
        return async () => {
          // Only our own lock: after a takeover the file may be someone else's.
          const current = await fs.readFile(lockPath, 'utf8').catch(() => null);
          if (current === token) await fs.rm(lockPath, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fsError(error, dir);
      }
      await this.takeOverStaleLock(lockPath);
      if (Date.now() > deadline) {
        throw new DriveUnavailableError(`Another upload keeps the drive folder ${dir} locked; try again later`);
      }
      await sleep(10 + Math.random() * 30);
    }
  }

  private async takeOverStaleLock(lockPath: string): Promise<void> {
    const stat = await fs.stat(lockPath).catch(() => null);
    if (!stat || Date.now() - stat.mtimeMs < this.lockStaleMs) return;
    // Rename first: of several processes seeing the same stale lock, only one gets it.
    const aside = `${lockPath}.stale-${randomUUID()}`;
    try {
      await fs.rename(lockPath, aside);
    } catch {
      return;
    }
    const moved = await fs.stat(aside).catch(() => null);
    if (moved && Date.now() - moved.mtimeMs < this.lockStaleMs) {
      // A fresh lock was taken between our stat and rename: put it back unless a newer one exists.
      await fs.link(aside, lockPath).catch(() => undefined);
    }
    await fs.rm(aside, { force: true });
  }
}

/** Makes `temp` visible as `name`, or `name (2)`, ...: link(2) fails on an existing name instead of replacing it. */
async function linkUnderFreeName(temp: string, dir: string, name: string): Promise<string> {
  for (let n = 1; n <= 1000; n++) {
    const candidate = n === 1 ? name : suffixedName(name, n);
    const target = path.join(dir, candidate);
    try {
      await fs.link(temp, target);
      return candidate;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
        // No hard links (FAT, some network filesystems): an exclusive copy still never replaces a file.
        try {
          await fs.copyFile(temp, target, constants.COPYFILE_EXCL);
          return candidate;
        } catch (copyError) {
          if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw copyError;
        }
      }
      throw error;
    }
  }
  throw new DriveUnavailableError(`No free name for ${name} in ${dir}`);
}

async function removeOldTemps(dir: string, names: string[]): Promise<void> {
  // Left by a crash; an hour is far longer than any upload, so a temp of a running one is never removed.
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > 3_600_000) await fs.rm(file, { force: true });
  }
}

async function readIndex(dir: string): Promise<FolderIndex> {
  const index: FolderIndex = new Map();
  let data: unknown;
  try {
    data = JSON.parse(await fs.readFile(path.join(dir, INDEX_NAME), 'utf8'));
  } catch {
    return index; // missing or corrupt: only a cache
  }
  const files = (data as { version?: unknown; files?: unknown })?.files;
  if ((data as { version?: unknown }).version !== 1 || !files || typeof files !== 'object') return index;
  for (const [name, entry] of Object.entries(files as Record<string, unknown>)) {
    const e = entry as Partial<IndexEntry> | null;
    if (
      e &&
      typeof e.size === 'number' &&
      typeof e.mtimeMs === 'number' &&
      typeof e.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(e.sha256)
    ) {
      index.set(name, { size: e.size, mtimeMs: e.mtimeMs, sha256: e.sha256 });
    }
  }
  return index;
}

async function writeIndex(dir: string, index: FolderIndex): Promise<void> {
  const temp = path.join(dir, `${TEMP_PREFIX}${randomUUID()}`);
  const body = JSON.stringify({
    version: 1,
    files: Object.fromEntries([...index].sort(([a], [b]) => (a < b ? -1 : 1))),
  });
  try {
    await fs.writeFile(temp, body, { flag: 'wx', mode: 0o600 });
    await fs.rename(temp, path.join(dir, INDEX_NAME));
  } finally {
    await fs.rm(temp, { force: true });
  }
}

function fsError(error: unknown, where: string): Error {
  if (error instanceof DriveUnavailableError || error instanceof DriveAuthError || isSourceError(error)) {
    return error as Error;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new DriveAuthError(`The server may not write to the drive folder ${where} (${code})`);
  }
  if (code && /^E[A-Z]+$/.test(code)) {
    return new DriveUnavailableError(`The drive folder ${where} is not usable (${code})`);
  }
  return error as Error;
}
