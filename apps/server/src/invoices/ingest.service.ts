import { createHash } from 'node:crypto';
import {
  decimalToMinorUnits,
  formatCurrency,
  formatMinorUnits,
  invoiceCategory,
  type Preferences,
} from '@invoicebox/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { boundedText, storableText } from '../db/storable-text';
import type { PartyHints } from '../extraction/extraction.types';
import { EXTRACTION_RULES_VERSION } from '../extraction/version';
import { DocumentUnreadableError, type FieldExtractor, nullFieldExtractor } from '../mail/field-extractor';
import type { MailMessage, RawMail } from '../mail/mail-message';
import { parseMailMessage } from '../mail/mail-message.parser';
import {
  bodyDocument,
  documentAttachments,
  isInvoiceMessage,
  type ScanInvoice,
  scanMessage,
} from '../mail/scan.service';
import type { BlobStore } from './blob.store';
import { invoiceAccounts, invoices, mailMessages, messageAttachments } from './invoices.tables';
import { ownPartyHints } from './party-hints';

/** The text the list's search runs over (spec §5), lower-cased once here so one trigram index serves it. */
export function searchTextOf(parts: Array<string | null | undefined>): string {
  return parts
    .filter((p): p is string => Boolean(p))
    .join('\n')
    .toLowerCase();
}

export interface IngestProgress {
  seen: number;
  added: number;
  invoices: number;
  unreadable: number;
}

export interface IngestOptions {
  signal?: AbortSignal;
  /** Told after each message is read (`added` and `invoices` count what is committed so far). */
  onProgress?: (p: IngestProgress) => void;
  /**
   * Told after each commit: the first `seen` messages of the stream are now in the store (or were unreadable), so a
   * source may save its cursor up to there.
   */
  onCommitted?: (seen: number) => Promise<void>;
  attachmentsRequired?: boolean;
  /** Messages stored per transaction (default 100). */
  batchSize?: number;
  /** The person's own names and addresses for the field rules (default: read from the owner's profile). */
  hints?: PartyHints;
}

/**
 * A file that is itself the document (an upload, `invoicebox add`, the inbox folder), not a mail: it is stored as a
 * message of the person's Uploads source with the file as its one attachment, through the same batches, dedupe,
 * blob store and extraction as mail.
 */
export interface RawDocument {
  ok: true;
  origin: string;
  source: Buffer;
  document: { filename: string; contentType: string; receivedAt: Date };
}

/** What the ingest takes: mail as a source yields it, or a document a person added. */
export type IngestItem = RawMail | RawDocument;

/** The message record of an added document (no sender, the file name as subject, received when it was added). */
export function documentMessage(raw: RawDocument): MailMessage {
  return {
    origin: raw.origin,
    messageId: null,
    from: null,
    subject: storableText(raw.document.filename),
    date: raw.document.receivedAt.toISOString(),
    textSnippet: '',
    attachments: [
      {
        filename: storableText(raw.document.filename),
        contentType: raw.document.contentType,
        size: raw.source.length,
        sha256: createHash('sha256').update(raw.source).digest('hex'),
        content: raw.source,
      },
    ],
    skippedParts: [],
    document: true,
  };
}

/** Messages stored per transaction: one commit (one WAL flush) and a few statements for many messages. */
const BATCH_MESSAGES = 100;
/** Raw bytes held before a commit, whatever the count: bounded memory with large messages. */
const BATCH_BYTES = 16 * 1024 * 1024;
/** A slow source (one message now and then) still commits this often. */
const BATCH_WAIT_MS = 2000;

/** Messages parsed and extracted at once within a batch. */
const PREPARE_CONCURRENCY = 4;

/** One message of a batch, before it is parsed (a document's record is made, not parsed). */
interface BatchItem {
  origin: string;
  source: Buffer;
  document?: RawDocument['document'];
}

/** A new message read and extracted, ready to be written. */
interface Prepared {
  message: typeof mailMessages.$inferInsert;
  attachments: Array<Omit<typeof messageAttachments.$inferInsert, 'messageRowId'>>;
  invoice: Omit<typeof invoices.$inferInsert, 'messageRowId'> | null;
}

