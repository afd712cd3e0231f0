import { gmail, type gmail_v1, auth as googleAuth } from '@googleapis/gmail';
import { AppError } from '../errors';
import { MailAuthError, MailServerUnavailableError } from './imap.source';
import { DEFAULT_MAIL_LIMITS } from './mail-limits';
import type { RawMail } from './mail-message';

/**
 * A Gmail account as a mail source, through the Gmail API (@googleapis/gmail).
 * - First pass: messages.list over the whole mailbox (a query, by default everything but chats, spam and trash),
 *   each message fetched as `raw` RFC 822 and parsed like any other mail; the mailbox's historyId, read before the
 *   listing, becomes the cursor.
 * - Next passes: history.list from that historyId (messageAdded only). When Gmail answers 404 because the historyId is
 *   too old, it falls back to a full pass; the consumer's per-message keys keep that from creating duplicates.
 * - 429 and quota 403s are retried with exponential backoff (honouring Retry-After); a 401 asks for a fresh access
 *   token once, then is a MailAuthError (the account needs a new sign-in).
 */
export interface GmailCursor {
  historyId: string;
}

export interface GmailMessage {
  raw: RawMail;
  cursor: GmailCursor;
}

export interface GmailSourceOptions {
  /** A live access token; `forceRefresh` after Gmail refused the previous one. */
  accessToken: (forceRefresh: boolean) => Promise<string>;
  /** Which messages a full pass reads. */
  query?: string;
  /** Messages fetched at once. */
  concurrency?: number;
  /** Tests point this at a local server speaking the Gmail REST wire format. */
  rootUrl?: string;
  maxMessageBytes?: number;
  /** Backoff base in ms (tests shorten it). */
  backoffMs?: number;
}

const DEFAULT_QUERY = '-in:chats -in:spam -in:trash';

export class GmailMailSource {
  private readonly api: gmail_v1.Gmail;
  private readonly oauth = new googleAuth.OAuth2();
  private tokenLoaded = false;

  constructor(private readonly options: GmailSourceOptions) {
    this.api = gmail({ version: 'v1', auth: this.oauth, ...(options.rootUrl ? { rootUrl: options.rootUrl } : {}) });
  }

  /**
   * Every message after the cursor. Each message comes with the cursor as it was (a history id cannot be advanced
   * message by message); once the pass is consumed to the end, `completedCursor` holds the one to save.
   */
  async *messagesSince(cursor: GmailCursor | null, signal?: AbortSignal): AsyncGenerator<GmailMessage> {
    this.completedCursor = undefined;
    // Read before listing: whatever arrives during the pass is seen again next time, never missed.
    const profile = await this.call((o) => this.api.users.getProfile({ userId: 'me' }, o));
    const next = { historyId: String(profile.historyId ?? cursor?.historyId ?? '0') };
    const ids = (cursor && (await this.historyIds(cursor.historyId))) || this.listIds();
    const concurrency = this.options.concurrency ?? 5;
    for await (const page of ids) {
      for (let i = 0; i < page.length; i += concurrency) {
        signal?.throwIfAborted();
        const chunk = page.slice(i, i + concurrency);
        const fetched = await Promise.all(chunk.map((id) => this.fetchRaw(id)));
        for (const raw of fetched) {
          if (raw) yield { raw, cursor: cursor ?? { historyId: '0' } };
        }
      }
    }
    this.completedCursor = next;
  }

  /** The cursor to save after a pass has been consumed to the end (undefined while it runs or if it failed). */
  completedCursor: GmailCursor | undefined;

