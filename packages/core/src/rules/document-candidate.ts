/**
 * Document-candidate rules (SPEC §5): decides whether an email-derived record is an invoice, and which of its
 * attachments count as documents. Word lists are matched as substrings of the lowercased text.
 */

/** An attachment as far as the rules care: only its filename matters. */
export interface CandidateAttachment {
  filename?: string | null;
}

/** The email-derived record of SPEC §3, used for document detection. */
export interface EmailDerivedRecord<A extends CandidateAttachment = CandidateAttachment> {
  vendor: string | null;
  details: string | null;
  email: string | null;
  amount: string | number | null;
  attachments: readonly A[];
}

/** Rule 1: a filename containing one of these counts as a document, whatever else it contains. */
export const DOCUMENT_ACCEPT_WORDS = [
  'invoice',
  'receipt',
  'bill',
  'statement',
  'factura',
  'fattura',
  'faktura',
] as const;

/** Rule 2: otherwise a filename containing any of these is rejected. */
export const DOCUMENT_REJECT_WORD_GROUPS = {
  logoOrSocial: ['download-google', 'google-play', 'social-fb', 'social-in', 'logo', 'logotype', 'social', 'pfp'],
  termsOrConditions: ['terms', 'conditions'],
  travel: ['flight', 'boarding', 'pass', 'ticket', 'itinerary'],
  store: ['ghid', 'finantare', 'store', 'app-store'],
} as const satisfies Record<string, readonly string[]>;

export const DOCUMENT_REJECT_WORDS: readonly string[] = Object.values(DOCUMENT_REJECT_WORD_GROUPS).flat();

/** Rule 3: otherwise a filename counts only with one of these extensions. */
export const DOCUMENT_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'doc', 'docx', 'xls', 'xlsx'] as const;

/** A record whose vendor or details contain one of these is not an invoice (newsletters, confirmations, …). */
export const RECORD_REJECT_WORDS = [
  'newsletter',
  'marketing',
  'promotion',
  'survey',
  'feedback',
  'notification',
  'alert',
  'reminder',
  'welcome',
  'confirmation',
] as const;

export type DocumentAttachmentVerdict =
  | { document: true; rule: 'accept_word'; word: string }
  | { document: true; rule: 'extension'; extension: string }
  | { document: false; rule: 'reject_word'; word: string }
  | { document: false; rule: 'extension' | 'no_filename' };

/** Applies the three filename rules in order and says which one decided. */
export function classifyAttachmentFilename(filename: string | null | undefined): DocumentAttachmentVerdict {
  if (!filename) return { document: false, rule: 'no_filename' };
  const name = filename.toLowerCase();
  const accept = DOCUMENT_ACCEPT_WORDS.find((word) => name.includes(word));
  if (accept) return { document: true, rule: 'accept_word', word: accept };
  const reject = DOCUMENT_REJECT_WORDS.find((word) => name.includes(word));
  if (reject) return { document: false, rule: 'reject_word', word: reject };
  // "Ends in pdf" is read as the extension after the last dot: `report.pdf` counts, `mypdf` does not.
  const extension = DOCUMENT_EXTENSIONS.find((ext) => name.endsWith(`.${ext}`));
  if (extension) return { document: true, rule: 'extension', extension };
  return { document: false, rule: 'extension' };
}

/** Whether an attachment counts as a document by its filename (rules 1–3). */
export function isDocumentAttachment(filename: string | null | undefined): boolean {
  return classifyAttachmentFilename(filename).document;
}

/** The attachments of a record that count as documents, in their original order. */
export function qualifyingAttachments<A extends CandidateAttachment>(attachments: readonly A[]): A[] {
  return attachments.filter((attachment) => isDocumentAttachment(attachment.filename));
}

/** The first record rejection word found in the vendor or the details, if any. */
export function findRecordRejectionWord(record: Pick<EmailDerivedRecord, 'vendor' | 'details'>): string | undefined {
  const text = `${record.vendor ?? ''}\n${record.details ?? ''}`.toLowerCase();
  return RECORD_REJECT_WORDS.find((word) => text.includes(word));
}

export interface InvoiceCandidateOptions {
  /** The record needs at least one qualifying attachment (default: true). */
  attachmentsRequired?: boolean;
}

export type InvoiceCandidateVerdict =
  | { accepted: true }
  | { accepted: false; reason: 'rejection_word'; word: string }
  | { accepted: false; reason: 'no_qualifying_attachment' };

/**
 * Decides whether a record is an invoice. Further keyword checks on invoice, payment, subscription and similar
 * words have no effect on the outcome (SPEC §5), so there are none: a record that passes these checks is accepted.
 */
export function decideInvoiceCandidate(
  record: EmailDerivedRecord,
  options: InvoiceCandidateOptions = {},
): InvoiceCandidateVerdict {
  const word = findRecordRejectionWord(record);
  if (word) return { accepted: false, reason: 'rejection_word', word };
  const attachmentsRequired = options.attachmentsRequired ?? true;
  if (attachmentsRequired && qualifyingAttachments(record.attachments).length === 0) {
    return { accepted: false, reason: 'no_qualifying_attachment' };
  }
  return { accepted: true };
}

export function isInvoiceCandidate(record: EmailDerivedRecord, options: InvoiceCandidateOptions = {}): boolean {
  return decideInvoiceCandidate(record, options).accepted;
}
