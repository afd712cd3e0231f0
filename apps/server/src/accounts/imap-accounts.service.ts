import type { ConnectedAccount, ImapConnectBody } from '@invoicebox/core';
import { and, eq, sql } from 'drizzle-orm';
import type { SecretBox } from '../auth/secret-box';
import type { Db } from '../db/client';
import { NotFoundError, UnprocessableError } from '../errors';
import { type ImapCursor, ImapMailSource } from '../mail/imap.source';
import { ConnectionFailedError, type OutboundPolicy } from '../net/outbound';
import type { AccountsService } from './accounts.service';
import { imapSettings } from './accounts.tables';

const PASSWORD_CONTEXT = 'imap_settings.password';
const IMAP_UNREACHABLE =
  'Could not connect and sign in to the mail server: check the server, port, security, user name and password. ' +
  'Servers on this machine or a private network can be used only where the operator allows them.';

/**
 * IMAP accounts: connecting one (the server is tried first, so a typo is caught at once), and handing the mail sync a
 * ready source with its saved cursor. The password is stored encrypted and never returned. The host is the person's:
 * every connection to it, now and in later syncs, goes only to addresses `outbound` allows.
 */
export class ImapAccountsService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly accounts: AccountsService,
    private readonly outbound: OutboundPolicy = { allowPrivate: false },
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
      outbound: this.outbound,
    };
    let mailboxes: string[];
    try {
      ({ mailboxes } = await this.createSource(settings).check());
    } catch (error) {
      // One answer (422: the settings are wrong, the session is fine) for a refused port, a time-out, a server that
      // does not speak IMAP, a refused sign-in and a target that is not allowed: told apart, they would make this a
      // port scanner. The log has the reason.
      throw new ConnectionFailedError(IMAP_UNREACHABLE, error);
    }
    // Only after a successful sign-in: this tells nothing to someone who does not have the password.
    const missing = body.mailboxes.filter((m) => !mailboxes.includes(m));
    if (missing.length > 0) throw new UnprocessableError(`The mail server has no folder named ${missing.join(', ')}`);
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
        outbound: this.outbound,
      }),
      cursor: (row.syncCursor as ImapCursor | null) ?? null,
    };
  }

  /**
   * The IMAP sign-in of the person's account with this address, for searching its Sent folder (forwarding sent
   * through a relay as that address); undefined when no IMAP account has it.
   */
  async settingsByEmail(ownerId: string, email: string) {
    const { accounts } = await this.accounts.list(ownerId);
    const account = accounts.find((a) => a.provider === 'imap' && a.email.toLowerCase() === email.toLowerCase());
    if (!account) return undefined;
    const [row] = await this.db
      .select()
      .from(imapSettings)
      .where(and(eq(imapSettings.ownerId, ownerId), eq(imapSettings.accountId, account.userId)));
    if (!row) return undefined;
    return {
      host: row.host,
      port: row.port,
      secure: row.secure,
      user: row.username,
      password: this.box.decrypt(row.passwordEncrypted, PASSWORD_CONTEXT),
      outbound: this.outbound,
    };
  }

  async saveCursor(ownerId: string, accountId: string, cursor: ImapCursor): Promise<void> {
    await this.db
      .update(imapSettings)
      .set({ syncCursor: cursor, updatedAt: sql`now()` })
      .where(and(eq(imapSettings.ownerId, ownerId), eq(imapSettings.accountId, accountId)));
  }
}
