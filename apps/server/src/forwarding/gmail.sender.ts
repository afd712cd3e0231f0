import type { gmail_v1 } from '@googleapis/gmail';
import { gmail, auth as googleAuth } from '@googleapis/gmail';
import { type MailSender, type OutgoingMail, SendError } from './sender';

export interface GmailSenderOptions {
  from: string;
  /** A live access token; `forceRefresh` after Gmail refused the previous one. */
  accessToken: (forceRefresh: boolean) => Promise<string>;
  /** Tests point this at a local server speaking the Gmail REST wire format. */
  rootUrl?: string | undefined;
}

/**
 * Sends with the Gmail API (users.messages.send, the message as `raw`), which files it in the account's Sent folder;
 * `findSent` searches the mailbox with `rfc822msgid:` (messages.list, spam and trash included).
 */
export class GmailSender implements MailSender {
  readonly kind = 'gmail' as const;
  private readonly api: gmail_v1.Gmail;
  private readonly oauth = new googleAuth.OAuth2();
  private tokenLoaded = false;

  constructor(private readonly options: GmailSenderOptions) {
    this.api = gmail({ version: 'v1', auth: this.oauth, ...(options.rootUrl ? { rootUrl: options.rootUrl } : {}) });
  }

  get from(): string {
    return this.options.from;
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.call(() =>
      this.api.users.messages.send({ userId: 'me', requestBody: { raw: mail.raw.toString('base64url') } }),
    );
  }

  async findSent(messageId: string): Promise<boolean> {
    const res = await this.call(() =>
      this.api.users.messages.list({
        userId: 'me',
        q: `rfc822msgid:${messageId.replace(/^<|>$/g, '')}`,
        includeSpamTrash: true,
        maxResults: 1,
      }),
    );
    return (res.data.messages?.length ?? 0) > 0;
  }

  async close(): Promise<void> {}

  /** One call, with one fresh access token after a 401; errors become SendErrors by kind. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (!this.tokenLoaded || attempt > 0) {
        this.oauth.setCredentials({ access_token: await this.options.accessToken(attempt > 0) });
        this.tokenLoaded = true;
      }
      try {
        return await fn();
      } catch (error) {
        const e = error as {
          status?: number;
          code?: string | number;
          message?: string;
          response?: { status?: number };
        };
        const status = e.status ?? e.response?.status ?? (typeof e.code === 'number' ? e.code : undefined);
        if (status === 401 && attempt === 0) continue;
        throw classifyGmailError(status, e.message ?? String(error), error);
      }
    }
  }
}

function classifyGmailError(status: number | undefined, message: string, cause: unknown): SendError {
  const reason = `Gmail: ${message.slice(0, 500)}`;
  if (status === undefined) return new SendError(reason, 'unknown', { cause });
  if (status === 429 || status >= 500 || (status === 403 && /rate|quota|limit/i.test(message))) {
    return new SendError(reason, 'temporary', { cause });
  }
  if (status === 401) return new SendError(`${reason} (sign in with Google again)`, 'temporary', { cause });
  return new SendError(reason, 'permanent', { cause });
}
