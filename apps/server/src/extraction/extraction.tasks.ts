import type { ExtractionResult, ExtractOptions } from './extraction.types';
import { hasPdfHeader } from './pdf/pdf.header';

/** What the parent sends for one document: its bytes and the options that can cross a process boundary. */
export interface ExtractTaskInput {
  bytes: Uint8Array;
  filename: string;
  mimeType?: string;
  options: SandboxExtractOptions;
}

/** ExtractOptions without the in-process OCR engine (a live object cannot be sent to another process). */
export type SandboxExtractOptions = Omit<ExtractOptions, 'ocrEngine'>;

/** The sandbox task `extract` (runs in a document-sandbox child): the fields of one document. */
export async function extractTask(input: ExtractTaskInput): Promise<ExtractionResult> {
  // A PDF's text is read in a worker thread that must first start and load pdf.js: begin that now, while the
  // pipeline's modules load here (the first document of a child, and every `invoicebox extract`, waits for both).
  if (hasPdfHeader(input.bytes)) (await import('./pdf/pdf.isolate')).warmPdfWorker();
  const { extractInvoiceFields } = await import('./extraction.service');
  const { bytes, filename, mimeType } = input;
  return extractInvoiceFields({ bytes, filename, ...(mimeType ? { mimeType } : {}) }, input.options);
}
