import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMail, buildMbox, mailDatasets } from '../../test/mail/mail-builder';
import { NotFoundError, ValidationError } from '../errors';
import { readEmlFolder } from './eml.reader';
import type { MailReadResult, RawMail } from './mail-message';
import { readMailPath, readRawMailPath } from './mail-path.reader';
import { isMaildir, readMaildir } from './maildir.reader';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
const origins = (items: Array<RawMail | MailReadResult>) =>
  items.map((item) => {
    if (!item.ok) return `error ${item.error.code} ${item.error.origin}`;
    return 'origin' in item ? item.origin : item.message.origin;
  });

let dir: string;
const at = (...parts: string[]) => path.join(dir, ...parts);
const mail = (subject: string) => buildMail({ subject });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'invoicebox-mailpath-'));
  // A folder of .eml files, nested, with files that are not mail.
  await mkdir(at('folder', 'sub', 'deeper'), { recursive: true });
  await writeFile(at('folder', 'b.eml'), mail('b'));
  await writeFile(at('folder', 'a.EML'), mail('a'));
  await writeFile(at('folder', 'notes.txt'), 'not a mail');
  await writeFile(at('folder', '.hidden.eml'), mail('hidden'));
  await writeFile(at('folder', 'sub', 'c.eml'), mail('c'));
  await writeFile(at('folder', 'sub', 'deeper', 'd.eml'), mail('d'));
  await writeFile(at('folder', 'sub', 'empty.eml'), '');
  await symlink(at('single.eml'), at('folder', 'sub', 'linked.eml'));
  await symlink(at('folder'), at('folder', 'sub', 'loop'));
  // A Maildir with a Maildir++ sub-folder.
  for (const sub of ['cur', 'new', 'tmp', '.Sent/cur', '.Sent/new'])
    await mkdir(at('Maildir', sub), { recursive: true });
  await writeFile(at('Maildir', 'cur', '1700000000.M1P1.host:2,S'), mail('seen'));
  await writeFile(at('Maildir', 'new', '1700000001.M2P1.host'), mail('new'));
  await writeFile(at('Maildir', 'tmp', '1700000002.M3P1.host'), mail('being delivered'));
  await writeFile(at('Maildir', '.Sent', 'cur', '1700000003.M4P1.host:2,S'), mail('sent'));
  // A mixed folder: an mbox, an eml and a Maildir inside.
  await mkdir(at('mixed', 'inbox', 'cur'), { recursive: true });
  await mkdir(at('mixed', 'inbox', 'new'), { recursive: true });
  await writeFile(at('mixed', 'inbox', 'cur', 'm1:2,'), mail('maildir'));
  await writeFile(at('mixed', 'All mail.mbox'), buildMbox([mail('m1'), mail('m2')]));
  await writeFile(at('mixed', 'z.eml'), mail('z'));
  // Single files.
  await writeFile(at('single.eml'), mail('single'));
  await writeFile(at('export'), buildMbox([mail('x1'), mail('x2'), mail('x3')]));
  await writeFile(at('envelope.eml'), Buffer.concat([Buffer.from('From x@y Mon Nov  2 10:00:00 2026\n'), mail('env')]));
  await writeFile(at('junk.bin'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256)));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readEmlFolder', () => {
  it('reads every .eml under the folder in name order, skipping hidden entries and other files', async () => {
    expect(origins(await collect(readEmlFolder(at('folder'))))).toEqual([
      at('folder', 'a.EML'),
      at('folder', 'b.eml'),
      at('folder', 'sub', 'c.eml'),
      at('folder', 'sub', 'deeper', 'd.eml'),
      at('folder', 'sub', 'empty.eml'),
      at('folder', 'sub', 'linked.eml'),
    ]);
  });
});

describe('readMaildir', () => {
  it('recognises a Maildir', async () => {
    expect(await isMaildir(at('Maildir'))).toBe(true);
    expect(await isMaildir(at('folder'))).toBe(false);
  });

  it('reads cur and new (not tmp) and the Maildir++ sub-folders', async () => {
    expect(origins(await collect(readMaildir(at('Maildir'))))).toEqual([
      at('Maildir', 'cur', '1700000000.M1P1.host:2,S'),
      at('Maildir', 'new', '1700000001.M2P1.host'),
      at('Maildir', '.Sent', 'cur', '1700000003.M4P1.host:2,S'),
    ]);
  });
});

describe('readMailPath', () => {
  const subjects = async (p: string) =>
    (await collect(readMailPath(p))).map((r) => (r.ok ? r.message.subject : `error ${r.error.code}`));

  it.each([
    ['a single .eml', 'single.eml', ['single']],
    ['an .eml with an envelope line', 'envelope.eml', ['env']],
    ['an mbox without extension, by its first line', 'export', ['x1', 'x2', 'x3']],
    ['a Maildir', 'Maildir', ['seen', 'new', 'sent']],
    ['a folder of .eml files', 'folder', ['a', 'b', 'c', 'd', 'error empty_message', 'single']],
    ['a folder with an mbox, a Maildir and an .eml', 'mixed', ['m1', 'm2', 'maildir', 'z']],
    ['binary junk', 'junk.bin', ['error not_a_message']],
  ])('reads %s', async (_label, name, expected) => {
    expect(await subjects(at(name))).toEqual(expected);
  });

  it('names the mbox messages path#n', async () => {
    expect(origins(await collect(readRawMailPath(at('export'))))).toEqual([
      `${at('export')}#1`,
      `${at('export')}#2`,
      `${at('export')}#3`,
    ]);
  });

  it('throws NotFoundError for a missing path', async () => {
    await expect(collect(readMailPath(at('nope')))).rejects.toThrow(NotFoundError);
    await expect(collect(readMailPath(at('nope')))).rejects.toThrow(`No such file or folder: ${at('nope')}`);
  });

  it('refuses a path that is neither a file nor a folder', async () => {
    await expect(collect(readMailPath('/dev/null'))).rejects.toThrow(ValidationError);
  });

  it('reads the whole dataset folder without an error record', async () => {
    const results = await collect(readMailPath(mailDatasets));
    expect(results.length).toBe(37);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });
});
