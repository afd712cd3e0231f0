import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DriveFile, DriveFileNotFoundError, type DriveStore, type DriveUpload } from '../../src/drive/drive.store';
import { driveFolderFor, safeDriveName } from '../../src/drive/drive-naming';

/**
 * The one contract every drive adapter passes (local.drive.test.ts, webdav.drive.test.ts, google.drive.test.ts).
 * Each test gets a fresh, empty drive from `setup`; assertions look at the backing storage itself, not only at what
 * the adapter says.
 */
export interface DriveContractHarness {
  store: DriveStore;
  /** Another adapter instance over the same drive: a restarted server, another worker, a wiped database. */
  another(): DriveStore;
  /** Names of the files in a folder of the backing storage (the adapter's own hidden files left out). */
  list(folder: string[]): Promise<string[]>;
  /** Bytes of folder/name in the backing storage. */
  read(folder: string[], name: string): Promise<Buffer>;
  /** Every file of the backing storage as its path from the drive root (hidden files left out). */
  allFiles(): Promise<string[][]>;
  /** Whatever was written outside the drive root; [] when nothing. */
  outside(): Promise<string[]>;
  teardown(): Promise<void>;
}

export interface TestUpload extends DriveUpload {
  /** How often the adapter opened the bytes. */
  opened: () => number;
}

/** An upload of `content` as the drive service makes it (folder from the date, bytes opened on demand). */
export function testUpload(
  content: Buffer,
  options: { name?: string; folder?: string[]; sha256?: string; size?: number; failWith?: Error } = {},
): TestUpload {
  let opened = 0;
  return {
    folder: options.folder ?? driveFolderFor('2026-03-14', new Date()),
    name: options.name ?? '2026-03-14 Acme GmbH INV-1.pdf',
    sha256: options.sha256 ?? createHash('sha256').update(content).digest('hex'),
    size: options.size ?? content.length,
    contentType: 'application/pdf',
    invoiceId: '00000000-0000-4000-8000-000000000001',
    open: () => {
      opened += 1;
      const failWith = options.failWith;
      if (failWith) {
        return new Readable({
          read() {
            this.destroy(failWith);
          },
        });
      }
      // 64 KiB pieces, like a file stream.
      return Readable.from(
        (function* () {
          for (let i = 0; i < content.length; i += 65_536) yield content.subarray(i, i + 65_536);
        })(),
      );
    },
    opened: () => opened,
  };
}

export function pdf(label: string, size = 2000): Buffer {
  const head = Buffer.from(`%PDF-1.7\n% ${label}\n`);
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
}

