/**
 * Mail sync throughput from a local Dovecot: our IMAP sync into the store (the product's MailSyncService on the
 * embedded PostgreSQL, with field extraction, then once more without it to show what extraction costs) beside a raw
 * imapflow fetch of the full source of every message of the same mailbox. Prints messages/s of both and their ratio
 * (goal ≥ 0.8); never fails on time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { AccountsRepository } from '../src/accounts/accounts.repository';
import { AccountsService } from '../src/accounts/accounts.service';
import { ImapAccountsService } from '../src/accounts/imap-accounts.service';
import { ProviderTokensRepository, ProviderTokensService } from '../src/auth/provider-tokens';
import { createSecretBox } from '../src/auth/secret-box';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { users } from '../src/db/schema';
import { extractInvoiceFields, shutdownExtraction } from '../src/extraction/index';
import { LocalBlobStore } from '../src/invoices/blob.store';
import { IngestService } from '../src/invoices/ingest.service';
import { type FieldExtractor, nullFieldExtractor } from '../src/mail/field-extractor';
import { ProviderAccessService } from '../src/oidc/provider-access.service';
import { createMailSourceFactory } from '../src/sync/mail-source.factory';
import { MailSyncService } from '../src/sync/mail-sync.service';
import { startDovecot } from '../test/dovecot';
import { generateMailbox } from '../test/mail/mailbox-generator';

const MESSAGES = Number(process.env.BENCH_SYNC_MESSAGES ?? 5_000);
const SECRET = 'a-bench-secret-of-at-least-32-characters!';

export async function runMailSyncBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-sync-'));
  await fs.chmod(dir, 0o755);
  const dovecot = await startDovecot({ bench: 'pw' });
  try {
    const mailbox = generateMailbox(MESSAGES, 11);
    const seeded = performance.now();
    await dovecot.writeMaildir(
      'bench',
      mailbox.messages.map((m) => m.source),
    );
    const imap = { host: dovecot.host, port: dovecot.imapPort, user: 'bench', pass: 'pw' };
    // Dovecot indexes the Maildir on the first SELECT: done here so that neither side below pays for it.
    await rawFetch(imap);
    console.log(
      `mailbox: ${MESSAGES} messages (${mailbox.expectedInvoices} invoices), Maildir seeded and indexed in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );

    const raw = await rawFetch(imap);
    const rawRate = raw.messages / raw.seconds;
    console.log(
      `raw imapflow fetch (full source): ${raw.messages} messages in ${raw.seconds.toFixed(2)} s = ${rawRate.toFixed(0)} msg/s`,
    );

    const pg = await startEmbeddedPostgres(path.join(dir, 'pg'));
    const database = await openDatabase({ databaseUrl: pg.url, dataDir: dir, databasePoolSize: 4 });
    try {
      await runMigrations(database.pool);
      // The services the sync job runs with in the product (see runtime.ts), without the queue and HTTP parts.
      const { db } = database;
      const box = createSecretBox(SECRET);
      const accounts = new AccountsService(new AccountsRepository(db));
      const imapAccounts = new ImapAccountsService(db, box, accounts, { allowPrivate: true });
      const providerAccess = new ProviderAccessService(
        new Map(),
        new ProviderTokensService(new ProviderTokensRepository(db), box),
        accounts,
      );
      const blobs = new LocalBlobStore(path.join(dir, 'blobs'));
      /** One full sync of the mailbox for a new owner (nothing shared with an earlier run), timed. */
      const syncOnce = async (name: string, extractor: FieldExtractor) => {
        const ingest = new IngestService(db, blobs, extractor);
        const mailSync = new MailSyncService(
          accounts,
          createMailSourceFactory(db, imapAccounts, providerAccess),
          ingest,
        );
        const [owner] = await db
          .insert(users)
          .values({ email: `${name}@example.com`, displayName: name })
          .returning();
        const account = await imapAccounts.connect(owner!.id, {
          email: `${name}@example.com`,
          host: imap.host,
          port: imap.port,
          secure: false,
          username: imap.user,
          password: imap.pass,
          mailboxes: ['INBOX'],
        });
        const started = performance.now();
        const [result] = await mailSync.sync(owner!.id, [account.userId]);
        const seconds = (performance.now() - started) / 1000;
        if (!result?.ok || result.messages !== MESSAGES) throw new Error(`the sync failed: ${result?.message}`);
        return { ...result, seconds, rate: result.messages / seconds };
      };
      const full = await syncOnce('full', { extract: (input) => extractInvoiceFields(input) });
      console.log(
        `our IMAP sync into the store:      ${full.messages} messages in ${full.seconds.toFixed(2)} s = ${full.rate.toFixed(0)} msg/s (embedded PostgreSQL, field extraction on)`,
      );
      const bare = await syncOnce('bare', nullFieldExtractor);
      console.log(
        `  the same without field extraction: ${bare.seconds.toFixed(2)} s = ${bare.rate.toFixed(0)} msg/s (parse, rules, files and rows only)`,
      );
      console.log(`ratio sync / raw fetch: ${(full.rate / rawRate).toFixed(3)} (goal ≥ 0.8)`);
    } finally {
      await shutdownExtraction().catch(() => {});
      await database.close();
      await pg.stop();
    }
  } finally {
    await dovecot.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Every message's full source over one connection, as a bare client would fetch it. */
async function rawFetch(imap: { host: string; port: number; user: string; pass: string }) {
  const client = new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: false,
    auth: { user: imap.user, pass: imap.pass },
    logger: false,
    doSTARTTLS: false,
  });
  const started = performance.now();
  await client.connect();
  let messages = 0;
  const lock = await client.getMailboxLock('INBOX', { readOnly: true });
  try {
    for await (const m of client.fetch('1:*', { uid: true, source: true })) if (m.source) messages += 1;
  } finally {
    lock.release();
    await client.logout();
  }
  return { messages, seconds: (performance.now() - started) / 1000 };
}
