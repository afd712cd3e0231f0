import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DriveContractHarness, describeDriveContract, pdf, testUpload } from '../../test/drive/drive.contract';
import { type FakeGoogleDrive, startFakeGoogleDrive } from '../../test/google-drive-api';
import { DriveAuthError, DriveFileNotFoundError, DriveUnavailableError } from './drive.store';
import { GoogleDriveStore, type GoogleDriveStoreOptions } from './google.drive';

const FOLDER_MIME = 'application/vnd.google-apps.folder';

/** Any request that would leave this machine fails the test instead (RECIPES §6: media uploads ignore rootUrl). */
const localOnly = (url: URL) => {
  if (url.hostname !== '127.0.0.1') throw new Error(`non-local request: ${url}`);
};

async function googleHarness(
  extra: Partial<GoogleDriveStoreOptions> = {},
): Promise<
  DriveContractHarness & { fake: FakeGoogleDrive; make: (o?: Partial<GoogleDriveStoreOptions>) => GoogleDriveStore }
> {
  const fake = await startFakeGoogleDrive();
  const make = (o: Partial<GoogleDriveStoreOptions> = {}) =>
    new GoogleDriveStore({
      accessToken: async () => 'valid-token',
      rootUrl: fake.rootUrl,
      backoffMs: 5,
      guard: localOnly,
      ...extra,
      ...o,
    });
  const live = () => fake.files.filter((f) => f.mimeType !== FOLDER_MIME && !f.trashed);
  return {
    fake,
    make,
    store: make(),
    another: () => make(),
    list: async (folder) =>
      fake
        .filesIn(folder)
        .map((f) => f.name)
        .sort(),
    read: async (folder, name) => {
      const file = fake.filesIn(folder).find((f) => f.name === name);
      if (!file) throw new Error(`no ${name} in ${folder.join('/')}`);
      return file.content;
    },
    allFiles: async () => live().map((f) => fake.pathOf(f) ?? ['<outside>', f.name]),
    outside: async () =>
      live()
        .filter((f) => fake.pathOf(f) === null)
        .map((f) => f.name),
    teardown: () => fake.close(),
  };
}

describeDriveContract('Google Drive (local stand-in)', () => googleHarness());

