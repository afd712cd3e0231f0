import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from 'webdav';
import {
  type DriveContractHarness,
  describeDriveContract,
  pdf,
  readThroughStore,
  testUpload,
  walk,
} from '../../test/drive/drive.contract';
import { startWebDav, type TestWebDav } from '../../test/webdav-server';
import { DriveAuthError, DriveUnavailableError } from './drive.store';
import { type WebDavDriveOptions, WebDavDriveStore } from './webdav.drive';

const isRoot = process.getuid?.() === 0;

/** A real Apache whose DAV root holds the drive in `/drive` (so writes outside the drive root would show). */
async function webdavHarness(
  extra: Partial<WebDavDriveOptions> = {},
): Promise<DriveContractHarness & { dav: TestWebDav; root: string; options: WebDavDriveOptions }> {
  const dav = await startWebDav();
  const root = path.join(dav.dir, 'drive');
  await fs.mkdir(root);
  if (isRoot) await fs.chown(root, 33, 33);
  const options: WebDavDriveOptions = {
    url: dav.url,
    username: dav.username,
    password: dav.password,
    rootPath: '/drive',
    backoffMs: 10,
    // The test server is on loopback.
    outbound: { allowPrivate: true },
    ...extra,
  };
  return {
    dav,
    root,
    options,
    store: new WebDavDriveStore(options),
    another: () => new WebDavDriveStore(options),
    list: async (folder) =>
      (await fs.readdir(path.join(root, ...folder)).catch(() => [] as string[]))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    read: (folder, name) => fs.readFile(path.join(root, ...folder, name)),
    allFiles: () => walk(root),
    outside: async () => (await fs.readdir(dav.dir)).filter((n) => n !== 'drive'),
    teardown: () => dav.dispose(),
  };
}

/** Writes a file into the DAV root behind the server's back, as another device syncing the folder would. */
async function putOnDisk(root: string, folder: string[], name: string, content: Buffer): Promise<void> {
  const dir = path.join(root, ...folder);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, name), content);
  if (isRoot) {
    for (let i = 1; i <= folder.length; i++) await fs.chown(path.join(root, ...folder.slice(0, i)), 33, 33);
    await fs.chown(path.join(dir, name), 33, 33);
  }
}

describeDriveContract('WebDAV (Apache mod_dav)', () => webdavHarness());

