import path from 'node:path';
import { type Command, Option } from 'commander';
import type { Config } from '../config';
import { ValidationError } from '../errors';
import type { BlobProgress } from '../invoices/blob-migration';
import type { DocumentStoreKind } from '../invoices/blob-store.factory';
import { loadDatabase } from './lazy';
import { printJson } from './output';

const KINDS = ['local', 'postgres', 's3'] as const;

/** Where a command writes its human lines; a test passes its own. */
export interface BlobsIo {
  /** A progress line that replaces itself (only on a terminal). */
  progress?: (line: string) => void;
  log: (line: string) => void;
}

const terminalIo = (): BlobsIo => ({
  progress: process.stderr.isTTY ? (line) => process.stderr.write(`\r\u001b[2K${line}`) : undefined,
  log: (line) => console.error(line),
});

/** `invoicebox blobs migrate --to KIND`: exit 0 when every document is in the target, 1 otherwise. */
export async function runBlobsMigrate(
  config: Config,
  options: { to: DocumentStoreKind; from?: DocumentStoreKind },
  io: BlobsIo = terminalIo(),
): Promise<{ exitCode: number; result: BlobProgress }> {
  const from = options.from ?? config.documentStore;
  if (from === options.to) {
    throw new ValidationError(`the documents are already in ${from} (DOCUMENT_STORE); name another store with --to`);
  }
  const { openDatabase, runMigrations } = await loadDatabase();
  const { migrateBlobs } = await import('../invoices/blob-migration');
  const { createBlobStoreOfKind, verifyBlobStore } = await import('../invoices/blob-store.factory');
  const database = await openDatabase(config);
  try {
    await runMigrations(database.pool);
    await verifyBlobStore(from, config);
    await verifyBlobStore(options.to, config);
    const source = createBlobStoreOfKind(from, config, database.db, 'documents');
    const target = createBlobStoreOfKind(options.to, config, database.db, 'documents');
    const result = await migrateBlobs(database.db, source, target, {
      tempDir: path.join(config.dataDir, 'tmp'),
      onProgress: io.progress && ((p) => io.progress?.(progressLine('migrate', p))),
    });
    if (io.progress) io.log('');
    io.log(
      `blobs migrate ${from} → ${options.to}: ${result.total} documents, ${result.copied} copied (${megabytes(result.bytes)}), ${result.present} already there, ${result.missing.length} missing in ${from}, ${result.corrupt.length} not matching their SHA-256`,
    );
    for (const sha of result.missing.slice(0, 20)) io.log(`  missing: ${sha}`);
    for (const sha of result.corrupt.slice(0, 20)) io.log(`  damaged: ${sha}`);
    const ok = result.missing.length === 0 && result.corrupt.length === 0;
    if (ok) io.log(`every document is in ${options.to}: set DOCUMENT_STORE=${options.to} and restart every process`);
    return { exitCode: ok ? 0 : 1, result };
  } finally {
    await database.close();
  }
}

/** `invoicebox blobs check`: exit 0 when the configured store holds every document, 1 when some are missing. */
export async function runBlobsCheck(
  config: Config,
  options: { verify?: boolean },
  io: BlobsIo = terminalIo(),
): Promise<{ exitCode: number; result: BlobProgress }> {
  const { openDatabase, runMigrations } = await loadDatabase();
  const { checkBlobs } = await import('../invoices/blob-migration');
  const { createBlobStoreOfKind, verifyBlobStore } = await import('../invoices/blob-store.factory');
  const database = await openDatabase(config);
  try {
    await runMigrations(database.pool);
    await verifyBlobStore(config.documentStore, config);
    const store = createBlobStoreOfKind(config.documentStore, config, database.db, 'documents');
    const result = await checkBlobs(database.db, store, {
      verify: options.verify,
      onProgress: io.progress && ((p) => io.progress?.(progressLine('check', p))),
    });
    if (io.progress) io.log('');
    io.log(
      `blobs check (${config.documentStore}): ${result.total} documents, ${result.present} present, ${result.missing.length} missing${options.verify ? `, ${result.corrupt.length} not matching their SHA-256` : ''}`,
    );
    for (const sha of result.missing.slice(0, 50)) io.log(`  missing: ${sha}`);
    for (const sha of result.corrupt.slice(0, 50)) io.log(`  damaged: ${sha}`);
    return { exitCode: result.missing.length + result.corrupt.length > 0 ? 1 : 0, result };
  } finally {
    await database.close();
  }
}

function progressLine(verb: string, p: BlobProgress): string {
  const percent = p.total === 0 ? 100 : Math.floor((p.done / p.total) * 100);
  const width = 24;
  const filled = Math.round((percent / 100) * width);
  return `blobs ${verb} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} (${percent}%) ${megabytes(p.bytes)}, ${p.missing.length} missing`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

export function registerBlobsCommand(program: Command): void {
  const blobs = program
    .command('blobs')
    .description('the document store: move documents between stores, find missing ones');
  blobs
    .command('migrate')
    .description('copy every document to another store, verifying each SHA-256 (resumable: run it again)')
    .addOption(new Option('--to <store>', 'the store to copy to').choices(KINDS).makeOptionMandatory())
    .addOption(new Option('--from <store>', 'the store to copy from (default: DOCUMENT_STORE)').choices(KINDS))
    .option('--json', 'print the result as JSON on stdout')
    .action(async (options: { to: DocumentStoreKind; from?: DocumentStoreKind; json?: boolean }) => {
      const { loadConfig } = await import('../config');
      const { exitCode, result } = await runBlobsMigrate(loadConfig(), options);
      if (options.json) printJson(result);
      process.exitCode = exitCode;
    });
  blobs
    .command('check')
    .description('list documents whose bytes are missing from the configured store (exit code 1 if any)')
    .option('--verify', 'also read every document and check its SHA-256')
    .option('--json', 'print the result as JSON on stdout')
    .action(async (options: { verify?: boolean; json?: boolean }) => {
      const { loadConfig } = await import('../config');
      const { exitCode, result } = await runBlobsCheck(loadConfig(), options);
      if (options.json) printJson(result);
      process.exitCode = exitCode;
    });
}
