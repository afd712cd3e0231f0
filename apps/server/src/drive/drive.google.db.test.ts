import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { type FakeGoogleDrive, startFakeGoogleDrive } from '../../test/google-drive-api';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { LocalBlobStore } from '../invoices/blob.store';
import { IngestService } from '../invoices/ingest.service';
import { ProviderAccessService } from '../oidc/provider-access.service';
import { createDriveFactory } from './drive.factory';
import { DriveService } from './drive.service';

const t = useTestDatabase();

/**
 * Google Drive as the person's drive, through the service: the Google account's stored access token reaches the
 * Drive v3 stand-in (the real client, pointed at it by its root URL), invoices are filed with their hash in
 * appProperties, the Drive button goes to Drive's own page, and a revoked grant stops the run and marks the account.
 */
describe('drive upload to Google Drive', () => {
  let fake: FakeGoogleDrive;
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let drive: DriveService;
  let accounts: AccountsService;
  let dataDir: string;
  let ownerId = '';
  let googleAccountId = '';

  beforeAll(async () => {
    const { db } = t().database;
    fake = await startFakeGoogleDrive();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-gdrive-'));
    const blobs = new LocalBlobStore(path.join(dataDir, 'blobs'));
    accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db);
    const providerAccess = new ProviderAccessService(new Map(), harness.auth.providerTokens, accounts);
    drive = new DriveService(
      db,
      accounts,
      blobs,
      harness.auth.box,
      dataDir,
      createDriveFactory(providerAccess, fake.rootUrl, { backoffMs: 5 }),
    );
    const signup = await signUpThroughApi(harness.app, 'gina@example.com');
    ownerId = signup.userId;
    const account = await accounts.connect(ownerId, { provider: 'google', email: 'gina@gmail.test' });
    googleAccountId = account.userId;
    await harness.auth.providerTokens.store(ownerId, {
      provider: 'google',
      accountEmail: 'gina@gmail.test',
      accessToken: 'valid-token',
      expiresInSeconds: 3600,
      scope: 'https://www.googleapis.com/auth/drive.file',
    });
    const ingest = new IngestService(db, blobs, {
      extract: async ({ bytes }) => ({
        vendor: null,
        amount: 12,
        currency: 'EUR',
        invoice_date: `2025-04-0${Buffer.from(bytes).toString().slice(-1)}`,
        invoice_number: `G-${Buffer.from(bytes).toString().slice(-1)}`,
      }),
    });
    async function* mails() {
      for (const n of [1, 2]) {
        yield {
          ok: true as const,
          origin: `g${n}`,
          source: buildMail({
            from: 'Cloud Ltd <billing@cloud.example>',
            subject: `Invoice G-${n}`,
            messageId: `<g${n}@example.com>`,
            attachments: [{ filename: `invoice-${n}.pdf`, content: Buffer.from(`%PDF-1.4 cloud ${n}`) }],
          }),
        };
      }
    }
    await ingest.ingest(ownerId, googleAccountId, mails());
  });
  afterAll(async () => {
    await harness?.app.close();
    await fake?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is chosen in Settings only after Drive answered, and defaults to the primary Google account', async () => {
    const chosen = await drive.configure(ownerId, { kind: 'google' });
    expect(chosen).toEqual({
      kind: 'google',
      root: 'Google Drive',
      google_account: { id: googleAccountId, email: 'gina@gmail.test' },
      webdav: null,
    });
  });

  it('files each invoice in Invoices/YYYY/MM with its hash in appProperties; a rerun uploads nothing', async () => {
    expect(await drive.upload(ownerId)).toMatchObject({ uploaded: 2, linked: 0, failed: 0, invoices: 2 });
    const filed = fake.filesIn(['Invoices', '2025', '04']);
    expect(filed.map((f) => f.name).sort()).toEqual(['2025-04-01 Cloud Ltd G-1.pdf', '2025-04-02 Cloud Ltd G-2.pdf']);
    expect(filed.every((f) => /^[0-9a-f]{64}$/.test(f.appProperties.sha256 ?? ''))).toBe(true);
    expect(await drive.upload(ownerId)).toMatchObject({ invoices: 0 });
    expect(fake.filesIn(['Invoices', '2025', '04'])).toHaveLength(2);
  });

  it("sends the Drive button to the file's page in Google Drive", async () => {
    const [row] = (await t().database.pool.query(`select id, drive_file_id, drive_target from invoices limit 1`)).rows;
    expect(row.drive_target).toBe(`google:${googleAccountId}`);
    const { url } = await drive.link(ownerId, row.id);
    expect(url).toContain(row.drive_file_id);
  });

  it('stops at a revoked grant, leaves the invoices pending and marks the account for a new sign-in', async () => {
    await t().database.pool.query(`update invoices set status = 'pending', drive_file_id = null, drive_target = null`);
    fake.tokens.clear();
    await expect(drive.upload(ownerId)).rejects.toMatchObject({ code: 'drive_auth' });
    const statuses = (await t().database.pool.query('select status from invoices')).rows.map((r) => r.status);
    expect(statuses).toEqual(['pending', 'pending']);
    const account = (await accounts.list(ownerId)).accounts.find((a) => a.userId === googleAccountId);
    expect(account?.needsReauth).toBe(true);
  });
});