describe('WebDAV specifics', () => {
  let h: Awaited<ReturnType<typeof webdavHarness>>;
  beforeEach(async () => {
    h = await webdavHarness();
  });
  afterEach(async () => {
    await h.teardown();
  });
  const folder = ['Invoices', '2026', '03'];

  it('ids are paths under the root folder', async () => {
    const result = await h.store.upload(testUpload(pdf('path')));
    expect(result.file).toMatchObject({ id: 'Invoices/2026/03/2026-03-14 Acme GmbH INV-1.pdf', webUrl: null });
    expect(await h.store.check()).toEqual({ root: `${h.dav.url}drive` });
  });

  it('a wrong password is a DriveAuthError', async () => {
    const wrong = new WebDavDriveStore({ ...h.options, password: 'wrong' });
    await expect(wrong.check()).rejects.toBeInstanceOf(DriveAuthError);
    await expect(wrong.upload(testUpload(pdf('x')))).rejects.toBeInstanceOf(DriveAuthError);
    await expect(wrong.open('Invoices/2026/03/x.pdf')).rejects.toBeInstanceOf(DriveAuthError);
  });

  it('a missing root folder is reported, not created', async () => {
    const missing = new WebDavDriveStore({ ...h.options, rootPath: '/nope' });
    await expect(missing.check()).rejects.toBeInstanceOf(DriveUnavailableError);
    await expect(missing.upload(testUpload(pdf('x')))).rejects.toBeInstanceOf(DriveUnavailableError);
    await expect(fs.access(path.join(h.dav.dir, 'nope'))).rejects.toThrow();
  });

  it('a stopped server is a DriveUnavailableError after the retries; it works again once the server is back', async () => {
    await h.store.upload(testUpload(pdf('before')));
    await h.dav.stop();
    const started = Date.now();
    const error = await h.store.upload(testUpload(pdf('during'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10 + 20 + 40 + 80 - 50); // 4 retries with backoff
    await h.dav.start();
    const after = await h.store.upload(testUpload(pdf('after')));
    expect(after.created).toBe(true);
  });

  it('keeps a sidecar index of hashes, and hashes files it does not know (another device, a corrupt index)', async () => {
    const first = await h.store.upload(testUpload(pdf('indexed')));
    const indexPath = path.join(h.root, ...folder, '.invoicebox-index.json');
    const index = JSON.parse(await fs.readFile(indexPath, 'utf8'));
    expect(index).toMatchObject({ version: 1, files: { [first.file.name]: { sha256: first.file.sha256 } } });

    const byHand = pdf('copied by another device', 2000);
    await putOnDisk(h.root, folder, 'from the phone.pdf', byHand);
    const found = await h.another().upload(testUpload(byHand));
    expect(found).toMatchObject({ created: false, file: { name: 'from the phone.pdf' } });
    const learned = JSON.parse(await fs.readFile(indexPath, 'utf8'));
    expect(Object.keys(learned.files).sort()).toEqual([first.file.name, 'from the phone.pdf']);

    await fs.writeFile(indexPath, '{ not json');
    const again = await h.another().upload(testUpload(byHand, { name: 'x.pdf' }));
    expect(again).toMatchObject({ created: false, file: { name: 'from the phone.pdf' } });
  });

  it('does not trust an index entry once the file changed (its ETag moved)', async () => {
    const original = pdf('original', 3000);
    const first = await h.store.upload(testUpload(original));
    await new Promise((r) => setTimeout(r, 20));
    const edited = pdf('edited', 3000); // same size
    await putOnDisk(h.root, folder, first.file.name, edited);
    const store = h.another();
    expect(await store.findByHash(folder, first.file.sha256!)).toBeNull();
    const sha = createHash('sha256').update(edited).digest('hex');
    expect((await store.findByHash(folder, sha))?.name).toBe(first.file.name);
    // The original content is no longer in the drive: it is filed again, next to the edited file.
    const refiled = await store.upload(testUpload(original));
    expect(refiled).toMatchObject({ created: true, file: { name: '2026-03-14 Acme GmbH INV-1 (2).pdf' } });
  });

  it('goes ahead without the lock when another client keeps it too long; nothing is overwritten', async () => {
    await h.store.upload(testUpload(pdf('first'), { name: 'a.pdf' }));
    const other = createClient(h.dav.url, { username: h.dav.username, password: h.dav.password });
    const sidecar = `/drive/${folder.join('/')}/.invoicebox-index.json`;
    const { token } = await other.lock(sidecar, { timeout: 'Second-60' });
    try {
      const patient = new WebDavDriveStore({ ...h.options, lockWaitMs: 300 });
      const started = Date.now();
      const second = await patient.upload(testUpload(pdf('second'), { name: 'a.pdf' }));
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(second).toMatchObject({ created: true, file: { name: 'a (2).pdf' } });
      expect(await h.list(folder)).toEqual(['a (2).pdf', 'a.pdf']);
      const streamed = await readThroughStore(patient, second.file);
      expect(streamed?.subarray(0, 20).toString()).toContain('second');
    } finally {
      await other.unlock(sidecar, `<${token}>`);
    }
  });

  it('a name taken by a racing writer (412) moves on to the next suffix', async () => {
    const content = pdf('mine');
    await h.store.upload(testUpload(pdf('seed'), { name: 'seed.pdf' }));
    const store = h.another();
    // Listing shows the name free; by the time of the PUT another device has written it.
    type Spy = { readFolder: (...args: unknown[]) => Promise<unknown> };
    const original = (store as unknown as Spy).readFolder.bind(store);
    (store as unknown as Spy).readFolder = async (...args: unknown[]) => {
      const state = await original(...args);
      await putOnDisk(h.root, folder, 'raced.pdf', pdf('theirs'));
      return state;
    };
    const result = await store.upload(testUpload(content, { name: 'raced.pdf' }));
    expect(result).toMatchObject({ created: true, file: { name: 'raced (2).pdf' } });
    expect((await h.read(folder, 'raced.pdf')).toString()).toContain('theirs');
    expect((await h.read(folder, 'raced (2).pdf')).equals(content)).toBe(true);
  });
});

describe('WebDAV through a failing proxy', () => {
  let dav: TestWebDav;
  let proxy: http.Server;
  let proxyUrl: string;
  const plan: Array<{ status: number; headers?: Record<string, string> }> = [];
  let seen: string[] = [];

  beforeAll(async () => {
    dav = await startWebDav();
    const upstream = new URL(dav.url);
    proxy = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const next = plan.shift();
      if (next) {
        req.resume();
        req.on('end', () => {
          res.writeHead(next.status, next.headers ?? {});
          res.end(`failing with ${next.status}`);
        });
        return;
      }
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
    await dav.dispose();
  });
  beforeEach(() => {
    plan.length = 0;
    seen = [];
  });

  const store = (extra: Partial<WebDavDriveOptions> = {}) =>
    new WebDavDriveStore({
      url: proxyUrl,
      username: dav.username,
      password: dav.password,
      backoffMs: 5,
      outbound: { allowPrivate: true },
      ...extra,
    });

  it('refuses a server on this machine unless the operator allows it, before sending anything and without retries', async () => {
    const error = await store({ outbound: undefined })
      .check()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect((error as Error).message).toMatch(/is not an allowed target/);
    expect(seen).toEqual([]);
  });

  it.each([
    ['by address', 'http://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['by a name that resolves to it', 'http://metadata.test/latest/meta-data/'],
  ])('refuses a redirect to the metadata service (%s), without retrying', async (_how, location) => {
    plan.push({ status: 302, headers: { location } });
    const resolve = async (host: string) =>
      host === 'metadata.test' ? [{ address: '169.254.169.254', family: 4 as const }] : [];
    const error = await store({ outbound: { allowPrivate: true, resolve } })
      .check()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect((error as Error).message).toMatch(/is not an allowed target/);
    expect(seen).toHaveLength(1);
  });

  it('follows a redirect to an allowed address', async () => {
    plan.push({ status: 307, headers: { location: `${proxyUrl}?moved` } });
    await expect(store().check()).resolves.toEqual({ root: proxyUrl });
    expect(seen).toEqual(['PROPFIND /', 'PROPFIND /?moved']);
  });

  it.each([503, 500, 429, 507])('retries %d and then succeeds', async (status) => {
    plan.push({ status }, { status });
    const result = await store().upload(testUpload(pdf(`after ${status}`), { name: `after ${status}.pdf` }));
    expect(result.created).toBe(true);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[1]).toBe(seen[2]); // the same request, three times
  });

  it('honours Retry-After', async () => {
    plan.push({ status: 429, headers: { 'retry-after': '1' } });
    const started = Date.now();
    await store().check();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up with DriveUnavailableError after the retries', async () => {
    for (let i = 0; i < 10; i++) plan.push({ status: 503 });
    const error = await store({ retries: 3 })
      .check()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect((error as Error).message).toMatch(/HTTP 503/);
    expect(seen).toHaveLength(4);
  });

  it('a 403 is a DriveAuthError at once', async () => {
    plan.push({ status: 403 });
    await expect(store().check()).rejects.toBeInstanceOf(DriveAuthError);
    expect(seen).toHaveLength(1);
  });

  it('a server that accepts and never answers times out into DriveUnavailableError', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      const mute = new WebDavDriveStore({
        url: `http://127.0.0.1:${port}/`,
        username: 'u',
        password: 'p',
        timeoutMs: 100,
        retries: 1,
        backoffMs: 5,
        outbound: { allowPrivate: true },
      });
      const error = await mute.check().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DriveUnavailableError);
      expect((error as Error).message).toMatch(/timed out/);
      expect(sockets.length).toBe(2);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});
