/**
 * `scanPath`: reads every message under a path (read-only, no database), applies the document-candidate rules of
 * SPEC §5, and reads the invoice fields of each accepted email from its qualifying attachments.
 */
import { isInvoiceCandidate, qualifyingAttachments } from '@invoicebox/core';
import { toEmailDerivedRecord } from './email-record';
import { type ExtractedInvoiceFields, type FieldExtractor, nullFieldExtractor } from './field-extractor';
import type { MailLimits } from './mail-limits';
import type { MailAttachment, MailMessage, MailReadError } from './mail-message';
import { readMailPath } from './mail-path.reader';

export interface ScanInvoice {
  message_id: string | null;
  email: string | null;
  vendor: string | null;
  amount: number | null;
  currency: string | null;
  invoice_date: string | null;
  invoice_number: string | null;
  /** What the document is; null when no file or body said. */
  document_type: string | null;
  attachments: Array<{ filename: string; size: number; sha256: string }>;
}

export interface ScanResult {
  /** Every message found, including those that could not be read. */
  total_emails: number;
  invoices: ScanInvoice[];
}

export interface ScanOptions {
  extractor?: FieldExtractor;
  /** SPEC §5 flag: an email needs a qualifying attachment (default true). */
  attachmentsRequired?: boolean;
  limits?: Partial<MailLimits>;
  /** Told about each message that could not be read; the scan goes on. */
  onUnreadable?: (error: MailReadError) => void;
  /** Told when the extractor throws on an attachment; the scan goes on with the next one. */
  onExtractionError?: (origin: string, filename: string, error: unknown, sha256: string) => void;
}

/** Extraction tries PDFs first, then e-invoice XML, then images, then the rest, each group in mail order. */
function extractionPriority(attachment: MailAttachment): number {
  const name = attachment.filename.toLowerCase();
  const type = attachment.contentType.toLowerCase();
  if (type === 'application/pdf' || name.endsWith('.pdf')) return 0;
  if (type.endsWith('/xml') || type.endsWith('+xml') || name.endsWith('.xml')) return 1;
  if (type.startsWith('image/')) return 2;
  return 3;
}

const FIELDS = ['vendor', 'amount', 'currency', 'invoice_date', 'invoice_number'] as const;

/**
 * Tries the attachments in priority order until one yields an amount. Fields are merged: each takes the first
 * non-null value among the attachments tried, except the vendor, which is only trusted from the attachment that gave
 * the amount: a vendor guessed from a file with no amount (a photo, a logo read by OCR) is noise, and the email's
 * sender is the better answer then.
 */
export async function extractAttachmentFields(
  origin: string,
  attachments: MailAttachment[],
  options: Pick<ScanOptions, 'extractor' | 'onExtractionError'>,
): Promise<ExtractedInvoiceFields> {
  const extractor = options.extractor ?? nullFieldExtractor;
  const merged: ExtractedInvoiceFields = {
    vendor: null,
    amount: null,
    currency: null,
    invoice_date: null,
    invoice_number: null,
    document_type: null,
  };
  const ordered = attachments
    .map((attachment, index) => ({ attachment, index }))
    .sort((a, b) => extractionPriority(a.attachment) - extractionPriority(b.attachment) || a.index - b.index);
  for (const { attachment } of ordered) {
    let found: ExtractedInvoiceFields | null;
    try {
      found = await extractor.extract({
        bytes: attachment.content,
        filename: attachment.filename,
        mimeType: attachment.contentType,
        sha256: attachment.sha256,
      });
    } catch (error) {
      options.onExtractionError?.(origin, attachment.filename, error, attachment.sha256);
      continue;
    }
    if (!found) continue;
    const hasAmount = found.amount !== null && found.amount !== undefined;
    for (const field of FIELDS) {
      if (field === 'vendor' && !hasAmount) continue;
      if (merged[field] === null && found[field] !== null && found[field] !== undefined) {
        (merged as unknown as Record<string, unknown>)[field] = found[field];
      }
    }
    // The type of the file that gave the amount (an invoice beside its delivery note), else of the first file read.
    const type = found.document_type ?? null;
    if (type !== null && (merged.document_type === null || hasAmount)) merged.document_type = type;
    if (hasAmount) break;
  }
  return merged;
}

/**
 * An invoice that exists only as the mail (a shop's order receipt, a ride, a SaaS bill): a message with no document
 * attachment (listed when the preference allows that) has its body read like a document (its HTML when it has one, laid out by its tags). The vendor stays the
 * sender's: a body's first lines are greetings and menus more often than the issuer's name.
 */
async function fillFromBody(
  message: MailMessage,
  fields: ExtractedInvoiceFields,
  options: Pick<ScanOptions, 'extractor'>,
): Promise<void> {
  const body = message.body;
  const content = body?.html?.trim() ? body.html : body?.text;
  if (!options.extractor || !content?.trim()) return;
  const html = content === body?.html;
  let found: ExtractedInvoiceFields | null;
  try {
    found = await options.extractor.extract({
      bytes: new TextEncoder().encode(content),
      filename: html ? 'body.html' : 'body.txt',
      mimeType: html ? 'text/html' : 'text/plain',
    });
  } catch {
    // A body is no stored file: nothing to remember as unreadable; the attachments' fields (if any) stand.
    return;
  }
  if (found?.amount === null || found?.amount === undefined) return;
  fields.document_type ??= found.document_type ?? null;
  for (const field of FIELDS) {
    if (field === 'vendor') continue;
    if (fields[field] === null && found[field] !== null && found[field] !== undefined) {
      (fields as unknown as Record<string, unknown>)[field] = found[field];
    }
  }
}

/** The attachments that are documents: by the §5 filename rules, or the file itself when a person added it. */
export function documentAttachments(message: MailMessage): MailAttachment[] {
  return message.document ? message.attachments : qualifyingAttachments(message.attachments);
}

/** Whether the message is an invoice: by the §5 rules, or always when it is a document a person added. */
export function isInvoiceMessage(message: MailMessage, attachmentsRequired: boolean): boolean {
  return message.document === true || isInvoiceCandidate(toEmailDerivedRecord(message), { attachmentsRequired });
}

/** Builds the scan entry of one message, or null when the rules do not accept it. */
export async function scanMessage(message: MailMessage, options: ScanOptions = {}): Promise<ScanInvoice | null> {
  const record = toEmailDerivedRecord(message);
  if (!isInvoiceMessage(message, options.attachmentsRequired ?? true)) return null;
  const attachments = documentAttachments(message);
  const fields = await extractAttachmentFields(message.origin, attachments, options);
  if (fields.amount === null && attachments.length === 0) await fillFromBody(message, fields, options);
  return {
    message_id: message.messageId,
    email: record.email,
    vendor: fields.vendor ?? record.vendor,
    amount: fields.amount,
    currency: fields.currency,
    invoice_date: fields.invoice_date,
    invoice_number: fields.invoice_number,
    document_type: fields.document_type ?? null,
    attachments: attachments.map(({ filename, size, sha256 }) => ({ filename, size, sha256 })),
  };
}

export async function scanPath(path: string, options: ScanOptions = {}): Promise<ScanResult> {
  const result: ScanResult = { total_emails: 0, invoices: [] };
  for await (const read of readMailPath(path, options.limits)) {
    result.total_emails += 1;
    if (!read.ok) {
      options.onUnreadable?.(read.error);
      continue;
    }
    const invoice = await scanMessage(read.message, options);
    if (invoice) result.invoices.push(invoice);
  }
  return result;
}
