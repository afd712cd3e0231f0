import type { Command } from 'commander';
import { AppError } from '../errors';
import { loadRuntime } from './lazy';
import { printJson } from './output';

interface SyncOptions {
  account?: string;
  drive?: boolean;
  json?: boolean;
}

/** A one-line progress bar on a terminal: `[#####-----]  50% message`. */
function progressLine(percent: number, message: string): string {
  const width = 24;
  const filled = Math.round((Math.max(0, Math.min(100, percent)) / 100) * width);
  const columns = process.stderr.columns ?? 80;
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(percent)).padStart(3)}% ${message}`
    .slice(0, columns - 1)
    .padEnd(columns - 1);
}

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description(
      "sync the owner's connected mailboxes (IMAP, Gmail) into the invoice store, as the Gmail Sync button does",
    )
    .option('--account <email>', 'only this connected mailbox')
    .option('--drive', 'then file the new invoices in the drive chosen in Settings')
    .option('--json', 'print the per-account results as JSON on stdout')
    .action(async (options: SyncOptions) => {
      const { loadConfig } = await import('../config');
      const config = loadConfig();
      const { createRuntime, createLogger } = await loadRuntime();
      const runtime = await createRuntime(config, createLogger('warn', process.stderr));
      const tty = process.stderr.isTTY && !options.json;
      const progress = async (percent: number, message: string) => {
        if (tty) process.stderr.write(progressLine(percent, message));
      };
      try {
        const owner = await runtime.users.owner();
        if (!owner) {
          throw new Error('this Invoicebox has no owner yet: open the web app and create the owner account first');
        }
        const { accounts } = await runtime.accounts.list(owner.id);
        const chosen = options.account
          ? accounts.filter((a) => a.email.toLowerCase() === options.account!.toLowerCase())
          : accounts;
        if (options.account && chosen.length === 0) {
          throw new AppError(`no connected mailbox is ${options.account}`, {
            code: 'not_found',
            status: 404,
            exitCode: 2,
          });
        }
        const ids = chosen.map((a) => a.userId);
        const results = await runtime.mailSync.sync(owner.id, ids, { progress });
        const drive = options.drive ? await runtime.drive.upload(owner.id, { accountIds: ids, progress }) : null;
        if (tty) process.stderr.write('\n');
        if (options.json) printJson({ accounts: results, drive });
        else {
          for (const r of results) console.log(`${r.email}: ${r.ok ? '' : 'failed: '}${r.message}`);
          if (results.length === 0) console.log('No mail account is connected yet');
          if (drive) {
            console.log(
              `Drive (${drive.drive}): ${drive.uploaded} uploaded, ${drive.linked} already there, ${drive.failed} failed`,
            );
          }
        }
        if (results.some((r) => !r.ok)) process.exitCode = 1;
      } finally {
        const { shutdownExtraction } = await import('../extraction/index');
        await shutdownExtraction();
        await runtime.close();
      }
    });
}
