import type { Command } from 'commander';
import { registerAddCommand } from './add.command';
import { registerBlobsCommand } from './blobs.command';
import { registerExtractCommand } from './extract.command';
import { registerImportCommand } from './import.command';
import { registerMigrateCommand } from './migrate.command';
import { registerReconcileCommand } from './reconcile.command';
import { registerScanCommand } from './scan.command';
import { registerStartCommand } from './start.command';
import { registerStatementCommand } from './statement.command';
import { registerSyncCommand } from './sync.command';
import { registerWorkerCommand } from './worker.command';

/** Every sub-command of `invoicebox`, one registration function per file. */
export const commands: Array<(program: Command) => void> = [
  registerStartCommand,
  registerWorkerCommand,
  registerMigrateCommand,
  registerScanCommand,
  registerImportCommand,
  registerAddCommand,
  registerSyncCommand,
  registerExtractCommand,
  registerStatementCommand,
  registerReconcileCommand,
  registerBlobsCommand,
];
