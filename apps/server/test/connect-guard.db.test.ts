import dns from 'node:dns/promises';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsRepository } from '../src/accounts/accounts.repository';
import { accountsRoutes } from '../src/accounts/accounts.routes';
import { AccountsService } from '../src/accounts/accounts.service';
import { ImapAccountsService } from '../src/accounts/imap-accounts.service';
import { createSecretBox } from '../src/auth/secret-box';
import { users } from '../src/db/schema';
import { driveRoutes } from '../src/drive/drive.routes';
import { type DriveFactory, DriveService } from '../src/drive/drive.service';
import { LocalDriveStore } from '../src/drive/local.drive';
import { WebDavDriveStore } from '../src/drive/webdav.drive';
import { LocalBlobStore } from '../src/invoices/blob.store';
import type { JobQueue } from '../src/jobs/job-queue';
import type { AppJobRegistry } from '../src/jobs/registry';
import { ImapMailSource } from '../src/mail/imap.source';
import type { OutboundPolicy, ResolvedAddress } from '../src/net/outbound';
import { syncRoutes } from '../src/sync/sync.routes';
import { SyncDiagnosticsService } from '../src/sync/sync-diagnostics.service';
import { bearer, buildAuthTestApp, signUpThroughApi, TEST_SECRET } from './auth-app';
import { useTestDatabase } from './db';
import { startDovecot, type TestDovecot } from './dovecot';
import { freePort } from './ports';
import { startWebDav, type TestWebDav } from './webdav-server';

const t = useTestDatabase();

/**
 * The calls that connect to a server a person names, over HTTP: every way a connection can fail gets the same answer
 * (the reason goes to the log), targets the policy refuses are never contacted, and the calls are rate-limited per
 * person and per client address.
 */