/**
 * Takes messages from any mail source (mbox/eml import, IMAP, Gmail) into the store for one owner and account.
 * Safe to run again from the start after a crash at any point: a message already recorded for the account is
 * skipped; new ones are recorded with their invoices in batches, each ONE transaction (files first, idempotent by
 * hash), and an invoice already known by its document hash (another account, another sync, another message of the
 * same batch) is linked, not created twice. A run stopped by its signal drops the batch it has not committed yet.
 */
export class IngestService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly extractor: FieldExtractor,
    /** The person's preferences, when the caller does not decide (syncs and imports do not). */
    private readonly preferences?: (ownerId: string) => Promise<Preferences>,
  ) {}

  private extracting: Promise<unknown> = Promise.resolve();
  /**
   * The extractor, one file at a time even while several messages are prepared: a file's extraction time limit then
   * starts when its extraction does, never while it waits behind a slow one.
   */
  private readonly oneAtATime: FieldExtractor = {
    extract: (input) => {
      const run = this.extracting.then(() => this.extractor.extract(input));
      this.extracting = run.catch(() => undefined);
      return run;
    },
  };

  async ingest(
    ownerId: string,
    accountId: string,
    messages: AsyncIterable<IngestItem>,
    options: IngestOptions = {},
  ): Promise<IngestProgress> {
    const progress: IngestProgress = { seen: 0, added: 0, invoices: 0, unreadable: 0 };
    if (options.attachmentsRequired === undefined && this.preferences) {
      // The person's choice in Settings (spec §5 default: a document must be attached).
      options = { ...options, attachmentsRequired: (await this.preferences(ownerId)).attachments_required };
    }
    if (!options.hints) options = { ...options, hints: await ownPartyHints(this.db, ownerId) };
    const limit = Math.max(1, options.batchSize ?? BATCH_MESSAGES);
    let batch: BatchItem[] = [];
    let bytes = 0;
    let since = 0;
    // Documents whose fields this run has read (or found on an invoice already): each is extracted once.
    const extracted = new Set<string>();
    // The previous batch's transaction: it runs while the next batch is parsed and extracted, and batches commit in
    // stream order, so `onCommitted` always covers a prefix of the stream.
    let writing: Promise<void> = Promise.resolve();
    let covered = 0;
    const commit = async () => {
      const taken = batch;
      const seen = progress.seen;
      if (seen === covered) return;
      covered = seen;
      batch = [];
      bytes = 0;
      const ready = await this.prepareBatch(ownerId, accountId, taken, options, extracted);
      progress.unreadable += ready.unreadable;
      await writing;
      options.signal?.throwIfAborted();
      writing = this.writeBatch(ownerId, accountId, ready.prepared).then(async (stored) => {
        progress.added += stored.added;
        progress.invoices += stored.invoices;
        await options.onCommitted?.(seen);
      });
      // Handled at the next `await writing`; this only keeps a failure from being reported as unhandled meanwhile.
      writing.catch(() => undefined);
    };
    const iterator = messages[Symbol.asyncIterator]();
    let sourceError: unknown;
    try {
      for (;;) {
        let next: IteratorResult<IngestItem>;
        try {
          next = await iterator.next();
        } catch (error) {
          sourceError = error;
          break;
        }
        if (next.done) break;
        const raw = next.value;
        options.signal?.throwIfAborted();
        progress.seen += 1;
        if (raw.ok) {
          if (batch.length === 0) since = Date.now();
          // The key is looked up and stored as it will be stored (a source may name messages with any text).
          batch.push({
            origin: storableText(raw.origin),
            source: raw.source,
            ...('document' in raw ? { document: raw.document } : {}),
          });
          bytes += raw.source.length;
        } else {
          progress.unreadable += 1;
        }
        options.onProgress?.(progress);
        if (
          batch.length >= limit ||
          bytes >= BATCH_BYTES ||
          (batch.length > 0 && Date.now() - since >= BATCH_WAIT_MS)
        ) {
          await commit();
        }
      }
      // Also when the source failed part-way (a dropped connection): what it handed over is stored.
      if (!options.signal?.aborted) await commit();
      await writing;
    } catch (error) {
      await iterator.return?.().catch(() => undefined);
      // Never return while a transaction is still running on the caller's database.
      await writing.catch(() => undefined);
      throw error;
    }
    if (sourceError !== undefined) throw sourceError;
    options.signal?.throwIfAborted();
    return progress;
  }

  /** Parses, files and extracts the batch's messages that the account does not have yet. */
  private async prepareBatch(
    ownerId: string,
    accountId: string,
    batch: BatchItem[],
    options: IngestOptions,
    extracted: Set<string>,
  ): Promise<{ prepared: Prepared[]; unreadable: number }> {
    if (batch.length === 0) return { prepared: [], unreadable: 0 };
    const known = new Set(
      (
        await this.db
          .select({ origin: mailMessages.origin })
          .from(mailMessages)
          .where(
            and(
              eq(mailMessages.accountId, accountId),
              inArray(mailMessages.origin, [...new Set(batch.map((b) => b.origin))]),
            ),
          )
      ).map((row) => row.origin),
    );
    const fresh = batch.filter((raw) => {
      if (known.has(raw.origin)) return false;
      known.add(raw.origin); // the same origin twice in one stream is one message
      return true;
    });
    // A few messages at a time: one's parsing and file writes overlap another's extraction (itself one at a time).
    const parsed = await mapConcurrently(fresh, PREPARE_CONCURRENCY, async (raw) => {
      options.signal?.throwIfAborted();
      // A document added by itself (upload, `invoicebox add`, the inbox folder) has no email to keep for forwarding.
      if (raw.document) {
        const message = documentMessage({ ok: true, origin: raw.origin, source: raw.source, document: raw.document });
        return { message, source: null };
      }
      const read = await parseMailMessage(raw.source, raw.origin);
      return read.ok ? { message: read.message, source: raw.source } : null;
    });
    const read = parsed.filter((m): m is { message: MailMessage; source: Buffer | null } => m !== null);
    const messages = read.map((r) => r.message);
    // Documents that already have this owner's invoice (another account, a copy sent again) keep that invoice's
    // fields: their extraction would be thrown away, so it is not run.
    const documents = [
      ...new Set(messages.map((m) => documentAttachments(m)[0]?.sha256).filter((d) => d !== undefined)),
    ];
    if (documents.length > 0) {
      const known = await this.db
        .select({ key: invoices.dedupeKey })
        .from(invoices)
        .where(and(eq(invoices.ownerId, ownerId), inArray(invoices.dedupeKey, documents)));
      for (const { key } of known) extracted.add(key);
    }
    const prepared = await mapConcurrently(read, PREPARE_CONCURRENCY, ({ message, source }) =>
      this.prepare(ownerId, accountId, message, source, options, extracted),
    );
    return { prepared, unreadable: fresh.length - messages.length };
  }

  /** Writes prepared messages, their attachments and invoices in one transaction. */
  private async writeBatch(
    ownerId: string,
    accountId: string,
    prepared: Prepared[],
  ): Promise<{ added: number; invoices: number }> {
    if (prepared.length === 0) return { added: 0, invoices: 0 };
    return this.db.transaction(async (tx) => {
      // Rows in key order, so that two runs writing the same keys take their locks in the same order.
      const ordered = [...prepared].sort((a, b) => (a.message.origin < b.message.origin ? -1 : 1));
      const rows = await tx
        .insert(mailMessages)
        .values(ordered.map((p) => p.message))
        .onConflictDoNothing()
        .returning({ id: mailMessages.id, origin: mailMessages.origin });
      // A message missing here was recorded meanwhile by a concurrent run: that run stores the rest of it.
      const rowOf = new Map(rows.map((r) => [r.origin, r.id]));
      const created = ordered.filter((p) => rowOf.has(p.message.origin));
      const attachments = created.flatMap((p) =>
        p.attachments.map((a) => ({ ...a, messageRowId: rowOf.get(p.message.origin)! })),
      );
      if (attachments.length > 0) await tx.insert(messageAttachments).values(attachments);
      // One row per document: the batch's first message with it (the one whose fields were read) creates the
      // invoice, later ones link to it.
      const byKey = new Map<string, typeof invoices.$inferInsert>();
      for (const p of prepared) {
        if (!rowOf.has(p.message.origin)) continue;
        if (p.invoice && !byKey.has(p.invoice.dedupeKey)) {
          byKey.set(p.invoice.dedupeKey, { ...p.invoice, messageRowId: rowOf.get(p.message.origin)! });
        }
      }
      if (byKey.size > 0) {
        const keys = [...byKey.keys()].sort();
        await tx
          .insert(invoices)
          .values(keys.map((key) => byKey.get(key)!))
          .onConflictDoUpdate({
            target: [invoices.ownerId, invoices.dedupeKey],
            set: { accountIds: sql`${invoices.accountIds} || ${sql`array[${accountId}::uuid]`}` },
            setWhere: sql`not (${accountId}::uuid = any(${invoices.accountIds}))`,
          });
        const ids = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.ownerId, ownerId), inArray(invoices.dedupeKey, keys)));
        await tx
          .insert(invoiceAccounts)
          .values(ids.map(({ id }) => ({ invoiceId: id, accountId })))
          .onConflictDoNothing();
      }
      return { added: created.length, invoices: created.filter((p) => p.invoice).length };
    });
  }

  /**
   * Files the attachments, applies the rules and extracts the fields of one new message: its rows, not yet written.
   * `extracted`: documents whose fields are read already (or being read, by an earlier message of this run).
   */
  private async prepare(
    ownerId: string,
    accountId: string,
    message: MailMessage,
    /** The email's raw bytes; null for a document added by itself. */
    source: Buffer | null,
    options: IngestOptions,
    extracted: Set<string>,
  ): Promise<Prepared> {
    // Claimed before the first await: messages start in stream order, so the first invoice email with a document
    // reads it (an email the rules refuse reads nothing and claims nothing).
    const candidate = isInvoiceMessage(message, options.attachmentsRequired ?? true);
    const document = candidate ? documentAttachments(message)[0]?.sha256 : undefined;
    const readFields = document === undefined || !extracted.has(document);
    if (document !== undefined) extracted.add(document);
    const files = new Map(message.attachments.map((a) => [a.sha256, a.content]));
    await Promise.all([...files].map(([sha256, content]) => this.blobs.put(sha256, content)));
    const extractionErrors: ExtractionErrorRecord[] = [];
    const found = await scanMessage(message, {
      extractor: readFields
        ? { extract: (input) => this.oneAtATime.extract({ ...input, ownerId }) }
        : nullFieldExtractor,
      attachmentsRequired: options.attachmentsRequired ?? true,
      ...(options.hints ? { hints: options.hints } : {}),
      // A failed extraction is recorded on the invoice and on the attachment, never fatal.
      onExtractionError: (_origin, filename, error, sha256) =>
        extractionErrors.push(extractionErrorRecord(filename, sha256, error)),
    });
    // An invoice email's raw bytes are kept (content-addressed, so a copy seen twice is one file): forwarding sends
    // the original, unchanged. Other mail is not kept.
    let rawSha256: string | null = null;
    if (found !== null && source !== null) {
      rawSha256 = createHash('sha256').update(source).digest('hex');
      await this.blobs.put(rawSha256, source);
    }
    const readErrors = new Map(extractionErrors.map((e) => [e.sha256, e.error]));
    const qualifying = new Set(documentAttachments(message).map((a) => a.sha256));
    // An invoice that exists only as the mail keeps its body as its document, stored like an attachment after the
    // message's own files (so its View, Download, drive filing and later readings work as for any file). It is no
    // attachment: has_attachments stays false, the §5 rules never saw it, and the dedupe key stays the message's.
    const body = found !== null && qualifying.size === 0 ? bodyDocument(message) : null;
    if (body) await this.blobs.put(body.sha256, body.content);
    return {
      message: {
        ownerId,
        accountId,
        origin: message.origin,
        messageId: message.messageId,
        senderName: message.from?.name ?? null,
        senderEmail: message.from?.address ?? null,
        subject: message.subject,
        sentAt: message.date ? new Date(message.date) : null,
        snippet: message.textSnippet.slice(0, 500),
        isCandidate: found !== null,
        rawSha256,
      },
      attachments: [
        ...message.attachments.map((a, position) => ({
          position,
          sha256: a.sha256,
          filename: a.filename,
          size: a.size,
          contentType: a.contentType,
          qualifies: qualifying.has(a.sha256),
          readError: readErrors.get(a.sha256) ?? null,
        })),
        ...(body
          ? [
              {
                position: message.attachments.length,
                sha256: body.sha256,
                filename: body.filename,
                size: body.size,
                contentType: body.contentType,
                qualifies: true,
                readError: readErrors.get(body.sha256) ?? null,
              },
            ]
          : []),
      ],
      invoice: found
        ? invoiceRow(ownerId, accountId, message, found, qualifying.size > 0, extractionErrors, body?.filename)
        : null,
    };
  }
}

