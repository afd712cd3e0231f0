import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { TestDovecot } from './dovecot';

/**
 * A real SMTP submission server (smtp-server) in front of a test Dovecot (shared/RECIPES.md §2): a message for
 * `name@any.domain` is delivered to Dovecot user `name` over LMTP. Like Gmail or Microsoft 365, it files a copy of
 * every accepted message in the signed-in user's `Sent` folder BEFORE it answers 250, so a client that crashed after
 * the send finds it there. `failNext` makes the next RCPTs or DATAs fail with a reply code.
 */
export interface TestSmtpRelay {
  port: number;
  /** Messages accepted (one per DATA). */
  accepted: number;
  /** The next `count` transactions answer `code` at `stage`. */
  failNext(count: number, code: number, stage: 'rcpt' | 'data'): void;
  /** Recipients refused with 550 for good. */
  refuse: Set<string>;
  close(): Promise<void>;
}

export async function startSmtpRelay(
  dovecot: TestDovecot,
  users: Record<string, string>,
  options: { sentCopy?: boolean; port?: number } = {},
): Promise<TestSmtpRelay> {
  const lmtp = nodemailer.createTransport({ lmtp: true, host: '127.0.0.1', port: dovecot.lmtpPort, pool: true });
  const imap = new Map<string, ImapFlow>();
  const failures: Array<{ code: number; stage: 'rcpt' | 'data' }> = [];
  const refuse = new Set<string>();
  let accepted = 0;

  const sentFolderOf = async (user: string): Promise<ImapFlow> => {
    let client = imap.get(user);
    if (client?.usable) return client;
    client = new ImapFlow({
      host: '127.0.0.1',
      port: dovecot.imapPort,
      secure: false,
      auth: { user, pass: users[user]! },
      logger: false,
      doSTARTTLS: false,
    });
    client.on('error', () => {});
    await client.connect();
    const boxes = await client.list();
    if (!boxes.some((b) => b.path === 'Sent')) await client.mailboxCreate('Sent').catch(() => undefined);
    imap.set(user, client);
    return client;
  };

  const failure = (stage: 'rcpt' | 'data') => {
    if (failures[0]?.stage !== stage) return undefined;
    const f = failures.shift()!;
    return Object.assign(new Error(`${f.code} failing on purpose`), { responseCode: f.code });
  };

  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const user = auth.username ?? '';
      if (users[user] !== undefined && users[user] === auth.password) return callback(null, { user });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const injected = failure('rcpt');
      if (injected) return callback(injected);
      if (refuse.has(address.address.toLowerCase())) {
        return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const injected = failure('data');
        if (injected) return callback(injected);
        const raw = Buffer.concat(chunks);
        try {
          await lmtp.sendMail({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            raw,
          });
          if (options.sentCopy !== false && typeof session.user === 'string') {
            await (await sentFolderOf(session.user)).append('Sent', raw, ['\\Seen']);
          }
          accepted += 1;
          callback();
        } catch (error) {
          callback(Object.assign(new Error(`451 ${(error as Error).message}`), { responseCode: 451 }));
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    get accepted() {
      return accepted;
    },
    failNext(count, code, stage) {
      for (let i = 0; i < count; i++) failures.push({ code, stage });
    },
    refuse,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      lmtp.close();
      for (const client of imap.values()) await client.logout().catch(() => client.close());
    },
  };
}

/** Every message of a Dovecot user's mailbox, read over IMAP: Message-ID and full source. */
export async function readMailbox(
  dovecot: TestDovecot,
  user: string,
  password: string,
  mailbox = 'INBOX',
): Promise<Array<{ messageId: string; source: Buffer }>> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: dovecot.imapPort,
    secure: false,
    auth: { user, pass: password },
    logger: false,
    doSTARTTLS: false,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    const messages = await client
      .status(mailbox, { messages: true })
      .then((s) => (s ? (s.messages ?? 0) : 0))
      .catch(() => 0);
    if (messages === 0) return [];
    await client.mailboxOpen(mailbox, { readOnly: true });
    const out: Array<{ messageId: string; source: Buffer }> = [];
    for await (const m of client.fetch('1:*', { envelope: true, source: true })) {
      out.push({ messageId: m.envelope?.messageId ?? '', source: m.source ?? Buffer.alloc(0) });
    }
    return out;
  } finally {
    await client.logout().catch(() => client.close());
  }
}