describe('connecting to servers people name', () => {
  let dovecot: TestDovecot;
  let dav: TestWebDav;
  let garbage: net.Server;
  let garbagePort = 0;
  let closedPort = 0;
  let dataDir = '';
  const contacted: string[] = [];

  // Test names: one that does not resolve, two that resolve to refused addresses; the rest as the system says.
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    contacted.push(`resolve ${host}`);
    if (host === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
    if (host === 'loopback.test') return [{ address: '127.0.0.1', family: 4 }];
    if (host === 'nowhere.test') {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    }
    return (await dns.lookup(host, { all: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  };
  // The local test servers are on loopback: allowed, as an operator of a one-person installation would.
  const allowLocal: OutboundPolicy = { allowPrivate: true, resolve };
  const box = createSecretBox(TEST_SECRET);

  async function harness(policy: OutboundPolicy, connectRateLimitPerMinute = 1000) {
    const { db } = t().database;
    const accounts = new AccountsService(new AccountsRepository(db));
    const imap = new ImapAccountsService(db, box, accounts, policy);
    const factory: DriveFactory = (target) => {
      if (target.kind === 'local') return new LocalDriveStore(target.root);
      if (target.kind === 'webdav')
        return new WebDavDriveStore({ ...target, backoffMs: 5, retries: 1, outbound: policy });
      throw new Error('not used here');
    };
    const drive = new DriveService(
      db,
      accounts,
      new LocalBlobStore(path.join(dataDir, 'blobs')),
      box,
      dataDir,
      factory,
    );
    const queue = {} as JobQueue<AppJobRegistry>;
    const limit = { connectRateLimitPerMinute };
    const diagnostics = new SyncDiagnosticsService(db, accounts, { outbound: policy, timeoutMs: 1000 });
    return buildAuthTestApp(db, {
      auth: { allowSignup: true },
      routes: [
        accountsRoutes(accounts, imap, limit),
        driveRoutes(drive, queue, accounts, limit),
        syncRoutes(queue, accounts, diagnostics, limit),
      ],
    });
  }

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-guard-'));
    dovecot = await startDovecot({ ann: 'pw' });
    dav = await startWebDav();
    // A server that speaks neither IMAP nor HTTP: it answers with junk and hangs up.
    garbage = net.createServer((socket) => {
      contacted.push('garbage');
      socket.on('error', () => {});
      socket.end('SSH-2.0-OpenSSH_9.2\r\n\u0000\u0001junk\r\n\r\n', () => socket.destroy());
    });
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
    garbagePort = (garbage.address() as net.AddressInfo).port;
    closedPort = await freePort();
  });
  afterAll(async () => {
    await dovecot?.dispose();
    await dav?.dispose();
    garbage?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  describe('POST /gmail/accounts/imap', () => {
    let h: Awaited<ReturnType<typeof harness>>;
    let token = '';
    beforeAll(async () => {
      h = await harness(allowLocal);
      token = (await signUpThroughApi(h.app, 'ann@example.com')).token;
    });
    afterAll(async () => {
      await h.app.close();
    });
    const connect = (payload: Record<string, unknown>) =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/gmail/accounts/imap',
        headers: bearer(token),
        payload: {
          email: 'ann@mail.test',
          host: dovecot.host,
          port: dovecot.imapPort,
          secure: false,
          username: 'ann',
          password: 'pw',
          ...payload,
        },
      });

    it('answers every failed connection the same way, logs the reason, and contacts no refused target', async () => {
      const failures = {
        closedPort: { port: closedPort },
        notImap: { port: garbagePort },
        wrongPassword: { password: 'wrong' },
        tlsToPlainServer: { secure: true },
        noSuchName: { host: 'nowhere.test' },
        metadataByName: { host: 'metadata.test', port: 80 },
        metadataByAddress: { host: '169.254.169.254', port: 80 },
        unspecified: { host: '0.0.0.0', port: dovecot.imapPort },
      };
      const answers: Record<string, unknown> = {};
      contacted.length = 0;
      h.logLines.length = 0;
      for (const [name, payload] of Object.entries(failures)) {
        const response = await connect(payload);
        answers[name] = { status: response.statusCode, body: response.json() };
      }
      const expected = {
        status: 422,
        body: {
          code: 'connection_failed',
          error:
            'Could not connect and sign in to the mail server: check the server, port, security, user name and ' +
            'password. Servers on this machine or a private network can be used only where the operator allows them.',
        },
      };
      expect(answers).toEqual(Object.fromEntries(Object.keys(failures).map((name) => [name, expected])));
      // The refused targets were never contacted: only names were resolved.
      expect(contacted).toEqual(['garbage', 'resolve nowhere.test', 'resolve metadata.test']);
      const log = h.logLines.join('\n');
      for (const reason of ['ECONNREFUSED', 'refused the sign-in', 'not an allowed target', 'ENOTFOUND']) {
        expect(log).toContain(reason);
      }
      expect(log).not.toContain('"pw"');
      // Nothing was saved; the right settings still connect.
      const ok = await connect({});
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ email: 'ann@mail.test', provider: 'imap' });
    });

    it('answers a missing folder, which only a signed-in person can learn, with its own message', async () => {
      const missing = await connect({ mailboxes: ['INBOX', 'Nope'] });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().error).toBe('The mail server has no folder named Nope');
    });
  });

  it('gives a server that never greets the same answer (a greeting time-out)', async () => {
    const { db } = t().database;
    const accounts = new AccountsService(new AccountsRepository(db));
    const timeout = Object.assign(new Error('Failed to receive greeting from server in required time'), {
      code: 'GREETING_TIMEOUT',
    });
    const imap = new ImapAccountsService(db, box, accounts, allowLocal, (settings) => {
      const source = new ImapMailSource(settings);
      source.check = async () => {
        throw timeout;
      };
      return source;
    });
    const [owner] = await db.insert(users).values({ email: 'gus@example.com', displayName: 'Gus' }).returning();
    const error = await imap
      .connect(owner!.id, {
        email: 'gus@mail.test',
        host: '127.0.0.1',
        port: 143,
        secure: false,
        password: 'pw',
        mailboxes: ['INBOX'],
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'connection_failed', status: 422, cause: timeout });
    expect((error as Error).message).toMatch(/^Could not connect and sign in to the mail server: check/);
  });

  describe('PUT /drive/connection (WebDAV)', () => {
    let h: Awaited<ReturnType<typeof harness>>;
    let token = '';
    beforeAll(async () => {
      h = await harness(allowLocal);
      token = (await signUpThroughApi(h.app, 'wes@example.com')).token;
    });
    afterAll(async () => {
      await h.app.close();
    });
    const choose = (payload: Record<string, unknown>) =>
      h.app.inject({
        method: 'PUT',
        url: '/api/v1/drive/connection',
        headers: bearer(token),
        payload: { kind: 'webdav', url: dav.url, username: dav.username, password: dav.password, ...payload },
      });

    it('answers every failed connection the same way, logs the reason, and contacts no refused target', async () => {
      const failures = {
        closedPort: { url: `http://127.0.0.1:${closedPort}/` },
        notHttp: { url: `http://127.0.0.1:${garbagePort}/` },
        tlsToPlainServer: { url: dav.url.replace('http:', 'https:') },
        wrongPassword: { password: 'wrong' },
        missingFolder: { url: `${dav.url}nope/` },
        noSuchName: { url: 'http://nowhere.test/dav/' },
        metadataByName: { url: 'http://metadata.test/latest/meta-data/' },
        metadataByAddress: { url: 'http://169.254.169.254/latest/meta-data/' },
        metadataMapped: { url: 'http://[::ffff:169.254.169.254]/latest/meta-data/' },
      };
      const answers: Record<string, unknown> = {};
      contacted.length = 0;
      h.logLines.length = 0;
      for (const [name, payload] of Object.entries(failures)) {
        const response = await choose(payload);
        answers[name] = { status: response.statusCode, body: response.json() };
      }
      const expected = {
        status: 422,
        body: {
          code: 'connection_failed',
          error:
            'Could not reach the drive: check the WebDAV address, user name and password. Servers on this machine ' +
            'or a private network can be used only where the operator allows them.',
        },
      };
      expect(answers).toEqual(Object.fromEntries(Object.keys(failures).map((name) => [name, expected])));
      expect(contacted.filter((c) => c !== 'garbage')).toEqual([
        'resolve nowhere.test',
        'resolve nowhere.test', // one retry
        'resolve metadata.test',
      ]);
      const log = h.logLines.join('\n');
      for (const reason of ['ECONNREFUSED', 'HPE_', 'refused the user name or password', 'does not exist']) {
        expect(log).toContain(reason);
      }
      expect(log).toContain('is not an allowed target');
      // Nothing was saved; the right settings connect.
      expect((await t().database.pool.query('select count(*)::int as n from drive_connections')).rows[0].n).toBe(0);
      expect((await choose({})).statusCode).toBe(200);
    });
  });

  describe('with private targets not allowed (the default off the one-person set-up)', () => {
    let h: Awaited<ReturnType<typeof harness>>;
    let token = '';
    let userId = '';
    beforeAll(async () => {
      h = await harness({ allowPrivate: false, resolve });
      ({ token, userId } = await signUpThroughApi(h.app, 'pia@example.com'));
    });
    afterAll(async () => {
      await h.app.close();
    });

    it('refuses the local IMAP and WebDAV servers by address and by name with the same answer as any failure', async () => {
      const attempts = [
        { url: '/api/v1/gmail/accounts/imap', payload: { host: dovecot.host } },
        { url: '/api/v1/gmail/accounts/imap', payload: { host: 'loopback.test' } },
        { url: '/api/v1/gmail/accounts/imap', payload: { host: 'localhost' } },
        { url: '/api/v1/gmail/accounts/imap', payload: { host: '[::1]' } },
        { url: '/api/v1/drive/connection', payload: { url: dav.url } },
        { url: '/api/v1/drive/connection', payload: { url: dav.url.replace('127.0.0.1', 'loopback.test') } },
        { url: '/api/v1/drive/connection', payload: { url: dav.url.replace('127.0.0.1', '[::ffff:7f00:1]') } },
      ];
      for (const { url, payload } of attempts) {
        const imap = url.endsWith('imap');
        const response = await h.app.inject({
          method: imap ? 'POST' : 'PUT',
          url,
          headers: bearer(token),
          payload: imap
            ? {
                email: 'pia@mail.test',
                port: dovecot.imapPort,
                secure: false,
                username: 'ann',
                password: 'pw',
                ...payload,
              }
            : { kind: 'webdav', username: dav.username, password: dav.password, ...payload },
        });
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(response.json().code).toBe('connection_failed');
      }
      expect(h.logLines.join('\n')).toContain('localhost resolves to');
    });

    it('port check: a stored host that now resolves to a refused address is not contacted', async () => {
      // As if the name had pointed elsewhere when it was saved: the check happens on every connection.
      const { db } = t().database;
      const accounts = new AccountsService(new AccountsRepository(db));
      const account = await accounts.connect(userId, { provider: 'imap', email: 'pia@mail.test' });
      await t().database.pool.query(
        `insert into imap_settings (account_id, owner_id, host, port, secure, username, password_encrypted, mailboxes)
         values ($1, $2, 'loopback.test', $3, false, 'ann', 'x', '{INBOX}')`,
        [account.userId, userId, dovecot.imapPort],
      );
      const checked = await h.app.inject({ method: 'POST', url: '/api/v1/sync/port-check', headers: bearer(token) });
      expect(checked.statusCode).toBe(200);
      expect(checked.json().accounts).toEqual([
        expect.objectContaining({
          host: 'loopback.test',
          reachable: false,
          latency_ms: null,
          error: 'Could not connect',
        }),
      ]);
    });
  });

  describe('rate limits', () => {
    let h: Awaited<ReturnType<typeof harness>>;
    beforeAll(async () => {
      h = await harness(allowLocal, 2);
    });
    afterAll(async () => {
      await h.app.close();
    });

    let people = 0;
    it.each([
      ['POST', '/api/v1/gmail/accounts/imap'],
      ['PUT', '/api/v1/drive/connection'],
      ['POST', '/api/v1/sync/port-check'],
    ] as const)('%s %s: counts every call per person and per client address', async (method, url) => {
      const first = (await signUpThroughApi(h.app, `person-${++people}@example.com`)).token;
      const second = (await signUpThroughApi(h.app, `person-${++people}@example.com`)).token;
      const payload = url.endsWith('imap')
        ? { email: 'x@mail.test', host: '169.254.169.254', port: 993, password: 'pw' }
        : url.endsWith('connection')
          ? { kind: 'webdav', url: 'http://169.254.169.254/', username: 'u', password: 'p' }
          : undefined;
      const call = (token: string, remoteAddress: string) =>
        h.app.inject({ method, url, headers: bearer(token), payload, remoteAddress });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(first, '192.0.2.1')).statusCode);
      expect(statuses.slice(0, 2)).not.toContain(429);
      const limited = await call(first, '192.0.2.2');
      expect(statuses[2]).toBe(429);
      // The same person from another address: still limited (per person).
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'rate_limited' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another person from the first address: limited too (per address); from a third address: served.
      expect((await call(second, '192.0.2.1')).statusCode).toBe(429);
      expect((await call(second, '192.0.2.3')).statusCode).not.toBe(429);
    });
  });
});
