/**
 * Reads a Maildir: every message file in `cur/` and `new/` (not `tmp/`, where deliveries are still being written),
 * plus the Maildir++ sub-folders (`.Sent/`, `.Archive/` …) that have the same layout.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readMessageFile } from './eml.reader';
import type { RawMail } from './mail-message';

export async function isMaildir(path: string): Promise<boolean> {
  const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() ?? false;
  return (await isDir(join(path, 'cur'))) && (await isDir(join(path, 'new')));
}

async function* messageFiles(folder: string): AsyncGenerator<RawMail> {
  for (const sub of ['cur', 'new']) {
    const dir = join(folder, sub);
    let names: string[];
    try {
      names = (await readdir(dir, { withFileTypes: true }))
        .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      yield { ok: false, error: { origin: dir, code: 'unreadable_file', message } };
      continue;
    }
    for (const name of names) yield await readMessageFile(join(dir, name));
  }
}

export async function* readMaildir(path: string): AsyncGenerator<RawMail> {
  yield* messageFiles(path);
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  const folders = entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('.') && entry.name !== '.' && entry.name !== '..')
    .map((entry) => entry.name)
    .sort();
  for (const name of folders) {
    const folder = join(path, name);
    if (await isMaildir(folder)) yield* messageFiles(folder);
  }
}
