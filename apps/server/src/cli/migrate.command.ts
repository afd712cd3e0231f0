import type { Command } from 'commander';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (start does this by itself)')
    .action(async () => {
      const config = loadConfig();
      const database = await openDatabase(config);
      try {
        await runMigrations(database.pool);
        console.error(`migrations applied (${database.engine} database)`);
      } finally {
        await database.close();
      }
    });
}
