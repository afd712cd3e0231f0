import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGmail, startFakeGmail } from '../../test/gmail-api';
import { buildForwardMessage, forwardingMessageId } from './forward-message';
import { GmailSender } from './gmail.sender';
import { SendError } from './sender';

describe('the Gmail API sender (against the local Gmail wire-format server)', () => {
  let api: FakeGmail;
  beforeAll(async () => {
    api = await startFakeGmail();
  });
  afterAll(async () => {
    await api.close();
  });

  const mail = async (recipient: string) => {
    const messageId = forwardingMessageId('inv-g', recipient);
    const raw = await buildForwardMessage(
      {
        invoiceId: 'inv-g',
        vendor: 'Acme',
        amount: '$5.00',
        invoiceDate: '2026-01-02',
        subject: 'Invoice',
        senderEmail: 'billing@acme.example',
        raw: Buffer.from('From: a@acme.example\r\nSubject: Invoice\r\n\r\nhello\r\n'),
        attachments: [],
      },
      { from: 'me@gmail.test', to: recipient, messageId },
    );
    return { from: 'me@gmail.test', to: recipient, messageId, raw };
  };

  it('sends the raw message with users.messages.send and finds it again with rfc822msgid:', async () => {
    const sender = new GmailSender({
      from: 'me@gmail.test',
      rootUrl: api.rootUrl,
      accessToken: async () => 'valid-token',
    });
    const m = await mail('books@example.com');
    expect(await sender.findSent(m.messageId)).toBe(false);
    await sender.send(m);
    expect(api.sent).toHaveLength(1);
    expect(Buffer.compare(api.sent[0]!, m.raw)).toBe(0);
    expect(api.requests).toContain('POST /gmail/v1/users/me/messages/send');
    expect(await sender.findSent(m.messageId)).toBe(true);
    expect(await sender.findSent(forwardingMessageId('inv-g', 'other@example.com'))).toBe(false);
  });

  it('asks for a fresh token once after a 401, and tells temporary from permanent refusals', async () => {
    let calls = 0;
    const sender = new GmailSender({
      from: 'me@gmail.test',
      rootUrl: api.rootUrl,
      accessToken: async (force) => {
        calls += 1;
        return force ? 'valid-token' : 'stale-token';
      },
    });
    await sender.send(await mail('a@example.com'));
    expect(calls).toBe(2);
    api.failNext(1, 429, 'rateLimitExceeded');
    const limited = await sender.send(await mail('b@example.com')).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(SendError);
    expect((limited as SendError).kind).toBe('temporary');
    api.failNext(1, 400, 'invalidArgument');
    const refused = await sender.send(await mail('c@example.com')).catch((e: unknown) => e);
    expect((refused as SendError).kind).toBe('permanent');
  });
});
