import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import { buildMail } from '../../test/mail/mail-builder';
import { type ImapCursor, ImapMailSource, MailAuthError, MailServerUnavailableError } from './imap.source';
import { parseMailMessage } from './mail-message.parser';

/** The IMAP adapter against a real Dovecot server, seeded over IMAP APPEND. */
describe('IMAP mail source', () => {
  let dovecot: TestDovecot;
  const settings = () => ({
    host: dovecot.host,
    port: dovecot.imapPort,
    secure: false,
    user: 'alice',
    password: 'secret',
    timeoutSeconds: 5,
    // The test server is on loopback.
    outbound: { allowPrivate: true },
  });

  async function append(count: number, from = 0, mailbox = 'INBOX') {
    const client = new ImapFlow({
      ...settings(),
      auth: { user: 'alice', pass: 'secret' },
      logger: false,
      doSTARTTLS: false,
    });
    await client.connect();
    if (mailbox !== 'INBOX') await client.mailboxCreate(mailbox).catch(() => {});
    for (let i = from; i < from + count; i++) {
      const raw = buildMail({
        from: `Vendor ${i} <billing@vendor${i}.example>`,
        subject: `Invoice ${i}`,
        messageId: `<msg-${mailbox}-${i}@example.com>`,
        attachments: i % 3 === 0 ? [{ filename: `invoice-${i}.pdf`, content: Buffer.from(`%PDF-1.4 ${i}`) }] : [],
      });
      await client.append(mailbox, raw);
    }
    await client.logout();
  }

  async function drain(source: ImapMailSource, cursor: ImapCursor | null) {
    const subjects: string[] = [];
    let last = cursor;
    for await (const { raw, cursor: next } of source.messagesSince(cursor)) {
      expect(raw.ok).toBe(true);
      if (raw.ok) {
        const parsed = await parseMailMessage(raw.source, raw.origin);
        if (parsed.ok) subjects.push(parsed.message.subject ?? '');
      }
      last = next;
    }
    return { subjects, cursor: last };
  }

  beforeAll(async () => {
    dovecot = await startDovecot({ alice: 'secret' });
    await append(25);
  });
  afterAll(async () => {
    await dovecot?.dispose();
  });

  it('reads every message once, then only new ones from the cursor', async () => {
    const source = new ImapMailSource(settings());
    const first = await drain(source, null);
    expect(first.subjects).toHaveLength(25);
    expect(first.subjects[0]).toBe('Invoice 0');
    expect(first.cursor?.INBOX?.lastUid).toBe(25);
    expect((await drain(source, first.cursor)).subjects).toEqual([]);
    await append(3, 25);
    const next = await drain(source, first.cursor);
    expect(next.subjects).toEqual(['Invoice 25', 'Invoice 26', 'Invoice 27']);
  });

  it('reads several mailboxes, each with its own cursor, and starts over when UIDVALIDITY changes', async () => {
    await append(2, 0, 'Archive');
    const source = new ImapMailSource({ ...settings(), mailboxes: ['INBOX', 'Archive'] });
    const all = await drain(source, null);
    expect(all.subjects.length).toBe(30);
    expect(all.cursor?.Archive?.lastUid).toBe(2);
    const stale = { ...all.cursor!, Archive: { uidValidity: '1', lastUid: 2 } };
    expect((await drain(source, stale)).subjects).toEqual(['Invoice 0', 'Invoice 1']);
  });

  it('connects only to addresses the policy allows: loopback by address or by name is refused unless allowed', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const denied = new ImapMailSource({ ...settings(), host, outbound: { allowPrivate: false } });
      const error = await denied.check().catch((e) => e);
      expect(error).toBeInstanceOf(MailServerUnavailableError);
      expect(error.message).toMatch(/is not an allowed target/);
      expect(error.cause).toMatchObject({ code: 'target_not_allowed' });
    }
    const byDefault = new ImapMailSource({ ...settings(), outbound: undefined });
    await expect(byDefault.check()).rejects.toThrow(/is not an allowed target/);
    // Allowed, a name reaches the server through the address it was checked at.
    const byName = new ImapMailSource({ ...settings(), host: 'localhost' });
    expect((await byName.check()).mailboxes).toContain('INBOX');
  });

  it('refuses a wrong password with a clear, non-retryable error', async () => {
    const source = new ImapMailSource({ ...settings(), password: 'wrong' });
    const error = await drain(source, null).catch((e) => e);
    expect(error).toBeInstanceOf(MailAuthError);
    expect(error.message).toMatch(/refused the sign-in of alice/);
    expect(error.retryable).toBe(false);
  });

  it('reports a server that goes away mid-sync as retryable, and resumes from the saved cursor', async () => {
    const source = new ImapMailSource(settings(), { maxMessageBytes: 1024 * 1024, batchSize: 5 });
    let saved: ImapCursor | null = null;
    let seen = 0;
    const error = await (async () => {
      for await (const { cursor } of source.messagesSince(null)) {
        saved = cursor;
        seen++;
        if (seen === 10) await dovecot.stop();
      }
    })().catch((e) => e);
    // The batch already in memory is still handed out; the next batch's fetch fails.
    expect(error).toBeInstanceOf(MailServerUnavailableError);
    expect(error.retryable).toBe(true);
    await dovecot.start();
    const rest = await drain(source, saved);
    expect(seen + rest.subjects.length).toBe(28);
  });
});
