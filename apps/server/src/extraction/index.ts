import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { closeDocumentSandbox } from '../sandbox/document-sandbox';
import { extractInSandbox } from './extraction.sandbox';
import type { SandboxExtractOptions } from './extraction.tasks';
import { DEFAULT_LIMITS, type ExtractionResult } from './extraction.types';

export {
  closeDocumentSandbox,
  configureDocumentSandbox,
  DEFAULT_SANDBOX_SETTINGS,
  type DocumentSandboxSettings,
  documentSandboxPids,
} from '../sandbox/document-sandbox';
/**
 * Invoice field extraction: vendor, grand total, currency, invoice date and number from e-invoice XML, PDF (text
 * layer or OCR) and images. Every document is read in the document sandbox (extraction.sandbox.ts): child processes
 * with memory and time limits, so that a document that crashes a native decoder or fills the memory costs that
 * document only. Nothing heavy (pdf.js, tesseract.js, canvas) is ever loaded in the calling process.
 */
export type {
  ExtractionIssue,
  ExtractionLimits,
  ExtractionResult,
  ExtractOptions,
  FieldInfo,
  FieldName,
  FieldSource,
  ModelEndpointOptions,
} from './extraction.types';

/** Reads one document's fields in the sandbox; a document's problems come back as `errors`, never as a throw. */
export async function extractInvoiceFields(
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options?: SandboxExtractOptions,
): Promise<ExtractionResult> {
  return extractInSandbox(input, options);
}

/** Reads a file (refusing ones over the size limit before loading them) and extracts its fields. */
export async function extractFile(filePath: string, options?: SandboxExtractOptions): Promise<ExtractionResult> {
  const maxBytes = options?.limits?.maxBytes ?? DEFAULT_LIMITS.maxBytes;
  const info = await stat(filePath);
  if (!info.isFile()) throw new Error(`${filePath} is not a file`);
  if (info.size > maxBytes) {
    return {
      vendor: null,
      amount: null,
      currency: null,
      invoice_date: null,
      invoice_number: null,
      amount_minor: null,
      document_type: null,
      fields: {},
      errors: [{ code: 'file_too_large', message: `The file is ${info.size} bytes (limit ${maxBytes})` }],
      warnings: [],
      meta: { kind: 'unknown', pages: 0, ms: 0 },
    };
  }
  const bytes = new Uint8Array(await readFile(filePath));
  return extractInvoiceFields({ bytes, filename: path.basename(filePath) }, options);
}

/** Stops the sandbox's child processes, so that a command can end (they are started again on the next document). */
export async function shutdownExtraction(): Promise<void> {
  await closeDocumentSandbox();
}

/** The five public fields and the document's type, exactly as `invoicebox extract --json` prints them. */
export function publicFields(r: ExtractionResult) {
  return {
    vendor: r.vendor,
    amount: r.amount,
    currency: r.currency,
    invoice_date: r.invoice_date,
    invoice_number: r.invoice_number,
    document_type: r.document_type,
  };
}
