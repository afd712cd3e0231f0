import type { RawMail } from './mail-message';

/**
 * A mailbox that can be read incrementally (IMAP, Gmail API). The sync keeps no provider knowledge: it reads
 * `messagesSince`, hands the messages to the store, and saves the cursors the source gives it once the messages before
 * them are committed.
 */
export interface MailSource {
  /**
   * Every message after `cursor`, in order. A message may carry the cursor that covers it (saved once it is stored);
   * a source that can only advance at the end of a pass leaves it out and sets `completedCursor` instead.
   */
  messagesSince(cursor: unknown, signal?: AbortSignal): AsyncIterable<{ raw: RawMail; cursor?: unknown }>;
  /** After a pass consumed to the end: the cursor to save, when the source advances only per pass. */
  readonly completedCursor?: unknown;
}

/** One account's source with where the last sync stopped and how to remember a new position. */
export interface OpenedMailSource {
  source: MailSource;
  cursor: unknown;
  saveCursor(cursor: unknown): Promise<void>;
}

/** Opens the source of one of the owner's accounts; null for accounts with nothing to sync (imported mail). */
export type MailSourceFactory = (
  ownerId: string,
  account: { userId: string; provider: string },
) => Promise<OpenedMailSource | null>;
