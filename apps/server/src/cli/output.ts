import { AppError, databaseUnreachableMessage, errorMessage, isDatabaseUnavailable } from '../errors';

/**
 * The line a command that failed prints. A database that went away is said in one line with where it was (host and
 * port, no password), never as the failed query with its parameters.
 */
export function cliErrorLine(error: unknown, databaseUrl = process.env.DATABASE_URL): string {
  if (isDatabaseUnavailable(error) && !(error instanceof AppError)) {
    return `invoicebox: ${databaseUnreachableMessage(error, databaseUrl)}`;
  }
  return `invoicebox: ${errorMessage(error)}`;
}

/** Prints one clear line to stderr and exits non-zero; stdout is reserved for --json output. */
export function exitWithError(error: unknown): never {
  console.error(cliErrorLine(error));
  process.exit(error instanceof AppError && error.exitCode !== undefined ? error.exitCode : 1);
}

/** Writes one JSON document to stdout, the only thing a `--json` command prints there. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
