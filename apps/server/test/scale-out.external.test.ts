import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client, S3BlobStore } from '../src/invoices/s3-blob.store';
import { assertBuiltCliIsCurrent, type CliProcess, startApi, startWorker } from './cli-processes';
import { useTestDatabase } from './db';
import { startDovecot, type TestDovecot } from './dovecot';
import { type GeneratedMailbox, generateMailbox } from './mail/mailbox-generator';
import { startS3, type TestS3 } from './s3-server';
import { waitFor } from './wait-for';
import { startWebDav, type TestWebDav } from './webdav-server';

/**
 * The deployment of the README's "Scale-out" section, for real: two `invoicebox start` processes without workers
 * (INVOICEBOX_WORKERS=false) and three `invoicebox worker` processes on one external PostgreSQL, sharing
 * INVOICEBOX_SECRET, each with a data folder of its own (documents in the shared store: PostgreSQL, then S3). Three Dovecot mailboxes are
 * connected and synced, and the invoices filed in an Apache WebDAV drive, through requests spread over both API
 * processes; list and stats requests run against both the whole time. The store, the drive and the queue must end
 * exactly as the generator says, each job run once.
 *
 * Runs only on the external engine (its own vitest file pattern, see vitest.config.ts): several machines share an
 * external server, never the embedded one, whose data folder belongs to one process.
 */
const MAILBOXES = [
  { user: 'ann', messages: 240, seed: 101 },
  { user: 'bob', messages: 200, seed: 202 },
  { user: 'cyd', messages: 160, seed: 303 },
];
const PASSWORD = 'imap-pw';
const SECRET = 'a-scale-out-test-secret-of-at-least-32-chars';
/** Read by both API processes the whole run, alternately. */
const POLLED = ['/invoices?limit=50', '/invoices/stats', '/jobs?limit=20', '/gmail/accounts'];

interface Poll {
  api: number;
  path: string;
  status: number;
  error?: string;
}

