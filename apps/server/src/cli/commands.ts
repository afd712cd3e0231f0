import type { Command } from 'commander';
import { registerMigrateCommand } from './migrate.command';
import { registerStartCommand } from './start.command';
import { registerWorkerCommand } from './worker.command';

/** Every sub-command of `invoicebox`, one registration function per file. */
export const commands: Array<(program: Command) => void> = [
  registerStartCommand,
  registerWorkerCommand,
  registerMigrateCommand,
];
