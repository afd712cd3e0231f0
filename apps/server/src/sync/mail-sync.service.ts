import { and, eq, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import { mailSyncState } from '../accounts/accounts.tables';
import type { ImapAccountsService } from '../accounts/imap-accounts.service';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import type { IngestService } from '../invoices/ingest.service';
import { type GmailCursor, GmailMailSource } from '../mail/gmail.source';
import { type ImapCursor, MailAuthError } from '../mail/imap.source';
import type { RawMail } from '../mail/mail-message';
import type { ProviderAccessService } from '../oidc/provider-access.service';

export interface AccountSyncResult {
  account_id: string;
  email: string;
  ok: boolean;
  message: string;
  messages: number;
  invoices: number;
}

/**
 * The mail sync of the accounts in scope: each account's source (IMAP, Gmail API) from its saved cursor into the
 * invoice store. One account's failure is reported and the others go on; a refused sign-in marks the account.
 * The cursor is saved only after the messages before it are committed to the store, so a killed sync resumes without
 * losses, and the store's keys make a repeated message a no-op.
 */
export class MailSyncService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    private readonly imap: ImapAccountsService,
    private readonly providerAccess: ProviderAccessService,
    private readonly ingest: IngestService,
    private readonly gmailRootUrl?: string,
  ) {}

  async sync(
    ownerId: string,
    accountIds: string[] | undefined,
    options: { signal?: AbortSignal; progress?: (percent: number, message: string) => Promise<void> } = {},
  ): Promise<AccountSyncResult[]> {
    const ids = await this.accounts.resolveAccountIds(ownerId, accountIds);
    const all = (await this.accounts.list(ownerId)).accounts.filter((a) => ids.includes(a.userId));
    const results: AccountSyncResult[] = [];
    for (const [index, account] of all.entries()) {
      await options.progress?.((index / Math.max(1, all.length)) * 100, `Syncing ${account.email}`);
      const result: AccountSyncResult = {
        account_id: account.userId,
        email: account.email,
        ok: true,
        message: '',
        messages: 0,
        invoices: 0,
      };
      try {
        const counted = await this.syncAccount(ownerId, account.userId, account.provider, options.signal);
        if (counted === null) {
          result.message = 'Imported mail: nothing to sync (import again to add messages)';
        } else {
          Object.assign(result, counted);
          result.message = `${counted.messages} new message(s), ${counted.invoices} new invoice(s)`;
          await this.accounts.markSynced(ownerId, account.userId);
        }
      } catch (error) {
        options.signal?.throwIfAborted();
        result.ok = false;
        result.message = error instanceof Error ? error.message : String(error);
        if (error instanceof MailAuthError) await this.accounts.markNeedsReauth(ownerId, account.userId, error.message);
      }
      results.push(result);
    }
    return results;
  }

  private async syncAccount(ownerId: string, accountId: string, provider: string, signal?: AbortSignal) {
    if (provider === 'imap') {
      const { source, cursor } = await this.imap.source(ownerId, accountId);
      // The cursor after each message handed to the store, until a commit covers it: then that one is saved.
      const cursors: ImapCursor[] = [];
      let committed = 0;
      async function* stream(): AsyncGenerator<RawMail> {
        for await (const { raw, cursor: next } of source.messagesSince(cursor, signal)) {
          cursors.push(next);
          yield raw;
        }
      }
      const done = await this.ingest.ingest(ownerId, accountId, stream(), {
        ...(signal ? { signal } : {}),
        onCommitted: async (seen) => {
          if (seen <= committed) return;
          const stored = cursors.splice(0, seen - committed);
          committed = seen;
          await this.imap.saveCursor(ownerId, accountId, stored[stored.length - 1]!);
        },
      });
      return { messages: done.added, invoices: done.invoices };
    }
    if (provider === 'google') {
      const source = new GmailMailSource({
        accessToken: (force) =>
          force
            ? this.providerAccess.refreshedAccessToken(ownerId, accountId)
            : this.providerAccess.accessToken(ownerId, accountId),
        ...(this.gmailRootUrl ? { rootUrl: this.gmailRootUrl } : {}),
      });
      const cursor = (await this.cursor(ownerId, accountId)) as GmailCursor | null;
      async function* stream(): AsyncGenerator<RawMail> {
        for await (const { raw } of source.messagesSince(cursor, signal)) yield raw;
      }
      const done = await this.ingest.ingest(ownerId, accountId, stream(), signal ? { signal } : {});
      if (source.completedCursor) await this.saveCursor(ownerId, accountId, source.completedCursor);
      return { messages: done.added, invoices: done.invoices };
    }
    if (provider === 'mbox') return null;
    throw new AppError(`No mail source for ${provider} accounts`, { code: 'unsupported_source', status: 422 });
  }

  private async cursor(ownerId: string, accountId: string): Promise<unknown> {
    const [row] = await this.db
      .select({ cursor: mailSyncState.cursor })
      .from(mailSyncState)
      .where(and(eq(mailSyncState.ownerId, ownerId), eq(mailSyncState.accountId, accountId)));
    return row?.cursor ?? null;
  }

  private async saveCursor(ownerId: string, accountId: string, cursor: unknown): Promise<void> {
    await this.db
      .insert(mailSyncState)
      .values({ ownerId, accountId, cursor })
      .onConflictDoUpdate({ target: mailSyncState.accountId, set: { cursor, updatedAt: sql`now()` } });
  }
}
