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
}

export interface FieldExtractor {
  /** Reads the invoice fields of one file; null (or all-null fields) when it finds none. May throw on a bug only. */
  extract(input: { bytes: Uint8Array; filename: string; mimeType?: string }): Promise<ExtractedInvoiceFields | null>;
}

/** Finds nothing: the scan still lists the candidates, with null fields. */
export const nullFieldExtractor: FieldExtractor = {
  extract: async () => null,
};
