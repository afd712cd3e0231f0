import type { AccountsService } from '../accounts/accounts.service';
import type { IngestService } from '../invoices/ingest.service';
import { MailAuthError } from '../mail/imap.source';
import type { RawMail } from '../mail/mail-message';
import type { MailSourceFactory } from '../mail/mail-source';

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
    private readonly accounts: AccountsService,
    private readonly openSource: MailSourceFactory,
    private readonly ingest: IngestService,
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
        const counted = await this.syncAccount(ownerId, account, options.signal);
        if (counted === null) {
          result.message =
            account.provider === 'upload'
              ? 'Uploads: nothing to sync (add files to add documents)'
              : 'Imported mail: nothing to sync (import again to add messages)';
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

  /** Reads one account from its saved cursor into the store; null when the account has nothing to sync. */
  private async syncAccount(ownerId: string, account: { userId: string; provider: string }, signal?: AbortSignal) {
    const opened = await this.openSource(ownerId, account);
    if (!opened) return null;
    const { source, cursor, saveCursor } = opened;
    // The cursor after each message handed to the store, until a commit covers it: then the last one is saved.
    const cursors: unknown[] = [];
    let committed = 0;
    async function* stream(): AsyncGenerator<RawMail> {
      for await (const message of source.messagesSince(cursor, signal)) {
        cursors.push(message.cursor);
        yield message.raw;
      }
    }
    const done = await this.ingest.ingest(ownerId, account.userId, stream(), {
      ...(signal ? { signal } : {}),
      onCommitted: async (seen) => {
        if (seen <= committed) return;
        const stored = cursors.splice(0, seen - committed).filter((c) => c !== undefined);
        committed = seen;
        if (stored.length > 0) await saveCursor(stored[stored.length - 1]);
      },
    });
    if (source.completedCursor !== undefined) await saveCursor(source.completedCursor);
    return { messages: done.added, invoices: done.invoices };
  }
}
