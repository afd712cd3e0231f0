import { and, eq, sql } from 'drizzle-orm';
import { mailSyncState } from '../accounts/accounts.tables';
import type { ImapAccountsService } from '../accounts/imap-accounts.service';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { type GmailCursor, GmailMailSource } from '../mail/gmail.source';
import type { ImapCursor } from '../mail/imap.source';
import type { MailSourceFactory, OpenedMailSource } from '../mail/mail-source';
import type { ProviderAccessService } from '../oidc/provider-access.service';

/**
 * The real mail sources by account kind: IMAP with the account's stored (encrypted) password and its own cursor
 * column, Gmail with live access tokens of the account's grant and a cursor in mail_sync_state. Imported mail
 * (`mbox` accounts) has nothing to sync.
 */
export function createMailSourceFactory(
  db: Db,
  imap: ImapAccountsService,
  providerAccess: ProviderAccessService,
  gmailRootUrl?: string,
): MailSourceFactory {
  const openers: Record<string, ((ownerId: string, accountId: string) => Promise<OpenedMailSource>) | null> = {
    imap: async (ownerId, accountId) => {
      const { source, cursor } = await imap.source(ownerId, accountId);
      return {
        source: source as OpenedMailSource['source'],
        cursor,
        saveCursor: (next) => imap.saveCursor(ownerId, accountId, next as ImapCursor),
      };
    },
    google: async (ownerId, accountId) => {
      const source = new GmailMailSource({
        accessToken: (force) =>
          force
            ? providerAccess.refreshedAccessToken(ownerId, accountId)
            : providerAccess.accessToken(ownerId, accountId),
        ...(gmailRootUrl ? { rootUrl: gmailRootUrl } : {}),
      });
      const [row] = await db
        .select({ cursor: mailSyncState.cursor })
        .from(mailSyncState)
        .where(and(eq(mailSyncState.ownerId, ownerId), eq(mailSyncState.accountId, accountId)));
      return {
        // Gmail's history id advances per pass only: its messages carry no cursor of their own.
        source: {
          messagesSince: async function* (cursor, signal) {
            for await (const { raw } of source.messagesSince(cursor as GmailCursor | null, signal)) yield { raw };
          },
          get completedCursor() {
            return source.completedCursor;
          },
        },
        cursor: row?.cursor ?? null,
        saveCursor: async (cursor) => {
          await db
            .insert(mailSyncState)
            .values({ ownerId, accountId, cursor })
            .onConflictDoUpdate({ target: mailSyncState.accountId, set: { cursor, updatedAt: sql`now()` } });
        },
      };
    },
    mbox: null,
    upload: null,
  };
  return async (ownerId, account) => {
    if (!(account.provider in openers)) {
      throw new AppError(`No mail source for ${account.provider} accounts`, {
        code: 'unsupported_source',
        status: 422,
      });
    }
    const open = openers[account.provider];
    return open ? open(ownerId, account.userId) : null;
  };
}
