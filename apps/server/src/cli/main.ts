import { Command, CommanderError } from 'commander';
import { version } from '../version';
import { commands } from './commands';
import { exitWithError } from './output';

/**
 * The `invoicebox` command. Each sub-command lives in its own `*.command.ts` file and is listed in `./commands.ts`.
 * Heavy modules (PDF, OCR, mail parsing) are imported lazily inside the actions, so `start` stays fast.
 */
const program = new Command()
  .name('invoicebox')
  .description('Invoicebox: finds the invoices in your mail, files them in your drive and reconciles them.')
  .version(version, '-v, --version')
  .showHelpAfterError()
  .exitOverride();

for (const register of commands) register(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here with exit code 0; usage errors were already printed by commander.
    process.exit(error.exitCode);
  }
  exitWithError(error);
}
