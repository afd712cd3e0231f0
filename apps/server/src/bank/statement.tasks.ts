import type { StatementReadOptions, StatementReadResult } from './statement.types';

/** What the parent sends for one statement file. */
export interface StatementTaskInput {
  bytes: Uint8Array;
  filename: string;
  model?: StatementReadOptions['model'];
}

/** The sandbox task `statement` (runs in a document-sandbox child): every statement of one file, balance-checked. */
export async function statementTask(input: StatementTaskInput): Promise<StatementReadResult> {
  const { readStatement } = await import('./statement-registry');
  const { ALL_READERS } = await import('./statement-registry');
  return readStatement(input.bytes, input.filename, ALL_READERS, input.model ? { model: input.model } : {});
}
