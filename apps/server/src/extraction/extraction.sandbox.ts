import { documentTimeoutMs, runDocumentTask } from '../sandbox/document-sandbox';
import { SandboxError } from '../sandbox/sandbox-pool';
import type { ExtractTaskInput, SandboxExtractOptions } from './extraction.tasks';
import type { ExtractionResult } from './extraction.types';

/**
 * Field extraction through the document sandbox (sandbox/document-sandbox.ts): every PDF, image, OCR and XML read
 * happens in a child process with a memory and a time limit. A document that crashes its child, or runs it out of
 * memory or time, comes back with a clear error (`document_crashed`, `document_out_of_memory`, `document_timeout`)
 * like any other unreadable file.
 */

/** Reads one document's fields in the sandbox. Never throws for a bad document: its problems come back as `errors`. */
export async function extractInSandbox(
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options: SandboxExtractOptions = {},
): Promise<ExtractionResult> {
  const started = performance.now();
  const timeoutMs = options.limits?.timeoutMs ?? documentTimeoutMs();
  const task: ExtractTaskInput = {
    bytes: input.bytes,
    filename: input.filename,
    ...(input.mimeType ? { mimeType: input.mimeType } : {}),
    options: { ...options, limits: { ...options.limits, timeoutMs } },
  };
  try {
    // A little more than the document's own limit: the child's cooperative time-out gives the clearer message.
    return await runDocumentTask<ExtractionResult>('extract', task, timeoutMs + 5_000);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return {
      vendor: null,
      amount: null,
      currency: null,
      invoice_date: null,
      invoice_number: null,
      amount_minor: null,
      document_type: null,
      fields: {},
      errors: [{ code: error.failure, message: error.message }],
      warnings: [],
      meta: { kind: 'unknown', pages: 0, ms: Math.round((performance.now() - started) * 10) / 10 },
    };
  }
}
