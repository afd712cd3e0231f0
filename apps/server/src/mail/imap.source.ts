import { ImapFlow } from 'imapflow';
import { AppError } from '../errors';
import { isOutboundRefusal, type OutboundPolicy, resolveTarget } from '../net/outbound';
import { DEFAULT_MAIL_LIMITS } from './mail-limits';
import type { RawMail } from './mail-message';

/**
 * One IMAP account as a mail source (imapflow): any provider, password / app password or XOAUTH2.
 * Incremental by UIDVALIDITY + UID per mailbox: the cursor records, per mailbox, the UIDVALIDITY seen and the highest
 * UID handed out. A changed UIDVALIDITY (the server renumbered the mailbox) means a full pass over it again; the
 * consumer's per-message keys (`origin`) keep that from creating duplicates. The consumer saves the cursor that comes
 * with each message after it has stored that message, so a sync killed at any point resumes where it stopped.
 */
export interface ImapSettings {
  host: string;
  port: number;
  /** TLS from the start (993); false: plain or STARTTLS when offered. */
  secure: boolean;
  user: string;
  password?: string;
  /** OAuth2 access token (XOAUTH2), e.g. for Gmail over IMAP. */
  accessToken?: string;
  /** Default: INBOX. */
  mailboxes?: string[];
  /** Seconds to wait for the server to greet or answer. */
  timeoutSeconds?: number;
  /** Which addresses the server may have (the host is a person's). Default: public ones only. */
  outbound?: OutboundPolicy;
}

export type ImapCursor = Record<string, { uidValidity: string; lastUid: number }>;

export interface ImapMessage {
  raw: RawMail;
  /** The cursor to save once this message is stored. */
  cursor: ImapCursor;
}

export class MailAuthError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'mail_auth_failed', status: 401, cause });
  }
}

export class MailServerUnavailableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'mail_server_unavailable', status: 503, retryable: true, cause });
  }
}

/** UIDs are fetched in batches: bounded memory on mailboxes of any size. */
const DEFAULT_BATCH = 100;
/** Message bytes fetched in one round trip (a message larger than this comes alone). */
const FETCH_BYTES = 16 * 1024 * 1024;

