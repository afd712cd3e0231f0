import { documentTimeoutMs, runDocumentTask } from '../sandbox/document-sandbox';
import { SandboxError } from '../sandbox/sandbox-pool';
import type { StatementTaskInput } from './statement.tasks';
import type { StatementReadOptions, StatementReadResult } from './statement.types';

/**
 * Reads a statement file in the document sandbox: PDFs reach pdf.js, canvas and OCR, XML and CSV files can be
 * bombs. A file that crashes its child or runs it out of memory or time comes back as an error, like any unreadable
 * file. Never throws for a bad file.
 */
export async function readStatementInSandbox(
  bytes: Uint8Array,
  filename: string,
  options: StatementReadOptions = {},
): Promise<StatementReadResult> {
  const task: StatementTaskInput = { bytes, filename, ...(options.model ? { model: options.model } : {}) };
  try {
    return await runDocumentTask<StatementReadResult>('statement', task, documentTimeoutMs() + 5_000);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return { ok: false, errors: [{ code: error.failure, message: error.message }] };
  }
}
