import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { UploadFileResult } from '@invoicebox/core';
import { displayName } from './document-kind';
import type { AddedFile, UploadsService } from './uploads.service';

/** Sub-folders of the inbox: finished files, refused files, and files one process has claimed. */
const DONE = 'done';
const FAILED = 'failed';
const CLAIMED = '.claimed';
/** A claim older than this belongs to a process that died while it held it: the file is taken back. */
const STALE_CLAIM_MS = 10 * 60_000;

export interface InboxFolderOptions {
  dir: string;
  pollMs: number;
  /** The person the files are added for (the owner); looked up at each pass, so the owner may sign up later. */
  ownerId: () => Promise<string | undefined>;
  log?: (message: string, detail?: Record<string, unknown>) => void;
}

/**
 * The watched inbox folder (`INVOICEBOX_INBOX_DIR`): every file that appears directly in it is added for the owner
 * through UploadsService (the mail ingest), once, then moved to `done/` or `failed/` — the latter beside a short
 * `<name>.reason.txt`.
 * - Polling, not file events: a restart (or files that arrived while nothing ran) needs a scan anyway, and network
 *   folders do not always send events. Each pass looks at every file, so nothing that arrived meanwhile is missed.
 * - A file is taken only once its size and modification time held still over two passes (a copy in progress grows).
 * - Claimed by renaming it into `.claimed/` under a name of our own: rename is atomic, so of several processes
 *   watching the same folder exactly one wins each file; the others find it gone.
 * - Names from the folder are never trusted as paths: only plain files directly in the folder are read (no links,
 *   no sub-folders), and what is written back uses the file's base name, cleaned, inside `done/` or `failed/`.
 */
export class InboxFolder {
  private readonly sizes = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly uploads: UploadsService,
    private readonly options: InboxFolderOptions,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .then(() => undefined)
        .catch((error: unknown) => this.options.log?.('inbox folder pass failed', { err: error }))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One look at the folder: files whose size held still since the previous look are claimed and added. Returns what
   * was added (for tests and the bench).
   */
  async pass(): Promise<UploadFileResult[]> {
    const dir = this.options.dir;
    // Made at each pass: the folder may have been emptied or mounted since.
    for (const sub of [DONE, FAILED, CLAIMED]) await fs.mkdir(path.join(dir, sub), { recursive: true, mode: 0o700 });
    await this.reclaimStale();
    const entries = await fs.readdir(dir, { withFileTypes: true });
    const ready: Array<{ name: string; claimed: string; size: number }> = [];
    const present = new Set<string>();
    for (const entry of entries) {
      // Plain files only; dot files are partial downloads of browsers and sync tools, or our own.
      if (!entry.isFile() || entry.name.startsWith('.') || entry.name.endsWith('.reason.txt')) continue;
      present.add(entry.name);
      const stat = await fs.lstat(path.join(dir, entry.name)).catch(() => null);
      if (!stat?.isFile()) continue;
      const mark = `${stat.size}:${stat.mtimeMs}`;
      const before = this.sizes.get(entry.name);
      this.sizes.set(entry.name, mark);
      if (before !== mark) continue; // new, or still being written
      const claimed = path.join(dir, CLAIMED, `${randomUUID()}.${process.pid}.${os.hostname().replace(/\W/g, '')}`);
      try {
        await fs.rename(path.join(dir, entry.name), claimed);
      } catch {
        continue; // another process took it first
      }
      await fs.writeFile(`${claimed}.name`, entry.name, { mode: 0o600 });
      this.sizes.delete(entry.name);
      ready.push({ name: entry.name, claimed, size: stat.size });
    }
    for (const name of this.sizes.keys()) if (!present.has(name)) this.sizes.delete(name);
    if (ready.length === 0) return [];
    const ownerId = await this.options.ownerId();
    if (!ownerId) {
      // Nobody to add them for yet: put them back for a later pass.
      for (const r of ready) await this.release(r.claimed, r.name);
      return [];
    }
    const files: AddedFile[] = ready.map((r) => ({ name: r.name, path: r.claimed, size: r.size }));
    let response: Awaited<ReturnType<UploadsService['add']>>;
    try {
      response = await this.uploads.add(ownerId, files, 'folder');
    } catch (error) {
      // The store could not take them (the database is away): they wait in the folder for a later pass.
      for (const r of ready) await this.release(r.claimed, r.name).catch(() => undefined);
      throw error;
    }
    for (const [index, r] of ready.entries()) {
      const result = response.files[index]!;
      await this.finish(r.claimed, r.name, result);
    }
    return response.files;
  }

  /** Moves a claimed file to done/ or failed/ under its own (cleaned) name, never over another file. */
  private async finish(claimed: string, original: string, result: UploadFileResult): Promise<void> {
    const ok = result.status === 'added' || result.status === 'duplicate';
    const target = await this.moveTo(claimed, path.join(this.options.dir, ok ? DONE : FAILED), safeBaseName(original));
    if (!ok) {
      await fs.writeFile(`${target}.reason.txt`, `${result.message}\n`, { mode: 0o600 });
    }
    this.options.log?.('inbox file added', { file: path.basename(target), status: result.status });
  }

  /** Puts a claimed file back under its name (or a free one beside it). */
  private async release(claimed: string, original: string): Promise<void> {
    await this.moveTo(claimed, this.options.dir, safeBaseName(original));
  }

  /** Claims of a process that died (older than STALE_CLAIM_MS) go back into the folder to be taken again. */
  private async reclaimStale(): Promise<void> {
    const dir = path.join(this.options.dir, CLAIMED);
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      if (name.endsWith('.name')) continue;
      const file = path.join(dir, name);
      // The claim's age is its name file's (renaming keeps the document's own modification time).
      const stat = (await fs.lstat(`${file}.name`).catch(() => null)) ?? (await fs.lstat(file).catch(() => null));
      if (!stat?.isFile() || Date.now() - stat.mtimeMs < STALE_CLAIM_MS) continue;
      const original = await fs.readFile(`${file}.name`, 'utf8').catch(() => name);
      // A second process reclaiming the same file at once finds it gone: its move fails and changes nothing.
      await this.release(file, original).catch(() => undefined);
    }
  }

  /**
   * Moves `file` into `dir` as `name`, or `name (2)` … when taken. A hard link is made first: it fails on a name
   * that exists, so two processes never overwrite each other's file. Returns the new path.
   */
  private async moveTo(file: string, dir: string, name: string): Promise<string> {
    const ext = path.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    for (let n = 1; ; n++) {
      const candidate = path.join(dir, n === 1 ? name : `${stem} (${n})${ext}`);
      try {
        await fs.link(file, candidate);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      await fs.rm(file, { force: true });
      await fs.rm(`${file}.name`, { force: true });
      return candidate;
    }
  }
}

/**
 * A name from the folder, made safe to write back: the base name only, no separators, control characters, leading
 * dots or `..`, bounded. The result always stays inside the folder it is joined to.
 */
export function safeBaseName(name: string): string {
  const clean = displayName(name).replace(/^\.+/, '').trim();
  const bounded = Buffer.from(clean)
    .subarray(0, 150)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return bounded || 'file';
}
