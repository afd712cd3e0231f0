import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { mailDatasets } from '../../test/mail/mail-builder';
import { startS3, type TestS3 } from '../../test/s3-server';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { loadConfig } from '../config';
import { users } from '../db/schema';
import { LocalBlobStore } from '../invoices/blob.store';
import { referencedDocuments } from '../invoices/blob-migration';
import { IngestService } from '../invoices/ingest.service';
import { PgBlobStore } from '../invoices/pg-blob.store';
import { createS3Client, S3BlobStore } from '../invoices/s3-blob.store';
import { readRawMailPath } from '../mail/mail-path.reader';
import { runBlobsCheck, runBlobsMigrate } from './blobs.command';

const t = useTestDatabase();

/**
 * `invoicebox blobs migrate` and `blobs check` on a data folder as this release lays it out: the mail datasets
 * ingested with documents under `<data dir>/blobs/ab/cd/<sha256>`, moved to PostgreSQL and to an S3 server.
 */
describe('invoicebox blobs migrate and check', { timeout: 120_000 }, () => {
  let dataDir: string;
  let s3: TestS3;
  let hashes: string[];
  const lines: string[] = [];
  const io = { log: (line: string) => lines.push(line), progress: (line: string) => lines.push(`progress ${line}`) };
  const config = (env: Record<string, string> = {}) =>
    loadConfig({ DATABASE_URL: t().url, INVOICEBOX_DATA_DIR: dataDir, DATABASE_POOL_SIZE: '2', ...env });

  beforeAll(async () => {
    s3 = await startS3();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blobs-cli-'));
    const { db } = t().database;
    const extractor = {
      extract: async () => ({
        vendor: null,
        amount: 1,
        currency: 'EUR',
        invoice_date: '2024-03-01',
        invoice_number: 'N',
      }),
    };
    const ingest = new IngestService(db, new LocalBlobStore(path.join(dataDir, 'blobs')), extractor);
    const [owner] = await db.insert(users).values({ email: 'o@example.com', displayName: 'O' }).returning();
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = await accounts.connect(owner!.id, { provider: 'mbox', email: 'o@example.com' });
    await ingest.ingest(owner!.id, account.userId, readRawMailPath(mailDatasets));
    hashes = await referencedDocuments(db);
    // The raw invoice emails kept for forwarding are documents too: a migration that left them behind loses originals.
    const raw = await db.execute<{ raw_sha256: string }>(
      sql`select raw_sha256 from mail_messages where raw_sha256 is not null limit 1`,
    );
    expect(raw.rows.length).toBe(1);
    expect(hashes).toContain(raw.rows[0]!.raw_sha256);
  }, 120_000);
  afterAll(async () => {
    await s3?.dispose();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('finds every document of the release layout in the local store, and says which ones are gone', async () => {
    expect(hashes.length).toBeGreaterThan(5);
    const first = hashes[0]!;
    expect(await fs.stat(path.join(dataDir, 'blobs', first.slice(0, 2), first.slice(2, 4), first))).toBeTruthy();
    const ok = await runBlobsCheck(config({ DOCUMENT_STORE: 'local' }), { verify: true }, io);
    expect(ok.exitCode).toBe(0);
    expect(ok.result).toMatchObject({ total: hashes.length, present: hashes.length, missing: [], corrupt: [] });

    // One file lost and one damaged: check names both and fails.
    const local = new LocalBlobStore(path.join(dataDir, 'blobs'));
    const lost = hashes[1]!;
    const damaged = hashes[2]!;
    const keep = await local.get(lost);
    const original = await local.get(damaged);
    await fs.rename(local.pathOf(lost), `${local.pathOf(lost)}.away`);
    await fs.writeFile(local.pathOf(damaged), 'not the bytes');
    lines.length = 0;
    const bad = await runBlobsCheck(config({ DOCUMENT_STORE: 'local' }), { verify: true }, io);
    expect(bad.exitCode).toBe(1);
    expect(bad.result.missing).toEqual([lost]);
    expect(bad.result.corrupt).toEqual([damaged]);
    expect(lines).toContain(`  missing: ${lost}`);
    expect(lines.some((l) => l.startsWith('progress blobs check ['))).toBe(true);

    // migrate copies neither a missing nor a damaged file, and says so with a non-zero exit code.
    const partial = await runBlobsMigrate(config({ DOCUMENT_STORE: 'local' }), { to: 'postgres' }, io);
    expect(partial.exitCode).toBe(1);
    expect(partial.result).toMatchObject({ missing: [lost], corrupt: [damaged], copied: hashes.length - 2 });
    const pg = new PgBlobStore(t().database.db, 'documents');
    expect(await pg.has(damaged)).toBe(false);
    await fs.rename(`${local.pathOf(lost)}.away`, local.pathOf(lost));
    await fs.writeFile(local.pathOf(damaged), original);
    expect(createHash('sha256').update(keep).digest('hex')).toBe(lost);
  });

  it('moves every document to PostgreSQL, resuming where it stopped, verified by check on the new store', async () => {
    lines.length = 0;
    const resumed = await runBlobsMigrate(config({ DOCUMENT_STORE: 'local' }), { to: 'postgres' }, io);
    expect(resumed.exitCode).toBe(0);
    expect(resumed.result).toMatchObject({ copied: 2, present: hashes.length - 2, missing: [], corrupt: [] });
    expect(lines.at(-1)).toBe('every document is in postgres: set DOCUMENT_STORE=postgres and restart every process');
    const check = await runBlobsCheck(config({ DOCUMENT_STORE: 'postgres' }), { verify: true }, io);
    expect(check).toMatchObject({ exitCode: 0, result: { present: hashes.length } });
    const pg = new PgBlobStore(t().database.db, 'documents');
    const local = new LocalBlobStore(path.join(dataDir, 'blobs'));
    for (const sha of hashes) expect((await pg.get(sha)).equals(await local.get(sha))).toBe(true);
  });

  it('moves every document from PostgreSQL to S3, and back to a fresh local folder', async () => {
    const withS3 = config({ ...s3.env, DOCUMENT_STORE: 'postgres' });
    const toS3 = await runBlobsMigrate(withS3, { to: 's3' }, io);
    expect(toS3).toMatchObject({ exitCode: 0, result: { copied: hashes.length, missing: [] } });
    const store = new S3BlobStore(createS3Client(s3.config), s3.config.bucket, 'documents/');
    for (const sha of hashes)
      expect(
        createHash('sha256')
          .update(await store.get(sha))
          .digest('hex'),
      ).toBe(sha);
    expect(await runBlobsCheck(config({ ...s3.env }), {}, io)).toMatchObject({ exitCode: 0 });

    // A new machine's empty folder: check finds nothing there, migrate fills it from the bucket.
    const fresh = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blobs-fresh-'));
    try {
      const freshLocal = { ...s3.env, DOCUMENT_STORE: 'local', INVOICEBOX_DATA_DIR: fresh };
      const empty = await runBlobsCheck(config(freshLocal), {}, io);
      expect(empty.exitCode).toBe(1);
      expect(empty.result.missing).toHaveLength(hashes.length);
      const back = await runBlobsMigrate(config(freshLocal), { from: 's3', to: 'local' }, io);
      expect(back).toMatchObject({ exitCode: 0, result: { copied: hashes.length } });
      expect(await runBlobsCheck(config(freshLocal), { verify: true }, io)).toMatchObject({ exitCode: 0 });
    } finally {
      await fs.rm(fresh, { recursive: true, force: true });
    }
  });

  it('refuses to migrate a store onto itself', async () => {
    await expect(runBlobsMigrate(config({ DOCUMENT_STORE: 'postgres' }), { to: 'postgres' }, io)).rejects.toThrow(
      'the documents are already in postgres',
    );
  });
});
