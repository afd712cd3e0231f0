import type { ForwardingSenderKind, SmtpTlsMode } from '@invoicebox/core';
import nodemailer from 'nodemailer';
import { type MailSender, type OutgoingMail, SendError, type SentFolder } from './sender';

export interface SmtpRelaySettings {
  host: string;
  port: number;
  tls: SmtpTlsMode;
  user?: string | undefined;
  password?: string | undefined;
  from: string;
  /** The host name for TLS (SNI, certificate) when `host` is the checked address it resolved to. */
  servername?: string | undefined;
  /** Seconds to wait for the server to greet or answer. */
  timeoutSeconds?: number;
}

/** SMTP reply codes and nodemailer error codes that mean "the message may already have been accepted". */
const AMBIGUOUS_CODES = new Set(['ETIMEDOUT', 'ECONNRESET', 'EPIPE', 'ESOCKET']);

/**
 * Sends over an SMTP relay with nodemailer (one pooled connection per sender). 5xx replies are permanent, 4xx
 * temporary; a connection that fails before DATA is temporary, after it (time-out, reset) unknown. With a `sentFolder`
 * (an IMAP mailbox the relay files sent mail in) it can tell whether a message went out.
 */
export class SmtpSender implements MailSender {
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(
    readonly kind: ForwardingSenderKind,
    private readonly settings: SmtpRelaySettings,
    private readonly sentFolder?: SentFolder,
  ) {
    const timeout = (settings.timeoutSeconds ?? 30) * 1000;
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.tls === 'tls',
      requireTLS: settings.tls === 'starttls',
      ignoreTLS: settings.tls === 'none',
      ...(settings.servername ? { tls: { servername: settings.servername } } : {}),
      ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
      pool: true,
      maxConnections: 1,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout * 2,
    });
  }

  get from(): string {
    return this.settings.from;
  }

  /** Connects and signs in: the check before a relay is saved. */
  async verify(): Promise<void> {
    await this.transport.verify();
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      const info = await this.transport.sendMail({ envelope: { from: mail.from, to: [mail.to] }, raw: mail.raw });
      if (info.rejected.length > 0) throw new SendError(`The relay refused ${mail.to}`, 'permanent');
    } catch (error) {
      throw classifySmtpError(error);
    }
  }

  async findSent(messageId: string): Promise<boolean | undefined> {
    return this.sentFolder ? this.sentFolder.contains(messageId) : undefined;
  }

  async close(): Promise<void> {
    this.transport.close();
    await this.sentFolder?.close();
  }
}

export function classifySmtpError(error: unknown): SendError {
  if (error instanceof SendError) return error;
  const e = error as { responseCode?: number; code?: string; command?: string; response?: string; message?: string };
  const reason = (e.response ?? e.message ?? String(error)).slice(0, 500);
  if (typeof e.responseCode === 'number') {
    if (e.responseCode >= 500)
      return new SendError(`The mail server refused the message: ${reason}`, 'permanent', { cause: error });
    if (e.responseCode >= 400)
      return new SendError(`The mail server deferred the message: ${reason}`, 'temporary', { cause: error });
  }
  if (e.code === 'EAUTH')
    return new SendError(`The mail server refused the sign-in: ${reason}`, 'temporary', { cause: error });
  // Dropped during or after DATA: the relay may have taken it.
  if (e.code && AMBIGUOUS_CODES.has(e.code) && /DATA|\.$/i.test(e.command ?? 'DATA')) {
    return new SendError(`The connection to the mail server was lost while sending: ${reason}`, 'unknown', {
      cause: error,
    });
  }
  return new SendError(`Could not reach the mail server: ${reason}`, 'temporary', { cause: error });
}
