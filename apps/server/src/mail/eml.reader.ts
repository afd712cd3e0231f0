/** Reads single message files: one .eml, or every .eml under a folder (recursively, in name order). */
import { readFile, stat } from 'node:fs/promises';
import { walkFiles } from './mail-files';
import { DEFAULT_MAIL_LIMITS } from './mail-limits';
import type { RawMail } from './mail-message';

/** One message file. A file that cannot be read, or is over the limit, is an error record, never a throw. */
export async function readMessageFile(
  path: string,
  maxMessageBytes = DEFAULT_MAIL_LIMITS.maxMessageBytes,
): Promise<RawMail> {
  try {
    const info = await stat(path);
    if (info.size > maxMessageBytes) {
      return {
        ok: false,
        error: {
          origin: path,
          code: 'message_too_large',
          message: `message is ${info.size} bytes, over the ${maxMessageBytes}-byte limit`,
        },
      };
    }
    return { ok: true, origin: path, source: await readFile(path) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { origin: path, code: 'unreadable_file', message } };
  }
}

export async function* readEmlFile(path: string, maxMessageBytes?: number): AsyncGenerator<RawMail> {
  yield await readMessageFile(path, maxMessageBytes);
}

export const isEmlFile = (name: string) => name.toLowerCase().endsWith('.eml');

/** Every .eml file under a folder, recursively. */
export async function* readEmlFolder(path: string, maxMessageBytes?: number): AsyncGenerator<RawMail> {
  for await (const file of walkFiles(path)) {
    if (!file.ok) {
      yield file;
      continue;
    }
    if (isEmlFile(file.path)) yield await readMessageFile(file.path, maxMessageBytes);
  }
}