  private async *listIds(): AsyncGenerator<string[]> {
    let pageToken: string | undefined;
    do {
      const page = await this.call((o) =>
        this.api.users.messages.list(
          {
            userId: 'me',
            q: this.options.query ?? DEFAULT_QUERY,
            maxResults: 500,
            ...(pageToken ? { pageToken } : {}),
          },
          o,
        ),
      );
      yield (page.messages ?? []).map((m) => m.id!).filter(Boolean);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  }

  /** Ids added since `startHistoryId`, or undefined when Gmail no longer has that history (404). */
  private async historyIds(startHistoryId: string): Promise<AsyncGenerator<string[]> | undefined> {
    let first: gmail_v1.Schema$ListHistoryResponse;
    try {
      first = await this.call((o) =>
        this.api.users.history.list({ userId: 'me', startHistoryId, historyTypes: ['messageAdded'] }, o),
      );
    } catch (error) {
      if ((error as { status?: number }).status === 404 || (error as AppError).code === 'gmail_not_found')
        return undefined;
      throw error;
    }
    const self = this;
    return (async function* () {
      let page: gmail_v1.Schema$ListHistoryResponse | undefined = first;
      while (page) {
        const ids = new Set<string>();
        for (const h of page.history ?? [])
          for (const added of h.messagesAdded ?? []) if (added.message?.id) ids.add(added.message.id);
        yield [...ids];
        const token: string | null | undefined = page.nextPageToken;
        page = token
          ? await self.call((o) =>
              self.api.users.history.list(
                { userId: 'me', startHistoryId, historyTypes: ['messageAdded'], pageToken: token },
                o,
              ),
            )
          : undefined;
      }
    })();
  }

  private async fetchRaw(id: string): Promise<RawMail | undefined> {
    const origin = `gmail:${id}`;
    let message: gmail_v1.Schema$Message;
    try {
      message = await this.call((o) => this.api.users.messages.get({ userId: 'me', id, format: 'raw' }, o));
    } catch (error) {
      if ((error as AppError).code === 'gmail_not_found') return undefined; // deleted since it was listed
      throw error;
    }
    const size = message.sizeEstimate ?? 0;
    const max = this.options.maxMessageBytes ?? DEFAULT_MAIL_LIMITS.maxMessageBytes;
    if (size > max || !message.raw) {
      return {
        ok: false,
        error: {
          origin,
          code: size > max ? 'message_too_large' : 'parse_failed',
          message: `Gmail message ${id} (${size} bytes) could not be read`,
        },
      };
    }
    return { ok: true, origin, source: Buffer.from(message.raw, 'base64url') };
  }

  /** One API call with the access token, backoff on rate limits and one token refresh on 401. */
  private async call<T>(fn: (options: { retry: false }) => Promise<{ data: T }>): Promise<T> {
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      if (!this.tokenLoaded || refreshed) {
        this.oauth.setCredentials({ access_token: await this.options.accessToken(refreshed) });
        this.tokenLoaded = true;
      }
      try {
        return (await fn({ retry: false })).data;
      } catch (error) {
        const status =
          (error as { status?: number; response?: { status?: number } }).status ??
          (error as { response?: { status?: number } }).response?.status;
        // Google puts the reason (rateLimitExceeded, quotaExceeded, ...) in the body's error.errors[].reason.
        const reason = JSON.stringify((error as { response?: { data?: unknown } }).response?.data ?? '');
        if (status === 401 && !refreshed) {
          refreshed = true;
          continue;
        }
        if (status === 401)
          throw new MailAuthError('Gmail refused the access token; sign in with this account again', error);
        const rateLimited =
          status === 429 || (status === 403 && /rateLimitExceeded|userRateLimitExceeded|quotaExceeded/.test(reason));
        if ((rateLimited || (status !== undefined && status >= 500)) && attempt < 5) {
          const retryAfter = Number(
            (error as { response?: { headers?: Record<string, string> } }).response?.headers?.['retry-after'],
          );
          const base = this.options.backoffMs ?? 1000;
          const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : base * 2 ** attempt;
          await new Promise((r) => setTimeout(r, Math.min(wait, 60_000)));
          refreshed = false;
          continue;
        }
        if (status === 404)
          throw new AppError('Gmail has no such item', { code: 'gmail_not_found', status: 404, cause: error });
        if (rateLimited) throw new MailServerUnavailableError('Gmail rate limit: try again later', error);
        if (status === undefined || status >= 500) {
          throw new MailServerUnavailableError(`Gmail could not be reached: ${(error as Error).message}`, error);
        }
        throw new AppError(`Gmail refused the request (${status}): ${(error as Error).message}`, {
          code: 'gmail_error',
          status: 502,
          cause: error,
        });
      }
    }
  }
}
