import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AccountsRepository } from '../src/accounts/accounts.repository';
import { AccountsService } from '../src/accounts/accounts.service';
import { ImapAccountsService } from '../src/accounts/imap-accounts.service';
import { createSecretBox } from '../src/auth/secret-box';
import { users } from '../src/db/schema';
import { JobQueue } from '../src/jobs/job-queue';
import { defineJob } from '../src/jobs/job-registry';
import { JobsRepository } from '../src/jobs/jobs.repository';
import { useTestDatabase } from './db';
import { startDovecot, type TestDovecot } from './dovecot';
import { type GeneratedMailbox, generateMailbox } from './mail/mailbox-generator';
import { waitFor } from './wait-for';

const t = useTestDatabase();
const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '..');

const MESSAGES = 10_000;
const KILLS = 4;
const LEASE_SECONDS = 3;
const SECRET = 'a-kill-test-secret-of-at-least-32-chars';

/**
 * The mail sync of a 10,000-message IMAP mailbox by real `invoicebox worker` processes, each killed with SIGKILL at a
 * random moment while it stores messages, the sync then run again until it completes. Whatever the moments, the
 * store must end up exactly as one clean sync leaves it: compared with what the generator says it put in the mailbox.
 */
describe('a mail sync killed (kill -9) several times, then run to the end', () => {
  let dovecot: TestDovecot;
  let dataDir: string;
  let mailbox: GeneratedMailbox;
  let producer: JobQueue<typeof producerRegistry>;
  const children: ChildProcess[] = [];
  // The producer only enqueues: the product's sync payload, no handler here (the workers run the real one).
  const producerRegistry = {
    gmail_sync: defineJob({
      payload: z.object({ account_ids: z.array(z.string().uuid()).optional() }),
      handler: async () => undefined,
    }),
  };

  function startWorker(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'worker', '--concurrency', '1'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        DATABASE_URL: t().url,
        DATABASE_POOL_SIZE: '4',
        INVOICEBOX_DATA_DIR: dataDir,
        INVOICEBOX_SECRET: SECRET,
        JOB_LEASE_SECONDS: String(LEASE_SECONDS),
        LOG_LEVEL: 'info',
        // The test's Dovecot is on loopback.
        ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      const seen = (c: Buffer) => {
        output = (output + c.toString()).slice(-4000);
        if (output.includes('worker started')) resolve(child);
      };
      child.stdout?.on('data', seen);
      child.stderr?.on('data', seen);
      child.once('exit', (code, signal) => reject(new Error(`worker exited early (${code ?? signal}): ${output}`)));
    });
    return ready;
  }

  async function kill(child: ChildProcess) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  beforeAll(async () => {
    mailbox = generateMailbox(MESSAGES, 42);
    dovecot = await startDovecot({ sam: 'pw' });
    // Straight into the Maildir (~0.5 s for 10,000), not over LMTP (~50 s): Dovecot indexes them on the first SELECT.
    await dovecot.writeMaildir(
      'sam',
      mailbox.messages.map((m) => m.source),
    );
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-kill-sync-'));
    producer = new JobQueue(producerRegistry, new JobsRepository(t().database.db), {
      connectionString: t().url,
      leaseSeconds: LEASE_SECONDS,
      timeoutSeconds: 900,
      // The queue is created here, before any worker: retries after 1, 2, 4… s keep the test short.
      retryDelaySeconds: 1,
    });
    await producer.start();
  });

  afterAll(async () => {
    await Promise.all(children.map(kill));
    await producer?.stop(1000);
    await dovecot?.dispose();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('stores every message, attachment, blob and invoice exactly once', { timeout: 600_000 }, async () => {
    const { db, pool } = t().database;
    const [owner] = await db.insert(users).values({ email: 'sam@example.com', displayName: 'Sam' }).returning();
    const ownerId = owner!.id;
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = await new ImapAccountsService(db, createSecretBox(SECRET), accounts, {
      allowPrivate: true,
    }).connect(ownerId, {
      email: 'sam@example.com',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'sam',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    const accountId = account.userId;
    const repository = new JobsRepository(db);
    const stored = async () =>
      Number(
        (await pool.query('select count(*) as n from mail_messages where account_id = $1', [accountId])).rows[0].n,
      );

    let jobId = await producer.enqueue(ownerId, 'gmail_sync', { account_ids: [accountId] });
    /**
     * The job's record once it has ended. A job whose workers were lost too often (pg-boss gives it four attempts)
     * is synced again as a person pressing "Sync now" would: a new job, from the saved cursor.
     */
    const ended = async () => {
      const row = await repository.findById(jobId);
      if (row?.status === 'failed' && /lost too often/.test(row.message ?? '')) {
        jobId = await producer.enqueue(ownerId, 'gmail_sync', { account_ids: [accountId] });
        return undefined;
      }
      return row?.status === 'completed' || row?.status === 'failed' ? row : undefined;
    };
    const kills: Array<{ afterMs: number; stored: number }> = [];
    for (let k = 0; k < KILLS; k++) {
      const before = await stored();
      const worker = await startWorker();
      // Killed only once this worker has committed messages of its own, at a random moment after that.
      await waitFor(async () => {
        if ((await stored()) > before) return true;
        const row = await ended();
        if (row) throw new Error(`the sync ended before kill ${k + 1}: ${row.status}: ${row.message}`);
        return undefined;
      }, 120_000);
      const afterMs = Math.floor(Math.random() * 2500);
      await new Promise((r) => setTimeout(r, afterMs));
      await kill(worker);
      kills.push({ afterMs, stored: await stored() });
    }
    // Every kill interrupted a sync that still had work to do.
    expect(
      kills.every((k) => k.stored < MESSAGES),
      JSON.stringify(kills),
    ).toBe(true);

    await startWorker();
    const done = await waitFor(ended, 400_000);
    expect(done.status, `${done.message} (kills: ${JSON.stringify(kills)})`).toBe('completed');

    // Every message exactly once: UIDs 1..10,000 of the mailbox.
    const messages = await pool.query(
      `select count(*)::int as n, count(distinct origin)::int as origins, count(*) filter (where is_candidate)::int as candidates,
              min(split_part(origin, ':', 4)::int) as first, max(split_part(origin, ':', 4)::int) as last
       from mail_messages where account_id = $1`,
      [accountId],
    );
    expect(messages.rows[0], `kills: ${JSON.stringify(kills)}`).toEqual({
      n: MESSAGES,
      origins: MESSAGES,
      candidates: mailbox.messages.filter((m) => m.invoiceKey !== null).length,
      first: 1,
      last: MESSAGES,
    });

    // Every attachment row once, in mail order, with the content the generator put there.
    const attachments = await pool.query(
      `select split_part(m.origin, ':', 4)::int as uid, a.position, a.sha256
       from message_attachments a join mail_messages m on m.id = a.message_row_id where m.account_id = $1`,
      [accountId],
    );
    expect(attachments.rowCount).toBe(mailbox.expectedAttachmentRows);
    const attachmentKeys = new Set(attachments.rows.map((r) => `${r.uid}/${r.position}`));
    expect(attachmentKeys.size).toBe(mailbox.expectedAttachmentRows);
    // Maildir seeding keeps the generator's order, so UID n is message n - 1.
    for (const row of attachments.rows) {
      expect(row.sha256).toBe(mailbox.messages[row.uid - 1]!.attachmentHashes[row.position]);
    }

    // One invoice per distinct document, each linked to the account once.
    const invoiceRows = await pool.query('select dedupe_key, account_ids from invoices where owner_id = $1', [ownerId]);
    const expectedKeys = new Set(mailbox.messages.map((m) => m.invoiceKey).filter((k) => k !== null));
    expect(invoiceRows.rowCount).toBe(mailbox.expectedInvoices);
    expect(new Set(invoiceRows.rows.map((r) => r.dedupe_key))).toEqual(expectedKeys);
    expect(invoiceRows.rows.every((r) => r.account_ids.length === 1 && r.account_ids[0] === accountId)).toBe(true);
    const links = await pool.query('select count(*)::int as n from invoice_accounts where account_id = $1', [
      accountId,
    ]);
    expect(links.rows[0].n).toBe(mailbox.expectedInvoices);

    // Each blob once, under its own hash, whole (the workers run with DATABASE_URL, so the document store is the
    // database's: a write killed halfway is rolled back, never left as a partial file).
    const blobs = new Set<string>();
    const storedBlobs = await pool.query(
      `select b.sha256, b.size, b.chunks, string_agg(c.data, ''::bytea order by c.seq) as data
         from document_blobs b left join document_blob_chunks c on c.namespace = b.namespace and c.sha256 = b.sha256
         where b.namespace = 'documents' group by b.sha256, b.size, b.chunks`,
    );
    for (const row of storedBlobs.rows) {
      const bytes: Buffer = row.data ?? Buffer.alloc(0);
      expect(bytes.length).toBe(Number(row.size));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
      blobs.add(row.sha256);
    }
    // Besides the attachments, each invoice email's raw bytes (kept so that forwarding sends the original), once.
    const raw = await pool.query<{ raw_sha256: string }>(
      'select raw_sha256 from mail_messages where owner_id = $1 and raw_sha256 is not null',
      [ownerId],
    );
    expect(raw.rowCount).toBe(mailbox.messages.filter((m) => m.invoiceKey !== null).length);
    const rawBlobs = new Set(raw.rows.map((r) => r.raw_sha256));
    expect(blobs).toEqual(new Set([...mailbox.expectedBlobs, ...rawBlobs]));

    // The cursor ends at the last message, and a further sync finds nothing new.
    const cursor = await pool.query('select sync_cursor from imap_settings where account_id = $1', [accountId]);
    expect(cursor.rows[0].sync_cursor.INBOX.lastUid).toBe(MESSAGES);
    const again = await producer.enqueue(ownerId, 'gmail_sync', { account_ids: [accountId] });
    const rerun = await waitFor(async () => {
      const row = await repository.findById(again);
      return row?.status === 'completed' || row?.status === 'failed' ? row : undefined;
    });
    expect(rerun.message).toMatch(/0 new message\(s\), 0 new invoice\(s\)/);
    expect(await stored()).toBe(MESSAGES);
  });
});
