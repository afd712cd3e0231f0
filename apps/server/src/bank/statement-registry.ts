import { checkBalances } from './balance-check';
import { camt053Reader } from './camt053.reader';
import { csvReader } from './csv.reader';
import { mt940Reader } from './mt940.reader';
import { ofxReader } from './ofx.reader';
import { pdfReader } from './pdf.reader';
import type { StatementReader, StatementReadOptions, StatementReadResult } from './statement.types';

/** Structured readers, most specific sniff first; CSV last because almost any text has commas. */
export const STRUCTURED_READERS: readonly StatementReader[] = [camt053Reader, ofxReader, mt940Reader, csvReader];

/** Every reader: PDF first, so that a file named .pdf that is none gets the PDF reader's clear refusal. */
export const ALL_READERS: readonly StatementReader[] = [pdfReader, ...STRUCTURED_READERS];

const HEAD_BYTES = 4096;

export function pickReader(
  bytes: Uint8Array,
  filename: string,
  readers: readonly StatementReader[] = ALL_READERS,
): StatementReader | null {
  const head = bytes.subarray(0, HEAD_BYTES);
  return readers.find((r) => r.accepts(head, filename)) ?? null;
}

/**
 * Reads a statement file with the reader its content (and name) calls for, then balance-checks every statement and
 * adds `balance_mismatch` to its warnings. Never throws on bad input: anything a reader throws becomes an error.
 */
export async function readStatement(
  bytes: Uint8Array,
  filename: string,
  readers: readonly StatementReader[] = ALL_READERS,
  options: StatementReadOptions = {},
): Promise<StatementReadResult> {
  if (bytes.length === 0) return { ok: false, errors: [{ code: 'empty_file', message: 'The file is empty.' }] };
  const reader = pickReader(bytes, filename, readers);
  if (!reader) {
    return {
      ok: false,
      errors: [
        { code: 'unsupported_format', message: 'Not a statement format we read (PDF, CSV, OFX, camt.053, MT940).' },
      ],
    };
  }
  let result: StatementReadResult;
  try {
    result = await reader.read(bytes, filename, options);
  } catch (e) {
    return {
      ok: false,
      errors: [{ code: 'unreadable', message: `The ${reader.format} file could not be read: ${(e as Error).message}` }],
    };
  }
  if (result.ok) {
    for (const st of result.statements) {
      // A zero amount moves no money (a notice, a card hold released, an empty closing entry): not a transaction.
      const zero = st.transactions.filter((t) => t.amountMinor === 0).length;
      if (zero) {
        st.transactions = st.transactions.filter((t) => t.amountMinor !== 0);
        st.warnings.push({
          code: 'zero_amounts_skipped',
          message: `${zero} ${zero === 1 ? 'entry' : 'entries'} of 0.00 left out: no money moved.`,
        });
      }
      const mismatch = checkBalances(st);
      if (mismatch && !st.warnings.some((w) => w.code === 'balance_mismatch')) st.warnings.push(mismatch);
    }
  }
  return result;
}
