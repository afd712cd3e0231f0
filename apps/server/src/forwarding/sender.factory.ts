import { FORWARDING_MESSAGES, type ForwardingSender } from '@invoicebox/core';
import type { AccountsService } from '../accounts/accounts.service';
import type { ImapAccountsService } from '../accounts/imap-accounts.service';
import type { SmtpConfig } from '../config';
import type { ProviderAccessService } from '../oidc/provider-access.service';
import { GmailSender } from './gmail.sender';
import { ImapSentFolder } from './imap-sent.folder';
import type { MailSender } from './sender';
import { SmtpSender } from './smtp.sender';
import type { SmtpRelayService } from './smtp-relay.service';

/** The sender a person's forwards go out with, and the address replies should reach. */
export interface ResolvedSender {
  sender: MailSender;
  replyTo: string | null;
}

export interface SenderFactory {
  /** What the screen says about the sender (no connection is made). */
  describe(ownerId: string): Promise<ForwardingSender>;
  /** A ready sender; undefined when none is configured. Close it after use. */
  open(ownerId: string): Promise<ResolvedSender | undefined>;
}

/**
 * Chooses the sender: a connected Google account (the primary one if it is Google) sends with the Gmail API; else the
 * person's own SMTP relay from Settings; else this install's SMTP relay (SMTP_*). A Google account that needs a new
 * sign-in is skipped.
 */
export function createSenderFactory(deps: {
  accounts: AccountsService;
  providerAccess: ProviderAccessService;
  smtp: SmtpConfig | undefined;
  googleApiRootUrl?: string | undefined;
  /** People's own relays (Settings); checked after Google, before this install's relay. */
  relays?: SmtpRelayService | undefined;
  /** For the Sent-folder look-up of a person's relay: their IMAP account with the From address. */
  imapAccounts?: Pick<ImapAccountsService, 'settingsByEmail'> | undefined;
}): SenderFactory {
  const pick = async (ownerId: string) => {
    const { accounts } = await deps.accounts.list(ownerId);
    const google = accounts
      .filter((a) => a.provider === 'google' && !a.needsReauth)
      .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary))[0];
    const primary = accounts.find((a) => a.isPrimary) ?? accounts[0];
    return { google, primary };
  };
  return {
    async describe(ownerId) {
      const { google } = await pick(ownerId);
      if (google) return { configured: true, kind: 'gmail', from: google.email, reason: null };
      const own = await deps.relays?.get(ownerId);
      if (own) return { configured: true, kind: 'smtp', from: own.from, reason: null };
      if (deps.smtp) return { configured: true, kind: 'smtp_server', from: deps.smtp.from, reason: null };
      return { configured: false, kind: null, from: null, reason: FORWARDING_MESSAGES.noSender };
    },
    async open(ownerId) {
      const { google, primary } = await pick(ownerId);
      if (google) {
        return {
          sender: new GmailSender({
            from: google.email,
            rootUrl: deps.googleApiRootUrl,
            accessToken: (forceRefresh) =>
              forceRefresh
                ? deps.providerAccess.refreshedAccessToken(ownerId, google.userId)
                : deps.providerAccess.accessToken(ownerId, google.userId),
          }),
          replyTo: null,
        };
      }
      const own = await deps.relays?.settings(ownerId);
      if (own) {
        const imap = await deps.imapAccounts?.settingsByEmail(ownerId, own.from);
        return {
          sender: new SmtpSender('smtp', own, imap ? new ImapSentFolder(imap) : undefined),
          replyTo: null,
        };
      }
      if (deps.smtp) {
        const smtp = deps.smtp;
        return {
          sender: new SmtpSender(
            'smtp_server',
            {
              host: smtp.host,
              port: smtp.port,
              tls: smtp.tls,
              user: smtp.user,
              password: smtp.password,
              from: smtp.from,
            },
            smtp.sentImapUrl ? new ImapSentFolder(imapUrlSettings(smtp.sentImapUrl)) : undefined,
          ),
          replyTo: primary?.email.includes('@') ? primary.email : null,
        };
      }
      return undefined;
    },
  };
}

/** imap[s]://user:password@host:port/Mailbox → the Sent folder's settings (an operator's, so not checked). */
export function imapUrlSettings(url: string) {
  const u = new URL(url);
  const secure = u.protocol === 'imaps:';
  const mailbox = decodeURIComponent(u.pathname.replace(/^\//, ''));
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    ...(mailbox ? { mailbox } : {}),
  };
}