function invoiceRow(
  ownerId: string,
  accountId: string,
  message: MailMessage,
  found: ScanInvoice,
  hasAttachments: boolean,
  extractionErrors: ExtractionErrorRecord[],
  /** The name of the kept body, when the mail body is the document. */
  bodyName?: string,
): Omit<typeof invoices.$inferInsert, 'messageRowId'> {
  const currency = found.currency ?? null;
  const amountMinor = found.amount !== null && currency ? decimalToMinorUnits(String(found.amount), currency) : null;
  return {
    ownerId,
    dedupeKey: found.attachments[0]?.sha256 ?? `message:${message.messageId ?? message.origin}`,
    vendor: found.vendor,
    email: found.email,
    amount:
      amountMinor !== null && currency
        ? formatMinorUnits(amountMinor, currency)
        : found.amount !== null
          ? formatCurrency(found.amount, currency ?? 'USD')
          : null,
    amountMinor,
    currency,
    invoiceDate: found.invoice_date ?? message.date?.slice(0, 10) ?? null,
    invoiceNumber: found.invoice_number,
    documentType: found.document_type,
    category: invoiceCategory([message.subject, ...found.attachments.map((a) => a.filename)]),
    details: message.subject,
    accountIds: [accountId],
    hasAttachments,
    searchText: searchTextOf([
      found.vendor,
      found.email,
      message.from?.name,
      message.subject,
      found.invoice_number,
      ...message.attachments.map((a) => a.filename),
      bodyName,
    ]),
    extraction: {
      version: EXTRACTION_RULES_VERSION,
      ...(extractionErrors.length > 0 ? { errors: extractionErrors } : {}),
      confidence: found.confidence ?? {},
      source_fields: {
        amount: found.amount,
        currency: found.currency,
        invoice_date: found.invoice_date,
        invoice_number: found.invoice_number,
        document_type: found.document_type,
      },
    },
  };
}

/** Why one file of an invoice could not be read, as stored in `invoices.extraction.errors`. */
export interface ExtractionErrorRecord {
  filename: string;
  sha256: string;
  /** Stable code when the reader gave one (`pdf_encrypted`, `document_out_of_memory`...). */
  code: string;
  error: string;
}

export function extractionErrorRecord(filename: string, sha256: string, error: unknown): ExtractionErrorRecord {
  return {
    filename: storableText(filename),
    sha256,
    code: error instanceof DocumentUnreadableError ? error.code : 'extraction_failed',
    error: boundedText(error instanceof Error ? error.message : String(error), 2000),
  };
}

/** `fn` over `items` with at most `limit` calls in flight; results in the items' order. The first failure stops it. */
async function mapConcurrently<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