/** Splits UIDs, in order, into groups whose sizes add up to at most `limit` (a larger message is a group alone). */
function byBytes(uids: number[], sizeOf: (uid: number) => number, limit: number): number[][] {
  const groups: number[][] = [];
  let group: number[] = [];
  let bytes = 0;
  for (const uid of uids) {
    const size = sizeOf(uid);
    if (group.length > 0 && bytes + size > limit) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(uid);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

export class ImapMailSource {
  constructor(
    private readonly settings: ImapSettings,
    private readonly limits: { maxMessageBytes: number; batchSize?: number } = {
      maxMessageBytes: DEFAULT_MAIL_LIMITS.maxMessageBytes,
    },
  ) {}

  /** Connects, logs in and logs out: the answer of a "test connection" button. */
  async check(): Promise<{ mailboxes: string[] }> {
    const client = await this.connect();
    try {
      const list = await client.list();
      return { mailboxes: list.map((m) => m.path) };
    } finally {
      await client.logout().catch(() => {});
    }
  }

  /** Every message after the cursor, oldest first, mailbox by mailbox. */
  async *messagesSince(cursor: ImapCursor | null, signal?: AbortSignal): AsyncGenerator<ImapMessage> {
    const state: ImapCursor = structuredClone(cursor ?? {});
    const client = await this.connect();
    try {
      for (const mailbox of this.settings.mailboxes ?? ['INBOX']) {
        const lock = await client.getMailboxLock(mailbox, { readOnly: true });
        try {
          const opened = client.mailbox;
          if (!opened) continue;
          const uidValidity = String(opened.uidValidity);
          const known = state[mailbox];
          const after = known && known.uidValidity === uidValidity ? known.lastUid : 0;
          state[mailbox] = { uidValidity, lastUid: after };
          // `n:*` always matches the newest message, even when its UID is below n: filter by UID as well.
          const found = await client.search({ uid: `${after + 1}:*` }, { uid: true });
          const uids = (found || []).filter((uid) => uid > after).sort((a, b) => a - b);
          const max = this.limits.maxMessageBytes;
          const size = this.limits.batchSize ?? DEFAULT_BATCH;
          // Sizes first (a message over the limit is reported, never downloaded), then the bodies in groups of at
          // most FETCH_BYTES: one round trip for many small messages, never a batch of large ones in memory at once.
          async function* groups() {
            for (let i = 0; i < uids.length; i += size) {
              signal?.throwIfAborted();
              const batch = uids.slice(i, i + size);
              const sizes = new Map<number, number>();
              for await (const m of client.fetch(batch.join(','), { uid: true, size: true }, { uid: true })) {
                sizes.set(m.uid, m.size ?? 0);
              }
              const fetchable = (uid: number) => ((sizes.get(uid) ?? 0) > max ? 0 : (sizes.get(uid) ?? 0));
              for (const group of byBytes(batch, fetchable, FETCH_BYTES)) yield { group, sizes };
            }
          }
          const pending = groups();
          const fetchNext = async () => {
            const next = await pending.next();
            if (next.done) return null;
            const { group, sizes } = next.value;
            const small = group.filter((uid) => (sizes.get(uid) ?? 0) <= max);
            const fetched = new Map<number, Buffer>();
            if (small.length > 0) {
              for await (const m of client.fetch(small.join(','), { uid: true, source: true }, { uid: true })) {
                if (m.source) fetched.set(m.uid, m.source);
              }
            }
            return { group, sizes, fetched };
          };
          // One group ahead: the next group downloads while the consumer stores this one.
          let ahead = fetchNext();
          for (;;) {
            const current = await ahead;
            if (!current) break;
            ahead = fetchNext();
            ahead.catch(() => undefined); // surfaces at the next `await ahead`, or not at all if the consumer stops
            const { group, sizes, fetched } = current;
            for (const uid of group) {
              signal?.throwIfAborted();
              const origin = `imap:${mailbox}:${uidValidity}:${uid}`;
              state[mailbox] = { uidValidity, lastUid: uid };
              const source = fetched.get(uid);
              fetched.delete(uid);
              const raw: RawMail = source
                ? { ok: true, origin, source }
                : {
                    ok: false,
                    error: {
                      code: (sizes.get(uid) ?? 0) > max ? 'message_too_large' : 'unreadable_file',
                      message: `message ${uid} of ${mailbox} could not be read (${sizes.get(uid) ?? 0} bytes)`,
                      origin,
                    },
                  };
              yield { raw, cursor: structuredClone(state) };
            }
          }
        } finally {
          lock.release();
        }
      }
    } catch (error) {
      throw toSourceError(error, this.settings);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  private async connect(): Promise<ImapFlow> {
    const { host, port, secure, user, password, accessToken, timeoutSeconds = 30 } = this.settings;
    // The host is resolved and checked once here; imapflow gets the checked address (no lookup of its own) and the
    // name for TLS (SNI and the certificate check, also after STARTTLS).
    let target: Awaited<ReturnType<typeof resolveTarget>>;
    try {
      target = await resolveTarget(host, this.settings.outbound ?? { allowPrivate: false });
    } catch (error) {
      throw toSourceError(error, this.settings);
    }
    const client = new ImapFlow({
      host: target.addresses[0]!.address,
      ...(target.servername ? { servername: target.servername } : {}),
      port,
      secure,
      auth: accessToken ? { user, accessToken } : { user, pass: password ?? '' },
      logger: false,
      connectionTimeout: timeoutSeconds * 1000,
      greetingTimeout: timeoutSeconds * 1000,
      socketTimeout: Math.max(60, timeoutSeconds * 4) * 1000,
      // Plain connections are for local servers and tests; production servers use TLS (secure) or STARTTLS.
      doSTARTTLS: secure ? undefined : false,
    });
    // Errors after connect surface through the pending command; this keeps an idle socket error from crashing.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      throw toSourceError(error, this.settings);
    }
    return client;
  }
}

function toSourceError(error: unknown, settings: ImapSettings): AppError {
  if (isOutboundRefusal(error)) {
    return new MailServerUnavailableError(
      `The mail server ${settings.host}:${settings.port} is not an allowed target`,
      error,
    );
  }
  if (error instanceof AppError) return error;
  if (error instanceof DOMException && error.name === 'AbortError') throw error;
  const e = error as { authenticationFailed?: boolean; code?: string; message?: string; responseText?: string };
  const where = `${settings.user} at ${settings.host}:${settings.port}`;
  if (e.authenticationFailed || e.code === 'AUTHENTICATIONFAILED') {
    return new MailAuthError(
      `The mail server refused the sign-in of ${where}: check the password or app password`,
      error,
    );
  }
  return new MailServerUnavailableError(
    `The mail server ${where} could not be reached or dropped the connection: ${e.responseText ?? e.message ?? e.code ?? 'unknown error'}`,
    error,
  );
}
