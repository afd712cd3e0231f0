import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { documentSettings, loadConfig } from '../config';
import { closeDocumentSandbox, configureDocumentSandbox } from '../sandbox/document-sandbox';
import { readStatementInSandbox } from './statement.sandbox';
import type { StatementReadOptions, StatementReadResult } from './statement.types';

/**
 * A statement file named on the command line, read as the server reads uploads: in the document sandbox, with the
 * configured limits. A missing file is an error naming it; the sandbox is closed afterwards so the CLI can exit.
 */
export async function readStatementFileInSandbox(
  file: string,
  options: StatementReadOptions = {},
): Promise<StatementReadResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new Error(code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(error as Error).message}`);
  }
  const documents = documentSettings(loadConfig().documents);
  await configureDocumentSandbox({ ...documents.sandbox, processes: 1 });
  try {
    return await readStatementInSandbox(new Uint8Array(bytes), path.basename(file), options);
  } finally {
    await closeDocumentSandbox();
  }
}
