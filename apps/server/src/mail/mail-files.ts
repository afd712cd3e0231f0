/** Walking folders of mail files: sorted, recursive, hidden entries skipped, unreadable folders reported as data. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailReadError } from './mail-message';

/** A file, or a folder that `isUnit` claimed as a whole (such as a Maildir), in walk order. */
export type WalkedFile = { ok: true; path: string; unit: boolean } | { ok: false; error: MailReadError };

export async function* walkFiles(
  root: string,
  options: { isUnit?: (path: string) => Promise<boolean> } = {},
): AsyncGenerator<WalkedFile> {
  let entries: Array<{ name: string; isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }>;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    yield { ok: false, error: { origin: root, code: 'unreadable_file', message } };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      if (await options.isUnit?.(path)) yield { ok: true, path, unit: true };
      else yield* walkFiles(path, options);
    } else if (entry.isFile()) {
      yield { ok: true, path, unit: false };
    } else if (entry.isSymbolicLink() && (await stat(path).catch(() => null))?.isFile()) {
      // Linked files are followed; linked folders are not, so a link cycle cannot trap the walk.
      yield { ok: true, path, unit: false };
    }
  }
}
