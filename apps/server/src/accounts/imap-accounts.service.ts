import type { ConnectedAccount, ImapConnectBody } from '@invoicebox/core';
import { and, eq, sql } from 'drizzle-orm';
import type { SecretBox } from '../auth/secret-box';
import type { Db } from '../db/client';
import { AppError, NotFoundError, UnprocessableError } from '../errors';
import { type ImapCursor, ImapMailSource } from '../mail/imap.source';
import type { AccountsService } from './accounts.service';
import { imapSettings } from './accounts.tables';

const PASSWORD_CONTEXT = 'imap_settings.password';

/**
 * IMAP accounts: connecting one (the server is tried first, so a typo is caught at once), and handing the mail sync a
 * ready source with its saved cursor. The password is stored encrypted and never returned.
 */
export class ImapAccountsService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly accounts: AccountsService,
    private readonly createSource: (settings: ConstructorParameters<typeof ImapMailSource>[0]) => ImapMailSource = (
      settings,
    ) => new ImapMailSource(settings),
  ) {}

  async connect(ownerId: string, body: ImapConnectBody): Promise<ConnectedAccount> {
    const settings = {
      host: body.host,
      port: body.port,
      secure: body.secure,
      user: body.username ?? body.email,
      password: body.password,
      mailboxes: body.mailboxes,
      timeoutSeconds: 15,
    };
    try {
      const { mailboxes } = await this.createSource(settings).check();
      const missing = body.mailboxes.filter((m) => !mailboxes.includes(m));
      if (missing.length > 0) throw new UnprocessableError(`The mail server has no folder named ${missing.join(', ')}`);
    } catch (error) {
      // Answered as 422, not 401/503: the person's settings are wrong or unreachable, their session is fine.
      if (error instanceof AppError && error.status !== 422) throw new UnprocessableError(error.message);
      throw error;
    }
    const account = await this.accounts.connect(ownerId, {
      provider: 'imap',
      email: body.email,
      displayName: body.display_name ?? null,
    });
    await this.db
      .insert(imapSettings)
      .values({
        accountId: account.userId,
        ownerId,
        host: settings.host,
        port: settings.port,
        secure: settings.secure,
        username: settings.user,
        passwordEncrypted: this.box.encrypt(body.password, PASSWORD_CONTEXT),
        mailboxes: body.mailboxes,
      })
      .onConflictDoUpdate({
        target: imapSettings.accountId,
        set: {
          host: settings.host,
          port: settings.port,
          secure: settings.secure,
          username: settings.user,
          passwordEncrypted: this.box.encrypt(body.password, PASSWORD_CONTEXT),
          mailboxes: body.mailboxes,
          updatedAt: sql`now()`,
        },
      });
    await this.accounts.clearNeedsReauth(ownerId, account.userId);
    return { ...account, needsReauth: false, reauthReason: null };
  }

  /** The source and saved cursor of one of the owner's IMAP accounts, for the mail sync. */
  async source(ownerId: string, accountId: string): Promise<{ source: ImapMailSource; cursor: ImapCursor | null }> {
    const [row] = await this.db
      .select()
      .from(imapSettings)
      .where(and(eq(imapSettings.ownerId, ownerId), eq(imapSettings.accountId, accountId)));
    if (!row) throw new NotFoundError('No IMAP settings for this account');
    return {
      source: this.createSource({
        host: row.host,
        port: row.port,
        secure: row.secure,
        user: row.username,
        password: this.box.decrypt(row.passwordEncrypted, PASSWORD_CONTEXT),
        mailboxes: row.mailboxes,
      }),
      cursor: (row.syncCursor as ImapCursor | null) ?? null,
    };
  }

  async saveCursor(ownerId: string, accountId: string, cursor: ImapCursor): Promise<void> {
    await this.db
      .update(imapSettings)
      .set({ syncCursor: cursor, updatedAt: sql`now()` })
      .where(and(eq(imapSettings.ownerId, ownerId), eq(imapSettings.accountId, accountId)));
  }
}
