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
  /** What the document is (invoice, credit_note, receipt, order_confirmation...); absent when the reader does not say. */
  document_type?: string | null;
}

export interface FieldExtractInput {
  bytes: Uint8Array;
  filename: string;
  mimeType?: string;
  /** The file's content hash, when the caller has it (readers may remember files they cannot read). */
  sha256?: string;
  /** Whose file it is, when the caller knows. */
  ownerId?: string;
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
