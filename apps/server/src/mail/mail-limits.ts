/** Size limits of mail reading. Past them a message or part is reported, never loaded. */

/** The largest raw message a reader hands to the parser (Gmail's own limit is 25 MB of attachments, ~35 MB encoded). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** The largest decoded attachment kept in memory; larger ones are recorded as skipped. */
export const MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024;

/** The largest header block of one MIME part. */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** Characters of body text kept as the snippet. */
export const SNIPPET_LENGTH = 200;

export interface MailLimits {
  maxMessageBytes: number;
  maxAttachmentBytes: number;
  maxHeaderBytes: number;
}

export const DEFAULT_MAIL_LIMITS: MailLimits = Object.freeze({
  maxMessageBytes: MAX_MESSAGE_BYTES,
  maxAttachmentBytes: MAX_ATTACHMENT_BYTES,
  maxHeaderBytes: MAX_HEADER_BYTES,
});
