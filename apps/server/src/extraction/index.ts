import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LIMITS, type ExtractionResult, type ExtractOptions } from './extraction.types';

/**
 * Invoice field extraction: vendor, grand total, currency, invoice date and number from e-invoice XML, PDF (text
 * layer or OCR) and images. Heavy libraries (pdf.js, tesseract.js, canvas) load lazily on first use, so importing this
 * module costs nothing for `invoicebox start`.
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

let service: Promise<typeof import('./extraction.service')> | null = null;

export async function extractInvoiceFields(
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options?: ExtractOptions,
): Promise<ExtractionResult> {
  service ??= import('./extraction.service');
  const { extractInvoiceFields: run } = await service;
  return run(input, options);
}

/** Reads a file (refusing ones over the size limit before loading them) and extracts its fields. */
export async function extractFile(filePath: string, options?: ExtractOptions): Promise<ExtractionResult> {
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
      fields: {},
      errors: [{ code: 'file_too_large', message: `The file is ${info.size} bytes (limit ${maxBytes})` }],
      warnings: [],
      meta: { kind: 'unknown', pages: 0, ms: 0 },
    };
  }
  const bytes = new Uint8Array(await readFile(filePath));
  return extractInvoiceFields({ bytes, filename: path.basename(filePath) }, options);
}

/** A tesseract worker to share across a batch (pass it as `options.ocrEngine`); terminate it at the end. */
export async function createOcrEngine(languages?: string[]) {
  const { createOcrEngine: create } = await import('./ocr/ocr.engine');
  return create(languages);
}

/** Terminates the module-wide OCR worker (started on the first scan when no engine was passed) and the PDF worker. */
export async function shutdownExtraction(): Promise<void> {
  const { terminateSharedOcrEngine } = await import('./ocr/ocr.pipeline');
  const { terminatePdfWorker } = await import('./pdf/pdf.isolate');
  await Promise.all([terminateSharedOcrEngine(), terminatePdfWorker()]);
}

/** The five public fields, exactly as `invoicebox extract --json` prints them. */
export function publicFields(r: ExtractionResult) {
  return {
    vendor: r.vendor,
    amount: r.amount,
    currency: r.currency,
    invoice_date: r.invoice_date,
    invoice_number: r.invoice_number,
  };
}
