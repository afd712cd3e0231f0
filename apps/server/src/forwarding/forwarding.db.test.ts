import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FORWARDING_MESSAGES } from '@invoicebox/core';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import {
  addInvoices,
  FORWARDING_USERS,
  forwardingService,
  invoiceMail,
  RECIPIENTS,
  seedInvoices,
  smtpConfigFor,
} from '../../test/forwarding-harness';
import { startFakeGmail } from '../../test/gmail-api';
import { readMailbox, startSmtpRelay, type TestSmtpRelay } from '../../test/smtp-relay';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { ImapAccountsService } from '../accounts/imap-accounts.service';
import { createSecretBox } from '../auth/secret-box';
import { LocalBlobStore } from '../invoices/blob.store';
import type { ProviderAccessService } from '../oidc/provider-access.service';
import { forwardingMessageId } from './forward-message';
import { ForwardingRepository } from './forwarding.repository';
import { ForwardingService } from './forwarding.service';
import { createSenderFactory } from './sender.factory';
import { SmtpRelayService } from './smtp-relay.service';

const t = useTestDatabase();

describe('invoice forwarding over SMTP into real mailboxes', () => {
  let dovecot: TestDovecot;
  let relay: TestSmtpRelay;
  let dir: string;
  let blobs: LocalBlobStore;

  beforeAll(async () => {
    dovecot = await startDovecot(FORWARDING_USERS);
    relay = await startSmtpRelay(dovecot, FORWARDING_USERS);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-fwd-'));
    blobs = new LocalBlobStore(dir);
  });
  afterAll(async () => {
    await relay?.close();
    await dovecot?.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const mailbox = async (user: string) =>
    readMailbox(dovecot, user, FORWARDING_USERS[user as keyof typeof FORWARDING_USERS]);

  it('checks the config: §5 messages, case-insensitive duplicates, enabled_at only when switched on', async () => {
    const { db } = t().database;
    const { ownerId } = await seedInvoices(db, blobs, 0, 'cfg');
    const { forwarding } = forwardingService(db, blobs, smtpConfigFor(relay.port, dovecot.imapPort));
    await expect(
      forwarding.updateConfig(ownerId, { enabled: true, target_emails: ['not-an-address'] }),
    ).rejects.toThrow(FORWARDING_MESSAGES.invalidAddress);
    await expect(
      forwarding.updateConfig(ownerId, { enabled: true, target_emails: ['a@example.com', 'A@EXAMPLE.com'] }),
    ).rejects.toThrow(FORWARDING_MESSAGES.duplicateAddress);
    const many = Array.from({ length: 21 }, (_, i) => `r${i}@example.com`);
    await expect(forwarding.updateConfig(ownerId, { enabled: true, target_emails: many })).rejects.toThrow(
      'At most 20',
    );
    const off = await forwarding.getConfig(ownerId);
    expect(off).toMatchObject({ enabled: false, target_emails: [], enabled_at: null, max_recipients: 20 });
    expect(off.sender).toEqual({ configured: true, kind: 'smtp_server', from: 'relay@localhost', reason: null });

    const on = await forwarding.updateConfig(ownerId, { enabled: true, target_emails: [' Books@Example.com '] });
    expect(on.target_emails).toEqual(['books@example.com']);
    expect(on.enabled_at).not.toBeNull();
    const again = await forwarding.updateConfig(ownerId, { enabled: true, target_emails: ['books@example.com'] });
    expect(again.enabled_at).toBe(on.enabled_at);
    await forwarding.updateConfig(ownerId, { enabled: false, target_emails: ['books@example.com'] });
    const back = await forwarding.updateConfig(ownerId, { enabled: true, target_emails: ['books@example.com'] });
    expect(new Date(back.enabled_at!).getTime()).toBeGreaterThan(new Date(on.enabled_at!).getTime());

    const { forwarding: noSender } = forwardingService(db, blobs, undefined);
    expect((await noSender.getConfig(ownerId)).sender).toEqual({
      configured: false,
      kind: null,
      from: null,
      reason: FORWARDING_MESSAGES.noSender,
    });
    await expect(noSender.start(ownerId)).rejects.toThrow(FORWARDING_MESSAGES.noSender);
  });

  it('forwards only invoices found after enabling on sync, the backlog on Forward Now, each once per recipient', async () => {
    const { db } = t().database;
    const { ownerId, accountId, ingest } = await seedInvoices(db, blobs, 3, 'once');
    const { forwarding } = forwardingService(db, blobs, smtpConfigFor(relay.port, dovecot.imapPort));
    forwarding.useQueue(async () => randomUUID());
    await forwarding.updateConfig(ownerId, { enabled: true, target_emails: RECIPIENTS });
    expect((await forwarding.getConfig(ownerId)).backlog).toBe(3);

    // A sync finds two new invoices: only they are queued (3 recipients each), not the 3 found before enabling.
    await addInvoices(ingest, ownerId, accountId, 4, 2, 'once');
    expect(await forwarding.afterSync(ownerId)).toMatchObject({ queued: 6 });
    expect(await forwarding.afterSync(ownerId)).toMatchObject({ queued: 0 });
    const first = await forwarding.run(ownerId, randomUUID());
    expect(first).toEqual({ sent: 6, failed: 0, recovered: 0, waiting: 0 });

    // Forward Now: the backlog (3 × 3); nothing twice.
    const started = await forwarding.start(ownerId);
    expect(started.queued).toBe(9);
    expect((await forwarding.run(ownerId, randomUUID())).sent).toBe(9);
    expect((await forwarding.start(ownerId)).queued).toBe(0);
    expect((await forwarding.getConfig(ownerId)).backlog).toBe(0);

    for (const recipient of RECIPIENTS) {
      const got = (await mailbox(recipient.split('@')[0]!)).filter((m) => m.messageId.startsWith('<fwd-'));
      const invoices = await db.execute(sql`select id from invoices where owner_id = ${ownerId}`);
      const expected = (invoices.rows as Array<{ id: string }>).map((r) => forwardingMessageId(r.id, recipient));
      expect(got.map((m) => m.messageId).sort()).toEqual(expected.sort());
      // The original email rides along unchanged, byte for byte.
      const parsed = await simpleParser(got[0]!.source);
      const original = parsed.attachments.find((a) => a.contentType === 'message/rfc822')!;
      const n = Number(/Invoice (\d+)/.exec(original.content.toString())![1]);
      expect(Buffer.compare(original.content, invoiceMail(n, 'once'))).toBe(0);
      expect(parsed.subject).toBe(`Invoice from Vendor ${n}, €12.50, 2026-03-01`);
    }
    const stats = await forwarding.stats(ownerId);
    expect(stats).toMatchObject({ total_forwarded: 15, total_failed: 0, total_pending: 0, success_rate: 100 });
    expect(stats.last_forwarded_at).not.toBeNull();
    const badges = await forwarding.forwardedTo(
      ownerId,
      (await db.execute(sql`select id from invoices where owner_id = ${ownerId} limit 1`)).rows.map(
        (r) => (r as { id: string }).id,
      ),
    );
    expect([...badges.values()][0]!.map((b) => b.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('fails a refused recipient with the reason, retries a deferred one, and computes the rate', async () => {
    const { db } = t().database;
    const { ownerId } = await seedInvoices(db, blobs, 1, 'fail');
    const { forwarding } = forwardingService(db, blobs, smtpConfigFor(relay.port, dovecot.imapPort), {
      backoffBaseMs: 100,
    });
    forwarding.useQueue(async () => randomUUID());
    await forwarding.updateConfig(ownerId, {
      enabled: true,
      target_emails: ['books@mailbox.test', 'nobody@mailbox.test'],
    });
    relay.refuse.add('nobody@mailbox.test');
    relay.failNext(1, 451, 'data');
    await forwarding.start(ownerId);
    const result = await forwarding.run(ownerId, randomUUID());
    expect(result).toMatchObject({ sent: 1, failed: 1 });
    const stats = await forwarding.stats(ownerId);
    expect(stats).toMatchObject({ total_forwarded: 1, total_failed: 1, total_pending: 0, success_rate: 50 });
    expect(stats.recent_failures[0]).toMatchObject({ recipient: 'nobody@mailbox.test' });
    expect(stats.recent_failures[0]!.error).toMatch(/refused.*550|No such user/);
  });

  it('after a crash between the provider’s acceptance and the commit, finds the mail in Sent and sends nothing again', async () => {
    const { db } = t().database;
    const { ownerId } = await seedInvoices(db, blobs, 2, 'crash');
    const crashed = forwardingService(db, blobs, smtpConfigFor(relay.port, dovecot.imapPort), {
      hooks: {
        afterSend: () => {
          throw new Error('crash after the send');
        },
      },
    }).forwarding;
    crashed.useQueue(async () => randomUUID());
    await crashed.updateConfig(ownerId, { enabled: true, target_emails: ['audit@mailbox.test'] });
    await crashed.start(ownerId);
    await expect(crashed.run(ownerId, randomUUID())).rejects.toThrow('crash after the send');
    const before = relay.accepted;
    const { forwarding } = forwardingService(db, blobs, smtpConfigFor(relay.port, dovecot.imapPort));
    const result = await forwarding.run(ownerId, randomUUID());
    expect(result).toEqual({ sent: 1, failed: 0, recovered: 1, waiting: 0 });
    expect(relay.accepted - before).toBe(1);
    const ids = (await mailbox('audit')).map((m) => m.messageId);
    const invoices = await db.execute(sql`select id from invoices where owner_id = ${ownerId}`);
    for (const { id } of invoices.rows as Array<{ id: string }>) {
      expect(ids.filter((m) => m === forwardingMessageId(id, 'audit@mailbox.test'))).toHaveLength(1);
    }
  });

  it('sends through a person’s own relay, tried before it is saved, and looks in their IMAP account’s Sent', async () => {
    const { db } = t().database;
    const { ownerId } = await seedInvoices(db, blobs, 2, 'own');
    const box = createSecretBox('a-test-secret-of-at-least-32-characters!');
    const relays = new SmtpRelayService(db, box, { allowPrivate: true });
    const body = {
      host: '127.0.0.1',
      port: relay.port,
      tls: 'none' as const,
      username: 'relay',
      password: FORWARDING_USERS.relay,
      from: 'relay@mailbox.test',
    };
    await expect(relays.save(ownerId, { ...body, password: 'wrong' })).rejects.toThrow(
      'Could not connect and sign in to the SMTP server',
    );
    await expect(new SmtpRelayService(db, box, { allowPrivate: false }).save(ownerId, body)).rejects.toThrow(
      'Could not connect and sign in to the SMTP server',
    );
    expect(await relays.get(ownerId)).toBeNull();
    expect(await relays.save(ownerId, body)).toEqual({
      host: '127.0.0.1',
      port: relay.port,
      tls: 'none',
      username: 'relay',
      from: 'relay@mailbox.test',
    });
    const stored = await db.execute(sql`select * from forwarding_smtp_relays where owner_id = ${ownerId}`);
    expect(JSON.stringify(stored.rows)).not.toContain(FORWARDING_USERS.relay);

    // The person reads the relay account's mail over IMAP too: its Sent folder settles an interrupted send.
    const accounts = new AccountsService(new AccountsRepository(db));
    const imapAccounts = new ImapAccountsService(db, box, accounts, { allowPrivate: true });
    await imapAccounts.connect(ownerId, {
      email: 'relay@mailbox.test',
      host: '127.0.0.1',
      port: dovecot.imapPort,
      secure: false,
      username: 'relay',
      password: FORWARDING_USERS.relay,
      mailboxes: ['INBOX'],
    });
    const build = (hooks = {}) => {
      const service = new ForwardingService(
        new ForwardingRepository(db),
        accounts,
        blobs,
        createSenderFactory({
          accounts,
          providerAccess: {} as ProviderAccessService,
          smtp: undefined,
          relays,
          imapAccounts,
        }),
        { jobType: 'invoice_forwarding', hooks },
      );
      service.useQueue(async () => randomUUID());
      return service;
    };
    const crashing = build({
      afterSend: () => {
        throw new Error('crash after the send');
      },
    });
    await crashing.updateConfig(ownerId, { enabled: true, target_emails: ['tax@mailbox.test'] });
    expect((await crashing.getConfig(ownerId)).sender).toEqual({
      configured: true,
      kind: 'smtp',
      from: 'relay@mailbox.test',
      reason: null,
    });
    await crashing.start(ownerId);
    await expect(crashing.run(ownerId, randomUUID())).rejects.toThrow('crash after the send');
    const before = relay.accepted;
    expect(await build().run(ownerId, randomUUID())).toEqual({ sent: 1, failed: 0, recovered: 1, waiting: 0 });
    expect(relay.accepted - before).toBe(1);
    const ids = (await mailbox('tax')).map((m) => m.messageId);
    const invoices = await db.execute(sql`select id from invoices where owner_id = ${ownerId}`);
    for (const { id } of invoices.rows as Array<{ id: string }>) {
      expect(ids.filter((m) => m === forwardingMessageId(id, 'tax@mailbox.test'))).toHaveLength(1);
    }
    await relays.remove(ownerId);
    expect(await relays.get(ownerId)).toBeNull();
  });

  it('drops queued mails not tried yet when a recipient is removed or forwarding is switched off', async () => {
    const { db } = t().database;
    const { ownerId } = await seedInvoices(db, blobs, 2, 'drop');
    const { forwarding } = forwardingService(db, blobs, smtpConfigFor(relay.port, dovecot.imapPort));
    forwarding.useQueue(async () => randomUUID());
    await forwarding.updateConfig(ownerId, { enabled: true, target_emails: RECIPIENTS });
    expect((await forwarding.start(ownerId)).queued).toBe(6);
    await forwarding.updateConfig(ownerId, { enabled: true, target_emails: [RECIPIENTS[0]!] });
    expect((await forwarding.stats(ownerId)).total_pending).toBe(2);
    await forwarding.updateConfig(ownerId, { enabled: false, target_emails: [RECIPIENTS[0]!] });
    expect((await forwarding.stats(ownerId)).total_pending).toBe(0);
    expect((await forwarding.getConfig(ownerId)).backlog).toBe(2);
  });

  it('sends with the Gmail API for a Google account, and settles a lost commit with rfc822msgid:', async () => {
    const { db } = t().database;
    const gmail = await startFakeGmail();
    try {
      const { ownerId } = await seedInvoices(db, blobs, 2, 'gmail');
      const accounts = new AccountsService(new AccountsRepository(db));
      await accounts.connect(ownerId, { provider: 'google', email: 'me@gmail.test' });
      const providerAccess = {
        accessToken: async () => 'valid-token',
        refreshedAccessToken: async () => 'valid-token',
      } as unknown as ProviderAccessService;
      const build = (hooks = {}) => {
        const service = new ForwardingService(
          new ForwardingRepository(db),
          accounts,
          blobs,
          createSenderFactory({
            accounts,
            providerAccess,
            smtp: smtpConfigFor(relay.port, dovecot.imapPort),
            googleApiRootUrl: gmail.rootUrl,
          }),
          { jobType: 'invoice_forwarding', hooks },
        );
        service.useQueue(async () => randomUUID());
        return service;
      };
      let sends = 0;
      const crashing = build({
        afterSend: () => {
          sends += 1;
          if (sends === 2) throw new Error('crash after the send');
        },
      });
      await crashing.updateConfig(ownerId, { enabled: true, target_emails: ['books@example.com'] });
      expect((await crashing.getConfig(ownerId)).sender).toMatchObject({ kind: 'gmail', from: 'me@gmail.test' });
      await crashing.start(ownerId);
      await expect(crashing.run(ownerId, randomUUID())).rejects.toThrow('crash after the send');
      expect(await build().run(ownerId, randomUUID())).toEqual({ sent: 0, failed: 0, recovered: 1, waiting: 0 });
      expect(gmail.sent).toHaveLength(2);
      expect(gmail.requests.filter((r) => r === 'POST /gmail/v1/users/me/messages/send')).toHaveLength(2);
      const invoices = await db.execute(sql`select id from invoices where owner_id = ${ownerId}`);
      const expected = (invoices.rows as Array<{ id: string }>).map((r) =>
        forwardingMessageId(r.id, 'books@example.com'),
      );
      const sentIds = await Promise.all(gmail.sent.map(async (raw) => (await simpleParser(raw)).messageId));
      expect(sentIds.sort()).toEqual(expected.sort());
    } finally {
      await gmail.close();
    }
  });

  it('computes the Message-ID in SQL exactly as in code', async () => {
    const { db } = t().database;
    const rows = await db.execute(sql`select invoice_id, recipient, message_id from forwarding_outbox limit 20`);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const r of rows.rows as Array<{ invoice_id: string; recipient: string; message_id: string }>) {
      expect(r.message_id).toBe(forwardingMessageId(r.invoice_id, r.recipient));
    }
  });
});