describe('Google Drive specifics', () => {
  let h: Awaited<ReturnType<typeof googleHarness>>;
  beforeEach(async () => {
    h = await googleHarness();
  });
  afterEach(async () => {
    await h.teardown();
  });
  const folder = ['Invoices', '2026', '03'];
  const uploads = () => h.fake.requests.filter((r) => r.startsWith('POST /upload/') || r.startsWith('PUT /upload/'));

  it('the guard really stops requests that would go to Google', async () => {
    const unguarded = new GoogleDriveStore({ accessToken: async () => 'valid-token', guard: localOnly });
    await expect(unguarded.check()).rejects.toThrow(/non-local request: https:\/\/www\.googleapis\.com\//);
  });

  it('files with appProperties, ids are Drive ids, open redirects to webViewLink', async () => {
    const content = pdf('props');
    const result = await h.store.upload(testUpload(content));
    const [file] = h.fake.filesIn(folder);
    expect(file?.id).toBe(result.file.id);
    expect(file?.appProperties).toEqual({
      sha256: result.file.sha256,
      md5: createHash('md5').update(content).digest('hex'),
      invoiceId: '00000000-0000-4000-8000-000000000001',
    });
    expect(file?.mimeType).toBe('application/pdf');
    expect(result.file.webUrl).toBe(`https://drive.google.com/file/d/${file?.id}/view?usp=drivesdk`);
    expect(await h.store.open(result.file.id)).toEqual({ kind: 'redirect', url: result.file.webUrl });
    expect(await h.store.check()).toEqual({ root: 'Google Drive (me@gmail.test)' });
  });

  it('uses one multipart request for small files and a resumable upload above the threshold', async () => {
    await h.store.upload(testUpload(pdf('small', 5 * 1024 * 1024)));
    expect(uploads()).toEqual([expect.stringMatching(/^POST \/upload\/drive\/v3\/files\?.*uploadType=multipart/)]);
    h.fake.requests.length = 0;
    const big = pdf('big', 5 * 1024 * 1024 + 1);
    const chunked = h.make({ chunkSize: 2 * 1024 * 1024 });
    const result = await chunked.upload(testUpload(big, { name: 'big.pdf' }));
    expect(uploads()).toEqual([
      expect.stringMatching(/^POST \/upload\/drive\/v3\/files\?uploadType=resumable/),
      expect.stringMatching(/^PUT \/upload\/drive\/v3\/files\?uploadType=resumable&upload_id=/),
      expect.stringMatching(/^PUT /),
      expect.stringMatching(/^PUT /),
    ]);
    expect(
      h.fake
        .filesIn(folder)
        .find((f) => f.id === result.file.id)
        ?.content.equals(big),
    ).toBe(true);
  });

  it('resumes a resumable upload where Drive stopped after a failed chunk', async () => {
    const big = pdf('resume', 6 * 1024 * 1024);
    const store = h.make({ chunkSize: 1024 * 1024 });
    h.fake.failNext(1, 503, 'backendError', 'PUT /upload/');
    h.fake.failNext(1, 500, 'backendError', 'PUT /upload/');
    const result = await store.upload(testUpload(big, { name: 'resumed.pdf' }));
    expect(result.created).toBe(true);
    expect(h.fake.filesIn(folder).map((f) => [f.name, f.content.equals(big)])).toEqual([['resumed.pdf', true]]);
    expect(uploads().filter((r) => r.startsWith('POST'))).toHaveLength(1); // one session throughout
  });

  it('starts over when the upload session expired', async () => {
    const big = pdf('expired', 6 * 1024 * 1024);
    h.fake.failNext(1, 404, 'notFound', 'PUT /upload/');
    const result = await h.store.upload(testUpload(big, { name: 'again.pdf' }));
    expect(result.created).toBe(true);
    expect(h.fake.filesIn(folder).map((f) => [f.name, f.content.equals(big)])).toEqual([['again.pdf', true]]);
    expect(uploads().filter((r) => r.startsWith('POST'))).toHaveLength(2);
  });

  it.each([
    [429, 'rateLimitExceeded'],
    [403, 'userRateLimitExceeded'],
    [403, 'rateLimitExceeded'],
    [500, 'backendError'],
    [503, 'backendError'],
  ])('backs off on %d %s and then succeeds', async (status, reason) => {
    h.fake.failNext(2, status, reason);
    const result = await h.store.upload(testUpload(pdf(`${status} ${reason}`)));
    expect(result.created).toBe(true);
    expect(h.fake.filesIn(folder)).toHaveLength(1);
  });

  it('gives up with DriveUnavailableError when the errors go on', async () => {
    h.fake.failNext(50, 429, 'rateLimitExceeded');
    await expect(h.store.check()).rejects.toBeInstanceOf(DriveUnavailableError);
    expect(h.fake.requests).toHaveLength(6);
  });

  it('an unreachable API is a DriveUnavailableError after the retries', async () => {
    await h.fake.close();
    const error = await h.store.upload(testUpload(pdf('nowhere'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('a full Drive is a DriveUnavailableError at once', async () => {
    h.fake.failNext(1, 403, 'storageQuotaExceeded');
    const error = await h.store.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriveUnavailableError);
    expect((error as Error).message).toMatch(/full/);
    expect(h.fake.requests).toHaveLength(1);
  });

  it('a 403 without a rate limit (missing scope) is a DriveAuthError', async () => {
    h.fake.failNext(1, 403, 'insufficientPermissions');
    await expect(h.store.check()).rejects.toBeInstanceOf(DriveAuthError);
  });

  it('refreshes the token once on 401', async () => {
    h.fake.tokens.clear();
    h.fake.tokens.add('fresh');
    const asked: boolean[] = [];
    const store = h.make({
      accessToken: async (force) => {
        asked.push(force);
        return force ? 'fresh' : 'stale';
      },
    });
    const result = await store.upload(testUpload(pdf('refresh')));
    expect(result.created).toBe(true);
    expect(asked).toEqual([false, true]);
  });

  it('a revoked grant (401 after the refresh too) is a DriveAuthError', async () => {
    h.fake.tokens.clear();
    const asked: boolean[] = [];
    const store = h.make({
      accessToken: async (force) => {
        asked.push(force);
        return 'revoked';
      },
    });
    await expect(store.upload(testUpload(pdf('revoked')))).rejects.toBeInstanceOf(DriveAuthError);
    expect(asked).toEqual([false, true]);
    expect(h.fake.files).toHaveLength(0);
  });

  it('opens any file of the drive, also one without our appProperties; trashed files and folders are not found', async () => {
    const theirs = h.fake.addFile({ name: 'uploaded by hand.pdf', content: pdf('theirs') });
    expect(await h.store.open(theirs.id)).toEqual({
      kind: 'redirect',
      url: `https://drive.google.com/file/d/${theirs.id}/view?usp=drivesdk`,
    });
    theirs.trashed = true;
    await expect(h.store.open(theirs.id)).rejects.toBeInstanceOf(DriveFileNotFoundError);
    const ours = await h.store.upload(testUpload(pdf('ours')));
    const folderId = h.fake.files.find((f) => f.mimeType === FOLDER_MIME && f.name === '03')!.id;
    await expect(h.store.open(folderId)).rejects.toBeInstanceOf(DriveFileNotFoundError);
    h.fake.files.splice(
      h.fake.files.findIndex((f) => f.id === ours.file.id),
      1,
    );
    await expect(h.store.open(ours.file.id)).rejects.toBeInstanceOf(DriveFileNotFoundError);
  });

  it('does not take a file whose content was replaced in Drive (md5 no longer matches) as the duplicate', async () => {
    const content = pdf('original');
    const first = await h.store.upload(testUpload(content));
    const file = h.fake.files.find((f) => f.id === first.file.id)!;
    file.content = pdf('new revision', content.length); // a new revision keeps the appProperties
    const again = await h.another().upload(testUpload(content));
    expect(again).toMatchObject({ created: true, file: { name: '2026-03-14 Acme GmbH INV-1 (2).pdf' } });
  });

  it('ignores trashed copies and makes the folders again when they were trashed', async () => {
    const content = pdf('trash');
    const first = await h.store.upload(testUpload(content));
    for (const f of h.fake.files) f.trashed = true;
    const again = await h.another().upload(testUpload(content));
    expect(again.created).toBe(true);
    expect(again.file.id).not.toBe(first.file.id);
    expect(h.fake.filesIn(folder).map((f) => f.id)).toEqual([again.file.id]);
  });

  it('makes the folder again when it was deleted while this instance had it cached', async () => {
    await h.store.upload(testUpload(pdf('one')));
    h.fake.files.length = 0; // the whole tree deleted (not trashed) in Drive
    const second = await h.store.upload(testUpload(pdf('two')));
    expect(second.created).toBe(true);
    expect(h.fake.filesIn(folder).map((f) => f.id)).toEqual([second.file.id]);
  });

  it('two instances creating the folder tree at once end up with one tree', async () => {
    const a = h.make();
    const b = h.make();
    await Promise.all([
      a.upload(testUpload(pdf('a'), { name: 'a.pdf' })),
      b.upload(testUpload(pdf('b'), { name: 'b.pdf' })),
    ]);
    const folders = h.fake.files.filter((f) => f.mimeType === FOLDER_MIME).map((f) => h.fake.pathOf(f)!.join('/'));
    expect(folders.sort()).toEqual(['Invoices', 'Invoices/2026', 'Invoices/2026/03']);
    expect(
      h.fake
        .filesIn(folder)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['a.pdf', 'b.pdf']);
  });

  it('two instances filing other content under the same name at once end up with two names', async () => {
    await h.store.upload(testUpload(pdf('seed'), { name: 'seed.pdf' })); // folders exist already
    const [x, y] = await Promise.all([
      h.make().upload(testUpload(pdf('x'), { name: 'same.pdf' })),
      h.make().upload(testUpload(pdf('y'), { name: 'same.pdf' })),
    ]);
    expect([x.file.name, y.file.name].sort()).toEqual(['same (2).pdf', 'same.pdf']);
    expect(
      h.fake
        .filesIn(folder)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['same (2).pdf', 'same.pdf', 'seed.pdf']);
  });
});
