import type { ForwardingSenderKind } from '@invoicebox/core';

/** One outgoing mail: the built message and its SMTP envelope. */
export interface OutgoingMail {
  from: string;
  to: string;
  messageId: string;
  raw: Buffer;
}

/**
 * How a send failed:
 * - `permanent`: the provider refused it for good (5xx, an invalid recipient): the row is failed with the reason;
 * - `temporary`: refused for now (4xx, quota, no connection before the message went out): retried with backoff;
 * - `unknown`: the connection dropped or timed out after the message may have been handed over: retried, and the
 *   Sent folder is searched first.
 */
export type SendFailureKind = 'permanent' | 'temporary' | 'unknown';

export class SendError extends Error {
  constructor(
    message: string,
    readonly kind: SendFailureKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SendError';
  }
}

/**
 * One way of sending mail (one adapter per provider kind: Gmail API, SMTP). `findSent` answers whether a message with
 * this Message-ID is in the sender's Sent folder: true or false when it could look, undefined when this sender has no
 * such look-up (a plain SMTP relay).
 */
export interface MailSender {
  readonly kind: ForwardingSenderKind;
  /** The From address mails go out as. */
  readonly from: string;
  send(mail: OutgoingMail): Promise<void>;
  findSent(messageId: string): Promise<boolean | undefined>;
  close(): Promise<void>;
}

/** A place where a sender's sent mail can be searched by Message-ID (an IMAP Sent folder). */
export interface SentFolder {
  contains(messageId: string): Promise<boolean>;
  close(): Promise<void>;
}
