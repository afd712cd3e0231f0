/** The domain record of one parsed mail message, and the results the mail readers yield. */

export interface MailAddress {
  name: string | null;
  address: string | null;
}

/** One MIME leaf that has a filename, decoded. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Decoded size in bytes. */
  size: number;
  /** Lowercase hex SHA-256 of the decoded content: attachments are stored by content hash. */
  sha256: string;
  content: Buffer;
}

export type SkippedPartReason = 'too_large' | 'malformed';

/** A part that was not kept, with why. Skipping a part never fails the message. */
export interface SkippedPart {
  filename: string | null;
  contentType: string | null;
  /** Decoded bytes seen before the part was dropped. */
  size: number;
  reason: SkippedPartReason;
  detail: string;
}

export interface MailMessage {
  /** Where the message came from: a file path, `path#n` for the n-th message (1-based) of an mbox. */
  origin: string;
  /** The Message-ID with its angle brackets, or null when the message has none. */
  messageId: string | null;
  from: MailAddress | null;
  /** The decoded subject, or null when the message has none. */
  subject: string | null;
  /** The Date header as an ISO-8601 instant, or null when it is missing or unreadable. */
  date: string | null;
  /** The start of the plain text body (or of the HTML made plain), whitespace collapsed. */
  textSnippet: string;
  /**
   * The body as the message carries it, for invoices that exist only as a mail (shops, SaaS, rides): its HTML when it
   * has one (the layout the field rules read), else its plain text; at most MAX_BODY_CHARS characters. Absent on
   * documents a person added.
   */
  body?: { html: string | null; text: string };
  attachments: MailAttachment[];
  skippedParts: SkippedPart[];
  /**
   * Set when this is no mail but one file a person added as a document (an upload, the inbox folder): its one
   * attachment is the document and it is an invoice, whatever its name (the §5 rules judge mail, not a choice).
   */
  document?: true;
}

export type MailReadErrorCode =
  | 'empty_message'
  | 'not_a_message'
  | 'message_too_large'
  | 'header_too_large'
  | 'parse_failed'
  | 'unreadable_file';

export interface MailReadError {
  origin: string;
  code: MailReadErrorCode;
  message: string;
}

/** What readers yield: a parsed message or, for a message that could not be read at all, an error as data. */
export type MailReadResult = { ok: true; message: MailMessage } | { ok: false; error: MailReadError };

/** A message's raw bytes as a reader found them, before parsing; or why it could not be taken. */
export type RawMail = { ok: true; origin: string; source: Buffer } | { ok: false; error: MailReadError };

/** The longest body kept for field extraction: invoice mails are far shorter; a newsletter's tail is not needed. */
export const MAX_BODY_CHARS = 200_000;
