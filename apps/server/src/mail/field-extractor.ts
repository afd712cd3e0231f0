import type { PartyHints } from '../extraction/extraction.types';

/** What the mail scan needs from invoice field extraction; the extraction module's `extractInvoiceFields` fits it. */

export interface ExtractedInvoiceFields {
  vendor: string | null;
  /** The grand total as a decimal number. */
  amount: number | null;
  /** ISO 4217 code. */
  currency: string | null;
  /** YYYY-MM-DD */
  invoice_date: string | null;
  invoice_number: string | null;
  /**
   * How sure the reader is of each value (0..1), as the extraction module states it; absent for readers that do not
   * say. A field below LOW_CONFIDENCE is marked on the invoice's card.
   */
  fields?: Partial<Record<InvoiceFieldName, { confidence: number }>>;
  /** What the document is (invoice, credit_note, receipt, order_confirmation...); absent when the reader does not say. */
  document_type?: string | null;
}

export type InvoiceFieldName = 'vendor' | 'amount' | 'currency' | 'invoice_date' | 'invoice_number';

/** Each field's confidence where a value was read (what `invoices.extraction.confidence` stores). */
export type FieldConfidence = Partial<Record<InvoiceFieldName, number>>;

export interface FieldExtractInput {
  bytes: Uint8Array;
  filename: string;
  mimeType?: string;
  /** The file's content hash, when the caller has it (readers may remember files they cannot read). */
  sha256?: string;
  /** Whose file it is, when the caller knows. */
  ownerId?: string;
  /** What the mail that carried the file says about its parties (sender, the person's own names). */
  hints?: PartyHints;
}

export interface FieldExtractor {
  /**
   * Reads the invoice fields of one file; null (or all-null fields) when it finds none. Throws DocumentUnreadableError
   * when the file cannot be read (damaged, encrypted, or it ended its reader), with a message for the person.
   */
  extract(input: FieldExtractInput): Promise<ExtractedInvoiceFields | null>;
}

/** A file that could not be read; `code` is stable (`pdf_encrypted`, `document_out_of_memory`...). */
export class DocumentUnreadableError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DocumentUnreadableError';
  }
}

/** Finds nothing: the scan still lists the candidates, with null fields. */
export const nullFieldExtractor: FieldExtractor = {
  extract: async () => null,
};
