import { AppError } from '../errors';

/** Prints one clear line to stderr and exits non-zero; stdout is reserved for --json output. */
export function exitWithError(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`invoicebox: ${message}`);
  process.exit(error instanceof AppError && error.exitCode !== undefined ? error.exitCode : 1);
}

/** Writes one JSON document to stdout, the only thing a `--json` command prints there. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
