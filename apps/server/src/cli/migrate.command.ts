import type { Command } from 'commander';
import { loadDatabase } from './lazy';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (start does this by itself)')
    .action(async () => {
      const { loadConfig } = await import('../config');
      const config = loadConfig();
      const { openDatabase, runMigrations } = await loadDatabase();
      const database = await openDatabase(config);
      try {
        await runMigrations(database.pool);
        console.error(`migrations applied (${database.engine} database)`);
      } finally {
        await database.close();
      }
    });
}