/** The file's bytes through `open()`, or null when the adapter redirects (then the URL is checked). */
export async function readThroughStore(store: DriveStore, file: DriveFile): Promise<Buffer | null> {
  const opened = await store.open(file.id);
  if (opened.kind === 'redirect') {
    expect(opened.url).toBe(file.webUrl);
    expect(opened.url).toMatch(/^https:\/\//);
    return null;
  }
  expect(opened.name).toBe(file.name);
  expect(opened.size).toBe(file.size);
  const parts: Buffer[] = [];
  for await (const chunk of opened.stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** Every regular file under `dir` as path segments, hidden ones left out. */
export async function walk(dir: string, prefix: string[] = []): Promise<string[][]> {
  const out: string[][] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) out.push(...(await walk(path.join(dir, entry.name), [...prefix, entry.name])));
    else out.push([...prefix, entry.name]);
  }
  return out;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function describeDriveContract(name: string, setup: () => Promise<DriveContractHarness>): void {
  describe(`${name}: drive contract`, () => {
    let h: DriveContractHarness;
    beforeEach(async () => {
      h = await setup();
    });
    afterEach(async () => {
      await h.teardown();
    });

    it('reaches the drive', async () => {
      const { root } = await h.store.check();
      expect(root).toBeTruthy();
    });

    it('files into Invoices/YYYY/MM, creating the folders, and the bytes read back identical', async () => {
      const content = pdf('first');
      const upload = testUpload(content);
      const result = await h.store.upload(upload);
      expect(result.created).toBe(true);
      expect(result.file).toMatchObject({
        name: '2026-03-14 Acme GmbH INV-1.pdf',
        folder: ['Invoices', '2026', '03'],
        size: content.length,
        sha256: upload.sha256,
      });
      expect(await h.list(['Invoices', '2026', '03'])).toEqual(['2026-03-14 Acme GmbH INV-1.pdf']);
      expect((await h.read(['Invoices', '2026', '03'], result.file.name)).equals(content)).toBe(true);
      const streamed = await readThroughStore(h.store, result.file);
      if (streamed) expect(streamed.equals(content)).toBe(true);
      expect((await h.store.findByHash(['Invoices', '2026', '03'], upload.sha256))?.id).toBe(result.file.id);
      expect(await h.store.findByHash(['Invoices', '2026', '04'], upload.sha256)).toBeNull();
      expect(await h.store.findByHash(['Invoices', '2026', '03'], sha(pdf('other')))).toBeNull();
    });

    it('links the same content instead of uploading it again, even under another name', async () => {
      const content = pdf('twice');
      const first = await h.store.upload(testUpload(content));
      const again = testUpload(content, { name: 'scan 0001.pdf' });
      const second = await h.store.upload(again);
      expect(second.created).toBe(false);
      expect(second.file.id).toBe(first.file.id);
      expect(second.file.name).toBe(first.file.name);
      expect(again.opened()).toBe(0); // a duplicate never reads its bytes
      expect(await h.list(['Invoices', '2026', '03'])).toEqual([first.file.name]);
      // Another month's folder is another folder: the same bytes are filed there too.
      const other = await h.store.upload(testUpload(content, { folder: ['Invoices', '2026', '04'] }));
      expect(other.created).toBe(true);
      expect(other.file.id).not.toBe(first.file.id);
    });

    it('gives the same name with other content a suffixed name and leaves the original alone', async () => {
      const [a, b, c] = [pdf('a'), pdf('b'), pdf('c')];
      const first = await h.store.upload(testUpload(a, { name: 'invoice.pdf' }));
      const second = await h.store.upload(testUpload(b, { name: 'invoice.pdf' }));
      const third = await h.store.upload(testUpload(c, { name: 'invoice.pdf' }));
      expect([first, second, third].map((r) => [r.created, r.file.name])).toEqual([
        [true, 'invoice.pdf'],
        [true, 'invoice (2).pdf'],
        [true, 'invoice (3).pdf'],
      ]);
      const folder = ['Invoices', '2026', '03'];
      expect((await h.list(folder)).sort()).toEqual(['invoice (2).pdf', 'invoice (3).pdf', 'invoice.pdf']);
      expect((await h.read(folder, 'invoice.pdf')).equals(a)).toBe(true);
      expect((await h.read(folder, 'invoice (2).pdf')).equals(b)).toBe(true);
      expect((await h.read(folder, 'invoice (3).pdf')).equals(c)).toBe(true);
      expect(new Set([first.file.id, second.file.id, third.file.id]).size).toBe(3);
    });

    it('finds a file already in the drive after the database was wiped (a new instance, nothing cached)', async () => {
      const content = pdf('kept');
      const first = await h.store.upload(testUpload(content));
      const fresh = h.another();
      const found = await fresh.findByHash(['Invoices', '2026', '03'], sha(content));
      expect(found?.id).toBe(first.file.id);
      const again = await fresh.upload(testUpload(content, { name: 'renamed.pdf' }));
      expect(again).toMatchObject({ created: false, file: { id: first.file.id, name: first.file.name } });
      expect(await h.list(['Invoices', '2026', '03'])).toEqual([first.file.name]);
    });

    it('keeps hostile names and folders inside the drive', async () => {
      const hostile: Array<{ folder: string[]; name: string }> = [
        { folder: ['Invoices', '2026', '03'], name: '../../../../etc/passwd' },
        { folder: ['Invoices', '2026', '03'], name: '..\\..\\evil.pdf' },
        { folder: ['Invoices', '2026', '03'], name: '/absolute.pdf' },
        { folder: ['Invoices', '2026', '03'], name: '..' },
        { folder: ['Invoices', '2026', '03'], name: '.invoicebox-index.json' },
        { folder: ['Invoices', '2026', '03'], name: 'nul\u0000byte\u202etxt.pdf' },
        { folder: ['Invoices', '2026', '03'], name: 'CON' },
        { folder: ['Invoices', '2026', '03'], name: "O'Brien & Söhne #1 100%.pdf" },
        { folder: ['Invoices', '2026', "it's"], name: "back\\slash \\' quote.pdf" },
        { folder: ['Invoices', '2026', '03'], name: `${'long '.repeat(100)}.pdf` },
        { folder: ['Invoices', '..', '..'], name: 'up.pdf' },
        { folder: ['..', '..', 'outside'], name: 'out.pdf' },
        { folder: ['Invoices', '/etc', 'a/b'], name: 'slash.pdf' },
        { folder: [], name: 'rootless.pdf' },
      ];
      const results = [];
      for (const [i, target] of hostile.entries()) {
        const content = pdf(`hostile ${i}`);
        const result = await h.store.upload(testUpload(content, target));
        expect(result.created).toBe(true);
        for (const segment of [...result.file.folder, result.file.name]) expect(safeDriveName(segment)).toBe(segment);
        expect((await h.read(result.file.folder, result.file.name)).equals(content)).toBe(true);
        const streamed = await readThroughStore(h.store, result.file);
        if (streamed) expect(streamed.equals(content)).toBe(true);
        results.push(result);
      }
      const all = await h.allFiles();
      expect(all).toHaveLength(hostile.length);
      for (const path of all) {
        for (const segment of path) {
          expect(segment).not.toMatch(/^\.|[/\\]/);
          expect(safeDriveName(segment)).toBe(segment);
        }
      }
      expect(await h.outside()).toEqual([]);
    });

    it('answers DriveFileNotFoundError for unknown and foreign ids', async () => {
      const content = pdf('known');
      const known = await h.store.upload(testUpload(content));
      const ids = [
        'Invoices/2026/03/nope.pdf',
        'nope',
        '../x',
        '../../etc/passwd',
        '/etc/passwd',
        'Invoices/../../../etc/passwd',
        'Invoices/2026/03/.invoicebox-index.json',
        'Invoices/2026/03',
        `${known.file.id}/../..`,
        '',
        'a\u0000b',
      ];
      for (const id of ids) {
        await expect(h.store.open(id), id).rejects.toBeInstanceOf(DriveFileNotFoundError);
      }
    });

    it('leaves exactly one copy when two instances upload the same content at the same time', async () => {
      const other = h.another();
      for (let round = 0; round < 4; round++) {
        const content = pdf(`race ${round}`);
        const [x, y] = await Promise.all([
          h.store.upload(testUpload(content, { name: `race ${round}.pdf` })),
          other.upload(testUpload(content, { name: `race ${round} copy.pdf` })),
        ]);
        expect(x.file.id).toBe(y.file.id);
        expect([x.created, y.created].filter(Boolean)).toHaveLength(1);
      }
      const names = await h.list(['Invoices', '2026', '03']);
      expect(names).toHaveLength(4);
      expect((await h.allFiles()).map((p) => p.slice(0, -1).join('/'))).toEqual(Array(4).fill('Invoices/2026/03'));
    });

    it('uploads a large file (12 MiB) intact', async () => {
      const content = randomBytes(12 * 1024 * 1024 + 123);
      const result = await h.store.upload(testUpload(content, { name: 'big.pdf' }));
      expect(result).toMatchObject({ created: true, file: { size: content.length } });
      expect(sha(await h.read(['Invoices', '2026', '03'], 'big.pdf'))).toBe(sha(content));
      const streamed = await readThroughStore(h.store, result.file);
      if (streamed) expect(sha(streamed)).toBe(sha(content));
      const again = await h.another().upload(testUpload(content, { name: 'big again.pdf' }));
      expect(again).toMatchObject({ created: false, file: { id: result.file.id } });
    });

    it('refuses bytes that do not match their checksum and leaves nothing behind', async () => {
      const content = pdf('corrupt');
      await expect(h.store.upload(testUpload(content, { sha256: sha(pdf('else')) }))).rejects.toMatchObject({
        code: 'drive_content_mismatch',
      });
      await expect(h.store.upload(testUpload(content, { size: content.length + 10 }))).rejects.toMatchObject({
        code: 'drive_content_mismatch',
      });
      expect(await h.allFiles()).toEqual([]);
    });

    it('passes the error of unreadable bytes on unchanged (a blob missing from storage)', async () => {
      const missing = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
      const error = await h.store.upload(testUpload(pdf('gone'), { failWith: missing })).catch((e: unknown) => e);
      expect(error).toBe(missing);
      expect(await h.allFiles()).toEqual([]);
    });
  });
}
