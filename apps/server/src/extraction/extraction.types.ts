/** Where a field value came from, strongest first. */
export type FieldSource = 'einvoice' | 'pdf_text' | 'ocr' | 'model' | 'text';

export type FieldName = 'vendor' | 'amount' | 'currency' | 'invoice_date' | 'invoice_number';

export const FIELD_NAMES: readonly FieldName[] = ['vendor', 'amount', 'currency', 'invoice_date', 'invoice_number'];

/** What a document is, read from its content (rules/document-type.rules.ts) or an e-invoice's type code. */
export { DOCUMENT_TYPES, type DocumentType } from '@invoicebox/core/document-type';

import type { DocumentType } from '@invoicebox/core/document-type';

export interface FieldInfo {
  source: FieldSource;
  /** 0..1; rules give calibrated-by-hand scores, e-invoices 1. */
  confidence: number;
}

export interface ExtractionIssue {
  /** Stable snake_case code, e.g. `pdf_encrypted`, `image_too_large`, `xml_doctype_forbidden`. */
  code: string;
  message: string;
}

export interface ExtractionResult {
  vendor: string | null;
  /** The grand total as a decimal number (derived from amount_minor). */
  amount: number | null;
  currency: string | null;
  /** YYYY-MM-DD */
  invoice_date: string | null;
  invoice_number: string | null;
  /** The grand total in integer minor units of `currency` (cents for EUR). */
  amount_minor: number | null;
  /** What the document is; null when nothing could be read. */
  document_type: DocumentType | null;
  fields: Partial<Record<FieldName, FieldInfo>>;
  /** Fatal problems: the file could not be read (all fields are then null). */
  errors: ExtractionIssue[];
  /** Non-fatal notes: e.g. the model endpoint failed and the rules' answer was kept. */
  warnings: ExtractionIssue[];
  /** Which path produced the answer and how long it took. */
  meta: { kind: 'einvoice' | 'pdf_text' | 'ocr' | 'text' | 'unknown'; pages: number; ms: number };
}

/** Settings of the optional OpenAI-compatible endpoint. */
export interface ModelEndpointOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Send page images instead of text when there is no text layer. */
  vision?: boolean;
  timeoutMs?: number;
}

/**
 * What the mail around a document says about its parties. A sync knows it; a file read on its own (the CLI, an
 * upload) has none, and the rules then read the page alone.
 */
export interface PartyHints {
  /** The sender's address ("billing@acme.de"): its domain names the issuer, unless it is a mail or billing service. */
  senderEmail?: string | null;
  /** The person's own names (their display name, their company's): the buyer, never the issuer. */
  ownNames?: string[];
  /** The person's own addresses (connected mailboxes): their domains are the buyer's, never the issuer's. */
  ownEmails?: string[];
}

export interface ExtractOptions {
  /** Hints from the mail that carried the document (sender, the person's own names); see PartyHints. */
  hints?: PartyHints;
  /** Read the XML embedded in Factur-X / ZUGFeRD PDFs (default true); false measures the text rules alone. */
  einvoice?: boolean;
  /** Skip OCR entirely (scans then give nulls with a warning). */
  ocr?: boolean;
  /** Straighten and crop a photographed sheet before OCR (image files; default true; false: the eval's baseline). */
  straighten?: boolean;
  /** OCR languages (tesseract codes); default the seven supported ones' best guess order. */
  ocrLanguages?: string[];
  /** Optional OpenAI-compatible model endpoint; used only where it beats the rules. */
  model?: ModelEndpointOptions;
  limits?: Partial<ExtractionLimits>;
  /** A shared OCR engine for a batch (see createOcrEngine); otherwise a module-wide one is used. */
  ocrEngine?: import('./ocr/ocr.engine').OcrEngine;
}

export interface ExtractionLimits {
  maxBytes: number;
  maxPages: number;
  /** Pages OCR'd at most (the first N and the last one). */
  maxOcrPages: number;
  /** Pixels of one image (a file, or an image inside a PDF) decoded at most. */
  maxImagePixels: number;
  /** Bytes inflated from all of a PDF's compressed streams together (flate bombs stop here). */
  maxInflateBytes: number;
  maxXmlBytes: number;
  timeoutMs: number;
}

export const DEFAULT_LIMITS: ExtractionLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxPages: 200,
  maxOcrPages: 4,
  maxImagePixels: 60_000_000,
  maxInflateBytes: 256 * 1024 * 1024,
  maxXmlBytes: 20 * 1024 * 1024,
  timeoutMs: 60_000,
};

/** A word (or text run) with its box; y grows downwards, units are PDF points or pixels. */
export interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  page: number;
}

/** A run of words on one line separated from the next run by a wide gap (a table cell or label/value). */
export interface Cell {
  text: string;
  x0: number;
  x1: number;
}

export interface Line {
  page: number;
  /** Index in the whole document, in reading order. */
  index: number;
  y0: number;
  y1: number;
  /** Relative vertical position on its page, 0 top .. 1 bottom. */
  rel: number;
  cells: Cell[];
  text: string;
  /** Median word height, a proxy for font size. */
  size: number;
}

/** One field's answer from a rule set, before the pipeline merges sources. */
export interface FieldGuess<T> {
  value: T;
  confidence: number;
}

export interface RuleFields {
  vendor: FieldGuess<string> | null;
  amount: FieldGuess<{ minor: number; decimals: number }> | null;
  currency: FieldGuess<string> | null;
  invoice_date: FieldGuess<string> | null;
  invoice_number: FieldGuess<string> | null;
  document_type: FieldGuess<DocumentType> | null;
}
