/**
 * Picks the reader by what a path is:
 * - a Maildir (a folder with `cur/` and `new/`): its messages;
 * - any other folder: recursively, its .eml files, .mbox files and Maildirs;
 * - a .mbox/.mbx file, or a file without the .eml extension whose first line is an mbox `From ` line: an mbox;
 * - any other file: a single message.
 * Messages are yielded one at a time and parsed as they are reached, so memory stays bounded by one message.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { NotFoundError, ValidationError } from '../errors';
import { isEmlFile, readEmlFile, readMessageFile } from './eml.reader';
import { walkFiles } from './mail-files';
import { DEFAULT_MAIL_LIMITS, type MailLimits } from './mail-limits';
import type { MailReadResult, RawMail } from './mail-message';
import { parseMailMessage } from './mail-message.parser';
import { isMaildir, readMaildir } from './maildir.reader';
import { readMbox } from './mbox.reader';

const MBOX_EXTENSIONS = new Set(['.mbox', '.mbx']);

async function startsWithFromLine(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(5), position: 0 });
    return bytesRead === 5 && buffer.toString('latin1') === 'From ';
  } finally {
    await handle.close();
  }
}

async function isMboxFile(path: string): Promise<boolean> {
  if (MBOX_EXTENSIONS.has(extname(path).toLowerCase())) return true;
  if (isEmlFile(path)) return false;
  return startsWithFromLine(path).catch(() => false);
}

/**
 * The raw messages under a path. A missing path throws NotFoundError, a device or pipe ValidationError; every problem
 * below the path is reported as data.
 */
export async function* readRawMailPath(path: string, limits: Partial<MailLimits> = {}): AsyncGenerator<RawMail> {
  const { maxMessageBytes } = { ...DEFAULT_MAIL_LIMITS, ...limits };
  const info = await stat(path).catch(() => null);
  if (!info) throw new NotFoundError(`No such file or folder: ${path}`);
  if (info.isDirectory()) {
    if (await isMaildir(path)) {
      yield* readMaildir(path);
      return;
    }
    // A Maildir inside the folder is read as one unit, so its cur/new files are not taken for loose files.
    for await (const file of walkFiles(path, { isUnit: isMaildir })) {
      if (!file.ok) yield file;
      else if (file.unit) yield* readMaildir(file.path);
      else if (isEmlFile(file.path)) yield await readMessageFile(file.path, maxMessageBytes);
      else if (MBOX_EXTENSIONS.has(extname(file.path).toLowerCase())) yield* readMbox(file.path, maxMessageBytes);
    }
    return;
  }
  if (!info.isFile()) throw new ValidationError(`Not a file or folder: ${path}`);
  if (await isMboxFile(path)) yield* readMbox(path, maxMessageBytes);
  else yield* readEmlFile(path, maxMessageBytes);
}

/** The parsed messages under a path, one at a time; unreadable messages come as error records. */
export async function* readMailPath(path: string, limits: Partial<MailLimits> = {}): AsyncGenerator<MailReadResult> {
  for await (const raw of readRawMailPath(path, limits)) {
    yield raw.ok ? await parseMailMessage(raw.source, raw.origin, limits) : { ok: false, error: raw.error };
  }
}
