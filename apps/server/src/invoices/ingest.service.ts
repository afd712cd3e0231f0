import {
  decimalToMinorUnits,
  formatCurrency,
  formatMinorUnits,
  invoiceCategory,
  qualifyingAttachments,
} from '@invoicebox/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { FieldExtractor } from '../mail/field-extractor';
import type { RawMail } from '../mail/mail-message';
import { parseMailMessage } from '../mail/mail-message.parser';
import { scanMessage } from '../mail/scan.service';
import type { BlobStore } from './blob.store';
import { invoiceAccounts, invoices, mailMessages, messageAttachments } from './invoices.tables';

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

/**
 * Takes messages from any mail source (mbox/eml import, IMAP, Gmail) into the store for one owner and account.
 * Safe to run again from the start after a crash at any point: a message already recorded for the account is
 * skipped; a new one is recorded with its invoice in ONE transaction (files first, idempotent by hash), and an
 * invoice already known by its document hash (another account, another sync) is linked, not created twice.
 */
export class IngestService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly extractor: FieldExtractor,
  ) {}

  async ingest(
    ownerId: string,
    accountId: string,
    messages: AsyncIterable<RawMail>,
    options: { signal?: AbortSignal; onProgress?: (p: IngestProgress) => void; attachmentsRequired?: boolean } = {},
  ): Promise<IngestProgress> {
    const progress: IngestProgress = { seen: 0, added: 0, invoices: 0, unreadable: 0 };
    for await (const raw of messages) {
      options.signal?.throwIfAborted();
      progress.seen += 1;
      if (!raw.ok) {
        progress.unreadable += 1;
        options.onProgress?.(progress);
        continue;
      }
      const [known] = await this.db
        .select({ id: mailMessages.id })
        .from(mailMessages)
        .where(and(eq(mailMessages.accountId, accountId), eq(mailMessages.origin, raw.origin)));
      if (known) {
        options.onProgress?.(progress);
        continue;
      }
      const parsed = await parseMailMessage(raw.source, raw.origin);
      if (!parsed.ok) {
        progress.unreadable += 1;
        options.onProgress?.(progress);
        continue;
      }
      const message = parsed.message;
      for (const attachment of message.attachments) await this.blobs.put(attachment.sha256, attachment.content);
      const extractionErrors: Array<{ filename: string; error: string }> = [];
      const found = await scanMessage(message, {
        extractor: this.extractor,
        attachmentsRequired: options.attachmentsRequired ?? true,
        // A failed extraction is recorded on the invoice, never fatal.
        onExtractionError: (_origin, filename, error) =>
          extractionErrors.push({ filename, error: error instanceof Error ? error.message : String(error) }),
      });
      const qualifying = new Set(qualifyingAttachments(message.attachments).map((a) => a.sha256));
      const created = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(mailMessages)
          .values({
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
          })
          .onConflictDoNothing()
          .returning({ id: mailMessages.id });
        if (!row) return null; // recorded meanwhile by a concurrent run
        if (message.attachments.length > 0) {
          await tx.insert(messageAttachments).values(
            message.attachments.map((a, position) => ({
              messageRowId: row.id,
              position,
              sha256: a.sha256,
              filename: a.filename,
              size: a.size,
              contentType: a.contentType,
              qualifies: qualifying.has(a.sha256),
            })),
          );
        }
        if (!found) return { invoice: false };
        const dedupeKey = found.attachments[0]?.sha256 ?? `message:${message.messageId ?? message.origin}`;
        const currency = found.currency ?? null;
        const amountMinor =
          found.amount !== null && currency ? decimalToMinorUnits(String(found.amount), currency) : null;
        await tx
          .insert(invoices)
          .values({
            ownerId,
            dedupeKey,
            messageRowId: row.id,
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
            category: invoiceCategory([message.subject, ...found.attachments.map((a) => a.filename)]),
            details: message.subject,
            accountIds: [accountId],
            hasAttachments: qualifying.size > 0,
            searchText: searchTextOf([
              found.vendor,
              found.email,
              message.from?.name,
              message.subject,
              found.invoice_number,
              ...message.attachments.map((a) => a.filename),
            ]),
            extraction: {
              ...(extractionErrors.length > 0 ? { errors: extractionErrors } : {}),
              source_fields: {
                amount: found.amount,
                currency: found.currency,
                invoice_date: found.invoice_date,
                invoice_number: found.invoice_number,
              },
            },
          })
          .onConflictDoUpdate({
            target: [invoices.ownerId, invoices.dedupeKey],
            set: { accountIds: sql`${invoices.accountIds} || ${sql`array[${accountId}::uuid]`}` },
            setWhere: sql`not (${accountId}::uuid = any(${invoices.accountIds}))`,
          });
        const [invoice] = await tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.ownerId, ownerId), eq(invoices.dedupeKey, dedupeKey)));
        await tx.insert(invoiceAccounts).values({ invoiceId: invoice!.id, accountId }).onConflictDoNothing();
        return { invoice: true };
      });
      if (created) {
        progress.added += 1;
        if (created.invoice) progress.invoices += 1;
      }
      options.onProgress?.(progress);
    }
    return progress;
  }
}