/** Run once per shared document store: in PostgreSQL itself, and in an S3 server (moto_server, test/s3-server.ts). */
describe.each(['postgres', 's3'] as const)(
  'two API processes and three workers on one external PostgreSQL, documents in %s',
  (documentStore) => {
    const t = useTestDatabase();
    let s3: TestS3 | undefined;
    let dovecot: TestDovecot;
    let webdav: TestWebDav;
    let dataDir: string;
    const generated = new Map<string, GeneratedMailbox>();
    const apis: Array<CliProcess & { url: string }> = [];
    const workers: CliProcess[] = [];

    beforeAll(async () => {
      await assertBuiltCliIsCurrent();
      dovecot = await startDovecot(Object.fromEntries(MAILBOXES.map((m) => [m.user, PASSWORD])));
      for (const m of MAILBOXES) {
        const mailbox = generateMailbox(m.messages, m.seed);
        generated.set(m.user, mailbox);
        await dovecot.writeMaildir(
          m.user,
          mailbox.messages.map((g) => g.source),
        );
      }
      webdav = await startWebDav();
      if (documentStore === 's3') s3 = await startS3();
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-scale-out-'));
      const env = {
        DATABASE_URL: t().url,
        DATABASE_POOL_SIZE: '3',
        INVOICEBOX_SECRET: SECRET,
        // Dovecot and Apache run on this machine: an operator's explicit choice on a shared deployment.
        ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
        JOB_LEASE_SECONDS: '10',
        SHUTDOWN_GRACE_SECONDS: '5',
        DOCUMENT_STORE: documentStore,
        ...(s3?.env ?? {}),
      };
      // Each process has a data folder of its own, as on separate machines: nothing may be shared through the disk
      // (documents are in the database's document store).
      let processes = 0;
      const own = <T extends object>(e: T) => ({
        ...e,
        INVOICEBOX_DATA_DIR: path.join(dataDir, `process-${++processes}`),
      });
      const apiEnv = { ...env, INVOICEBOX_WORKERS: 'false', LOG_LEVEL: 'warn' };
      // The first process alone makes pg-boss's schema and queue: processes that all find them missing at once can
      // deadlock in pg-boss's creation (issue 18 adds a lock there); the other four then start together.
      apis.push(await startApi(own(apiEnv)));
      const started = await Promise.all([
        startApi(own(apiEnv)),
        startWorker(own(env), 2),
        startWorker(own(env), 2),
        startWorker(own(env), 2),
      ]);
      apis.push(started[0]);
      workers.push(started[1], started[2], started[3]);
    }, 300_000);

    afterAll(async () => {
      await Promise.all([...apis, ...workers].map((p) => p.stop(10_000)));
      await dovecot?.dispose();
      await webdav?.dispose();
      await s3?.dispose();
      if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
    });

    it('syncs three mailboxes and files the invoices in the drive, each job once, nothing twice or missing, while the API answers', {
      timeout: 600_000,
    }, async () => {
      let turn = 0;
      /** Each call goes to the other API process than the one before, as a round-robin load balancer does. */
      const call = async (method: string, url: string, token?: string, body?: unknown) => {
        const api = apis[turn++ % apis.length]!;
        const response = await fetch(`${api.url}/api/v1${url}`, {
          method,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        if (!response.ok) throw new Error(`${method} ${url} on ${api.url}: ${response.status} ${text}`);
        return JSON.parse(text);
      };

      // Signed up on one process, signed in on the other: both read the same keys, sealed with the shared secret.
      const { token } = await call('POST', '/auth/local/signup', undefined, {
        email: 'owner@example.com',
        password: 'a long enough password',
      });
      const signedIn = await call('POST', '/auth/local/signin', undefined, {
        email: 'owner@example.com',
        password: 'a long enough password',
      });
      expect(signedIn.token, JSON.stringify(signedIn)).toEqual(expect.any(String));

      const accountIds = new Map<string, string>();
      for (const m of MAILBOXES) {
        const account = await call('POST', '/gmail/accounts/imap', token, {
          email: `${m.user}@example.com`,
          host: dovecot.host,
          port: dovecot.imapPort,
          secure: false,
          username: m.user,
          password: PASSWORD,
        });
        accountIds.set(m.user, account.userId);
      }
      await call('PUT', '/drive/connection', token, {
        kind: 'webdav',
        url: webdav.url,
        username: webdav.username,
        password: webdav.password,
      });

      const polls: Poll[] = [];
      let polling = true;
      const poller = (async () => {
        for (let i = 0; polling; i++) {
          const api = i % apis.length;
          const url = POLLED[Math.floor(i / apis.length) % POLLED.length]!;
          try {
            const response = await fetch(`${apis[api]!.url}/api/v1${url}`, {
              headers: { authorization: `Bearer ${i % 3 === 0 ? signedIn.token : token}` },
            });
            await response.arrayBuffer();
            polls.push({ api, path: url, status: response.status });
          } catch (error) {
            polls.push({ api, path: url, status: 0, error: (error as Error).message });
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      })();

      // A full sync per mailbox, and a drive upload of everything beside them: the upload races the syncs' own
      // drive steps for the same invoices, which the drive's duplicate check must settle.
      const jobIds: string[] = [];
      for (const m of MAILBOXES) {
        jobIds.push((await call('POST', '/sync/full', token, { user_ids: [accountIds.get(m.user)] })).job_id);
      }
      jobIds.push((await call('POST', '/sync/drive/upload', token, {})).job_id);
      const finished = async (ids: string[]) =>
        waitFor(async () => {
          const rows = await Promise.all(ids.map((id) => call('GET', `/jobs/${id}`, token)));
          return rows.every((r) => r.status === 'completed' || r.status === 'failed') ? rows : undefined;
        }, 480_000);
      const done = await finished(jobIds);
      expect(
        done.map((j) => j.status),
        JSON.stringify(done),
      ).toEqual(jobIds.map(() => 'completed'));

      // Once more for all three: nothing new, everything already in the drive.
      const rerunId = (await call('POST', '/sync/full', token, { user_ids: [...accountIds.values()] })).job_id;
      const [rerun] = await finished([rerunId]);
      polling = false;
      await poller;
      expect(rerun.status, rerun.message).toBe('completed');
      for (const m of MAILBOXES)
        expect(rerun.message).toContain(`${m.user}@example.com: 0 new message(s), 0 new invoice(s)`);
      expect(rerun.message).toContain('Drive: Every invoice is already in');
      jobIds.push(rerunId);

      const { pool } = t().database;
      const [owner] = (await pool.query('select id from users')).rows;

      // Each job: one record, completed on its first attempt by a worker process (the API processes run none);
      // in pg-boss one job of the same id, completed without a retry. No other job was made.
      const records = await pool.query(
        'select id, type, status, attempts, worker_id from jobs where owner_id = $1 order by created_at',
        [owner.id],
      );
      expect(records.rows.map((r) => r.id).sort()).toEqual([...jobIds].sort());
      const workerPids = new Set(workers.map((w) => String(w.pid)));
      for (const row of records.rows) {
        expect(row, JSON.stringify(row)).toMatchObject({ status: 'completed', attempts: 1 });
        expect(workerPids.has(row.worker_id.split(':')[1]), row.worker_id).toBe(true);
      }
      const deliveries = await pool.query(
        `select id, state, retry_count from pgboss.job where id = any($1::uuid[])
       union all select id, state, retry_count from pgboss.archive where id = any($1::uuid[])`,
        [jobIds],
      );
      expect(deliveries.rows.map((r) => r.id).sort()).toEqual([...jobIds].sort());
      for (const row of deliveries.rows)
        expect(row, JSON.stringify(row)).toMatchObject({ state: 'completed', retry_count: 0 });

      // Every message of every mailbox once, with the attachments and the candidates the generator put there.
      for (const m of MAILBOXES) {
        const mailbox = generated.get(m.user)!;
        const { rows } = await pool.query(
          `select count(*)::int as n, count(distinct origin)::int as origins,
                count(*) filter (where is_candidate)::int as candidates,
                (select count(*)::int from message_attachments a join mail_messages x on x.id = a.message_row_id
                 where x.account_id = $1) as attachments
         from mail_messages where account_id = $1`,
          [accountIds.get(m.user)],
        );
        expect(rows[0], m.user).toEqual({
          n: m.messages,
          origins: m.messages,
          candidates: mailbox.messages.filter((g) => g.invoiceKey !== null).length,
          attachments: mailbox.expectedAttachmentRows,
        });
      }

      // One invoice per distinct document, linked to the one mailbox it came from, filed in the WebDAV drive.
      const expectedKeys = new Map<string, string>();
      for (const m of MAILBOXES) {
        for (const g of generated.get(m.user)!.messages) {
          if (g.invoiceKey) expectedKeys.set(g.invoiceKey, accountIds.get(m.user)!);
        }
      }
      const invoices = await pool.query(
        'select dedupe_key, account_ids, status, drive_target, drive_file_id from invoices where owner_id = $1',
        [owner.id],
      );
      expect(invoices.rowCount).toBe(expectedKeys.size);
      for (const row of invoices.rows) {
        expect(row.account_ids).toEqual([expectedKeys.get(row.dedupe_key)]);
        expect(row, row.dedupe_key).toMatchObject({ status: 'uploaded', drive_target: `webdav:${webdav.url}` });
      }
      expect(new Set(invoices.rows.map((r) => r.drive_file_id)).size).toBe(expectedKeys.size);

      // The drive holds each invoice's PDF once: its files are exactly the invoices' documents, by content (beside the
      // adapter's per-folder index of hashes).
      const driveFiles = new Map<string, string[]>();
      for (const entry of await fs.readdir(webdav.dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.name === '.invoicebox-index.json') continue;
        const file = path.join(entry.parentPath, entry.name);
        const hash = sha256(await fs.readFile(file));
        driveFiles.set(hash, [...(driveFiles.get(hash) ?? []), path.relative(webdav.dir, file)]);
      }
      const twice = [...driveFiles.values()].filter((names) => names.length > 1);
      expect(twice, 'the same document filed twice').toEqual([]);
      const unexpected = [...driveFiles].filter(([hash]) => !expectedKeys.has(hash)).flatMap(([, names]) => names);
      expect(unexpected, 'drive files that are no invoice').toEqual([]);
      expect(new Set(driveFiles.keys())).toEqual(new Set(expectedKeys.keys()));

      // Each attachment stored once in the shared document store, whole, under its own hash; no process kept one on
      // its own disk, and the other store holds none.
      const blobs = new Set<string>();
      const stored = await pool.query(
        `select b.sha256, string_agg(c.data, ''::bytea order by c.seq) as data from document_blobs b
         left join document_blob_chunks c on c.namespace = b.namespace and c.sha256 = b.sha256
         where b.namespace = 'documents' group by b.sha256`,
      );
      if (documentStore === 's3') {
        expect(stored.rowCount).toBe(0);
        const bucket = new S3BlobStore(createS3Client(s3!.config), s3!.config.bucket, 'documents/');
        for await (const object of bucket.list()) {
          expect(sha256(await bucket.get(object.sha256))).toBe(object.sha256);
          blobs.add(object.sha256);
        }
      } else {
        for (const row of stored.rows) {
          expect(sha256(row.data ?? Buffer.alloc(0))).toBe(row.sha256);
          blobs.add(row.sha256);
        }
      }
      for (const entry of await fs.readdir(dataDir, { recursive: true, withFileTypes: true })) {
        expect(entry.isFile() && entry.parentPath.split(path.sep).includes('blobs'), entry.name).toBe(false);
      }
      // Besides the attachments, each invoice email's raw bytes (forwarding sends the original).
      const raw = await pool.query<{ raw_sha256: string }>(
        'select distinct raw_sha256 from mail_messages where raw_sha256 is not null',
      );
      expect(blobs).toEqual(
        new Set([
          ...MAILBOXES.flatMap((m) => [...generated.get(m.user)!.expectedBlobs]),
          ...raw.rows.map((r) => r.raw_sha256),
        ]),
      );

      // The API answered every request of the run, on both processes and for every kind of request.
      const failed = polls.filter((p) => p.status !== 200);
      expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
      for (const api of apis.keys()) {
        for (const url of POLLED) expect(polls.some((p) => p.api === api && p.path === url)).toBe(true);
      }
      console.log(
        `scale-out: ${polls.length} list/stats requests answered during the run; jobs by worker: ${JSON.stringify(
          Object.fromEntries(
            workers.map((w) => [w.pid, records.rows.filter((r) => r.worker_id.includes(`:${w.pid}:`)).length]),
          ),
        )}`,
      );
    });
  },
);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
