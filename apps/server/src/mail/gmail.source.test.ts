import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGmail, startFakeGmail } from '../../test/gmail-api';
import { buildMail } from '../../test/mail/mail-builder';
import { type GmailCursor, GmailMailSource } from './gmail.source';
import { MailAuthError } from './imap.source';
import { parseMailMessage } from './mail-message.parser';

/** The Gmail adapter through the real @googleapis/gmail client, against a local server speaking Gmail's REST format. */
describe('Gmail API mail source', () => {
  let gmail: FakeGmail;
  const mail = (i: number) =>
    buildMail({
      from: `Shop ${i} <billing@shop${i}.example>`,
      subject: `Receipt ${i}`,
      messageId: `<gmail-${i}@example.com>`,
      attachments: [{ filename: `receipt-${i}.pdf`, content: Buffer.from(`%PDF-1.4 ${i}`) }],
    });

  beforeAll(async () => {
    gmail = await startFakeGmail();
    for (let i = 0; i < 12; i++) gmail.add(mail(i));
  });
  afterAll(async () => {
    await gmail.close();
  });

  const source = (token = 'valid-token', refreshTo = 'valid-token') =>
    new GmailMailSource({
      rootUrl: gmail.rootUrl,
      accessToken: async (force) => (force ? refreshTo : token),
      backoffMs: 5,
      concurrency: 3,
    });

  async function drain(s: GmailMailSource, cursor: GmailCursor | null) {
    const subjects: string[] = [];
    for await (const { raw } of s.messagesSince(cursor)) {
      if (!raw.ok) throw new Error(raw.error.message);
      const parsed = await parseMailMessage(raw.source, raw.origin);
      if (parsed.ok) subjects.push(parsed.message.subject ?? '');
    }
    return { subjects, cursor: s.completedCursor };
  }

  it('reads every message on the first pass, then only what history says was added', async () => {
    const s = source();
    const first = await drain(s, null);
    expect(first.subjects.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Receipt ${i}`).sort());
    expect(first.cursor).toBeDefined();
    expect((await drain(s, first.cursor!)).subjects).toEqual([]);
    gmail.add(mail(12));
    gmail.add(mail(13));
    const next = await drain(s, first.cursor!);
    expect(next.subjects.sort()).toEqual(['Receipt 12', 'Receipt 13']);
  });

  it('falls back to a full pass when the history id is too old (404)', async () => {
    const s = source();
    const { cursor } = await drain(s, null);
    gmail.expireHistory();
    gmail.add(mail(14));
    const again = await drain(s, { historyId: '1' });
    expect(again.subjects).toHaveLength(15);
    expect(cursor).toBeDefined();
  });

  it('waits and retries on rate limits (429 and quota 403)', async () => {
    gmail.failNext(2, 429, 'rateLimitExceeded');
    gmail.failNext(1, 403, 'userRateLimitExceeded');
    const { subjects } = await drain(source(), null);
    expect(subjects).toHaveLength(15);
  });

  it('asks once for a fresh token on 401, then gives up with a sign-in-again error', async () => {
    const recovered = await drain(source('expired-token', 'valid-token'), null);
    expect(recovered.subjects).toHaveLength(15);
    const error = await drain(source('expired-token', 'also-bad'), null).catch((e) => e);
    expect(error).toBeInstanceOf(MailAuthError);
  });
});
