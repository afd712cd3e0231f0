/**
 * `scanPath`: reads every message under a path (read-only, no database), applies the document-candidate rules of
 * SPEC §5, and reads the invoice fields of each accepted email from its qualifying attachments.
 */
import { createHash } from 'node:crypto';
import { isInvoiceCandidate, qualifyingAttachments } from '@invoicebox/core';
import { safeDriveName } from '../drive/drive-naming';
import type { PartyHints } from '../extraction/extraction.types';
import { toEmailDerivedRecord } from './email-record';
import {
  type ExtractedInvoiceFields,
  type FieldConfidence,
  type FieldExtractor,
  nullFieldExtractor,
} from './field-extractor';
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
  /**
   * The confidence of each field read from a document (absent: not read, or the sender's name as the vendor). Kept
   * with the invoice; not part of `invoicebox scan --json`.
   */
  confidence?: FieldConfidence;
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
  /** The person's own names and addresses, when the caller knows them (each message adds its sender's address). */
  hints?: PartyHints;
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
  options: Pick<ScanOptions, 'extractor' | 'onExtractionError' | 'hints'>,
): Promise<ExtractedInvoiceFields & { confidence: FieldConfidence }> {
  const extractor = options.extractor ?? nullFieldExtractor;
  const merged: ExtractedInvoiceFields & { confidence: FieldConfidence } = {
    vendor: null,
    amount: null,
    currency: null,
    invoice_date: null,
    invoice_number: null,
    confidence: {},
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
        ...(options.hints ? { hints: options.hints } : {}),
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
        const confidence = found.fields?.[field]?.confidence;
        if (typeof confidence === 'number') merged.confidence[field] = confidence;
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
 * Put before a kept HTML body: a UTF-8 byte order mark (it outranks whatever charset the mail's own tags claim, and the
 * text was decoded already) and a policy that, when the saved file is opened from disk, runs no script and loads
 * nothing remote (no tracking pixel), as a mail client shows it by default. Parsed into the head wherever it stands.
 */
const BODY_HTML_PREFIX =
  '\ufeff<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src data:; ' +
  "style-src 'unsafe-inline'; form-action 'none'\">\n";

/**
 * The body of an invoice that exists only as the mail (a shop's order receipt, a ride, a SaaS bill) as a document:
 * its HTML when it has one (the layout the field rules read), else its text, named after the subject made safe for
 * any file system. The ingest keeps it as the invoice's file; null when the body is empty.
 */
export function bodyDocument(message: MailMessage): MailAttachment | null {
  const body = message.body;
  const html = body?.html?.trim() ? body.html : null;
  const text = html ?? body?.text ?? '';
  if (!text.trim()) return null;
  const content = Buffer.from(html ? BODY_HTML_PREFIX + html : `\ufeff${text}`, 'utf8');
  const extension = html ? 'html' : 'txt';
  return {
    // The subject cleaned on its own first: a subject of dots or nothing must not take the extension's place.
    filename: safeDriveName(`${safeDriveName(message.subject ?? '', 'mail')}.${extension}`),
    contentType: html ? 'text/html' : 'text/plain',
    size: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
    content,
  };
}

/**
 * The fields of a body document, read like any document, but without its vendor: a body's first lines are greetings
 * and menus more often than the issuer's name, so the sender stays the vendor. Null when it shows no amount (a body
 * without one is no receipt to trust for the rest either).
 */
export async function extractBodyFields(
  origin: string,
  document: MailAttachment,
  options: Pick<ScanOptions, 'extractor' | 'onExtractionError'>,
): Promise<(Omit<ExtractedInvoiceFields, 'vendor' | 'fields'> & { confidence: FieldConfidence }) | null> {
  if (!options.extractor) return null;
  let found: ExtractedInvoiceFields | null;
  try {
    found = await options.extractor.extract({
      bytes: document.content,
      filename: document.filename,
      mimeType: document.contentType,
      sha256: document.sha256,
    });
  } catch (error) {
    options.onExtractionError?.(origin, document.filename, error, document.sha256);
    return null;
  }
  if (found?.amount === null || found?.amount === undefined) return null;
  const confidence: FieldConfidence = {};
  for (const field of FIELDS) {
    const c = found.fields?.[field]?.confidence;
    if (field !== 'vendor' && found[field] !== null && typeof c === 'number') confidence[field] = c;
  }
  return {
    amount: found.amount,
    currency: found.currency ?? null,
    invoice_date: found.invoice_date ?? null,
    invoice_number: found.invoice_number ?? null,
    document_type: found.document_type ?? null,
    confidence,
  };
}

/** A message with no document attachment (listed when the preference allows that) has its body read instead. */
async function fillFromBody(
  message: MailMessage,
  fields: ExtractedInvoiceFields & { confidence: FieldConfidence },
  options: Pick<ScanOptions, 'extractor' | 'onExtractionError'>,
): Promise<void> {
  const document = bodyDocument(message);
  const found = document ? await extractBodyFields(message.origin, document, options) : null;
  if (!found) return;
  fields.document_type ??= found.document_type ?? null;
  for (const field of FIELDS) {
    if (field === 'vendor') continue;
    if (fields[field] === null && found[field] !== null) {
      (fields as unknown as Record<string, unknown>)[field] = found[field];
      if (found.confidence[field] !== undefined) fields.confidence[field] = found.confidence[field];
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
  const hints = { ...options.hints, senderEmail: message.from?.address ?? null };
  const fields = await extractAttachmentFields(message.origin, attachments, { ...options, hints });
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
    // The sender's name as the vendor is what the mail says, not a reading: no confidence for it.
    confidence: fields.vendor ? fields.confidence : withoutVendor(fields.confidence),
  };
}

/** The confidences without the vendor's, where the sender's name stands in for it. */
export function withoutVendor({ vendor: _vendor, ...rest }: FieldConfidence): FieldConfidence {
  return rest;
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
    if (invoice) {
      // `invoicebox scan --json` keeps its contract: the stored confidence is not printed.
      const { confidence: _confidence, ...printed } = invoice;
      result.invoices.push(printed);
    }
  }
  return result;
}
