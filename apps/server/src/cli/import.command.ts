import type { Command } from 'commander';
import { loadRuntime } from './lazy';
import { printJson } from './output';

interface ImportOptions {
  account?: string;
  json?: boolean;
}

export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description(
      'import an mbox file (a Google Takeout export, say), an .eml file, a folder of them or a Maildir into the invoice store of the owner',
    )
    .argument('<path>', 'mbox file, .eml file, folder or Maildir')
    .option('--account <email>', 'the mailbox these messages belong to (shown as a connected account)')
    .option('--json', 'print the summary as JSON on stdout')
    .action(async (path: string, options: ImportOptions) => {
      const { loadConfig } = await import('../config');
      const config = loadConfig();
      const { createRuntime, createLogger } = await loadRuntime();
      const runtime = await createRuntime(config, createLogger('warn', process.stderr));
      try {
        const owner = await runtime.users.owner();
        if (!owner) {
          throw new Error('this Invoicebox has no owner yet: open the web app and create the owner account first');
        }
        const account = await runtime.accounts.connect(owner.id, {
          provider: 'mbox',
          email: options.account ?? owner.email,
          displayName: options.account ? null : 'Imported mail',
        });
        const { readRawMailPath } = await import('../mail/mail-path.reader');
        const tty = process.stderr.isTTY && !options.json;
        const result = await runtime.ingest.ingest(owner.id, account.userId, readRawMailPath(path), {
          onProgress: (p) => {
            if (tty && p.seen % 25 === 0) process.stderr.write(`\r${p.seen} messages read, ${p.invoices} new invoices`);
          },
        });
        if (tty) process.stderr.write('\n');
        const summary = {
          account: account.email,
          messages_read: result.seen,
          messages_added: result.added,
          invoices_added: result.invoices,
          unreadable: result.unreadable,
        };
        if (options.json) printJson(summary);
        else {
          console.log(
            `Imported ${result.added} new message(s) of ${result.seen} into ${account.email}: ${result.invoices} new invoice(s)` +
              (result.unreadable ? `, ${result.unreadable} unreadable` : ''),
          );
        }
      } finally {
        // OCR workers keep the process alive; they exist only if an image or a scanned PDF was read.
        const { shutdownExtraction } = await import('../extraction/index');
        await shutdownExtraction();
        await runtime.close();
      }
    });
}
