import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { mailDatasets } from '../../test/mail/mail-builder';
import { loadConfig } from '../config';
import { invoices } from '../invoices/invoices.tables';
import { createLogger } from '../logger';
import { createRuntime, type Runtime } from '../runtime';
import { InboxFolder, safeBaseName } from './inbox-folder';

const t = useTestDatabase();
const pdfs = path.resolve(mailDatasets, '../invoices-pdf');

/**
 * The watched inbox folder on the real runtime. Passes are called one by one (what the timer does every
 * INBOX_POLL_SECONDS), so the tests wait for nothing.
 */
describe('the inbox folder', () => {
  let runtime: Runtime;
  let root: string;
  let inbox: string;
  let ownerId = '';
  let azure: Buffer;
  let flipkart: Buffer;

  const folder = () => new InboxFolder(runtime.uploads, { dir: inbox, pollMs: 60_000, ownerId: async () => ownerId });
  const ls = async (sub = '') => (await fs.readdir(path.join(inbox, sub))).sort();

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-inbox-'));
    inbox = path.join(root, 'inbox');
    await fs.mkdir(inbox);
    const config = loadConfig({
      DATABASE_URL: t().url,
      INVOICEBOX_DATA_DIR: path.join(root, 'data'),
      INVOICEBOX_SECRET: TEST_SECRET,
      INVOICEBOX_WORKERS: 'false',
    });
    runtime = await createRuntime(config, createLogger('silent', new Writable({ write: (_c, _e, done) => done() })));
    await runtime.auth.local.signUp({ email: 'owner@example.com', password: 'a long password' }, {});
    ownerId = (await runtime.users.owner())!.id;
    azure = await fs.readFile(path.join(pdfs, 'AzureInterior.pdf'));
    flipkart = await fs.readFile(path.join(pdfs, 'FlipkartInvoice.pdf'));
  });
  afterAll(async () => {
    await runtime?.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('takes what arrived while nothing ran, once each, into done/ or failed/ with a reason', async () => {
    // Files that were put there while the server was down.
    await fs.writeFile(path.join(inbox, 'azure.pdf'), azure);
    await fs.writeFile(path.join(inbox, 'azure again.pdf'), azure);
    await fs.writeFile(path.join(inbox, 'notes.txt'), 'not a document');
    // The server starts: a new watcher knows nothing of them.
    const watcher = folder();
    await watcher.start();
    await watcher.stop(); // start made the sub-folders and ran its first pass (sizes seen once)
    expect(await ls('done')).toEqual([]);
    const results = await watcher.pass();
    expect(results.map((r) => r.status).sort()).toEqual(['added', 'duplicate', 'failed']);
    expect(await ls('done')).toEqual(['azure again.pdf', 'azure.pdf']);
    expect(await ls('failed')).toEqual(['notes.txt', 'notes.txt.reason.txt']);
    expect(await fs.readFile(path.join(inbox, 'failed', 'notes.txt.reason.txt'), 'utf8')).toMatch(/not a document/);
    expect(await ls()).toEqual(['.claimed', 'done', 'failed']);
    expect(await ls('.claimed')).toEqual([]);
    // Nothing is taken twice.
    expect(await watcher.pass()).toEqual([]);
    const sha = createHash('sha256').update(azure).digest('hex');
    const rows = await t()
      .database.db.select()
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.dedupeKey, sha)));
    expect(rows).toHaveLength(1);
  });

  it('leaves a file that is still being written until its size holds still', async () => {
    const watcher = folder();
    const file = path.join(inbox, 'flipkart.pdf');
    await fs.writeFile(file, flipkart.subarray(0, 1000));
    expect(await watcher.pass()).toEqual([]);
    await fs.appendFile(file, flipkart.subarray(1000, 5000));
    expect(await watcher.pass()).toEqual([]); // it grew since the last look
    await fs.appendFile(file, flipkart.subarray(5000));
    expect(await watcher.pass()).toEqual([]);
    const [result] = await watcher.pass(); // unchanged over two looks: taken, whole
    expect(result).toMatchObject({ name: 'flipkart.pdf', status: 'added' });
    expect(await fs.readFile(path.join(inbox, 'done', 'flipkart.pdf'))).toEqual(flipkart);
  });

  it('files an unreadable document under failed/ each time it is put there, not as done the second time', async () => {
    const watcher = folder();
    const broken = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog');
    for (const name of ['broken.pdf', 'broken again.pdf']) {
      await fs.writeFile(path.join(inbox, name), broken);
      await watcher.pass();
      const [result] = await watcher.pass();
      expect(result).toMatchObject({ name, status: 'unreadable' });
      expect(await ls('failed')).toContain(`${name}.reason.txt`);
      expect(await ls('done')).not.toContain(name);
    }
    expect(await fs.readFile(path.join(inbox, 'failed', 'broken again.pdf.reason.txt'), 'utf8')).toMatch(
      /could not be read/,
    );
  });

  it('lets only one of several processes take each file', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `doc-${i}.pdf`);
    for (const [i, name] of names.entries()) {
      await fs.writeFile(path.join(inbox, name), Buffer.from(`%PDF-1.4 distinct document ${i}`));
    }
    const watchers = [folder(), folder(), folder()];
    await Promise.all(watchers.map((w) => w.pass()));
    const taken = (await Promise.all(watchers.map((w) => w.pass()))).flat();
    expect(taken.map((r) => r.name).sort()).toEqual(names);
    const done = await ls('done');
    const failed = await ls('failed');
    for (const name of names) expect(done.includes(name) || failed.includes(name)).toBe(true);
    expect(done.filter((n) => n.includes('(2)'))).toEqual([]);
  });

  it('never lets a name from the folder escape it, and follows no links', async () => {
    const outside = path.join(root, 'outside.pdf');
    await fs.writeFile(outside, azure);
    await fs.symlink(outside, path.join(inbox, 'link.pdf'));
    const hostile = 'x\\..\\..\\evil\n\u202Egpj.pdf';
    await fs.writeFile(path.join(inbox, hostile), Buffer.from('%PDF-1.4 hostile name'));
    const watcher = folder();
    await watcher.pass();
    const results = await watcher.pass();
    expect(results.map((r) => r.name)).toEqual(['evilgpj.pdf']);
    expect([...(await ls('done')), ...(await ls('failed'))]).toContain('evilgpj.pdf');
    expect((await ls('done')).concat(await ls('failed')).some((n) => n.startsWith('..'))).toBe(false);
    expect(await fs.readFile(outside)).toEqual(azure);
    expect((await fs.lstat(path.join(inbox, 'link.pdf'))).isSymbolicLink()).toBe(true);
    expect((await fs.readdir(root)).sort()).toEqual(['data', 'inbox', 'outside.pdf']);
    expect(safeBaseName('../../x')).toBe('x');
    expect(safeBaseName('..')).toBe('file');
    expect(safeBaseName('.hidden')).toBe('hidden');
  });
});
