import type { Command } from 'commander';
import { printJson } from './output';

interface ScanCommandOptions {
  json?: boolean;
  extract: boolean;
  attachmentsOptional?: boolean;
  verbose?: boolean;
}

export function registerScanCommand(program: Command): void {
  program
    .command('scan')
    .description(
      'list the invoice emails in an mbox file, an .eml file, a folder of .eml files or a Maildir (read-only)',
    )
    .argument('<path>', 'mbox file, .eml file, folder or Maildir')
    .option('--json', 'print the result as JSON on stdout')
    .option('--no-extract', 'do not read amounts, dates and numbers from the attachments')
    .option('--attachments-optional', 'accept invoice emails without a qualifying attachment')
    .option('--verbose', 'name each message that could not be read, on stderr')
    .action(async (path: string, options: ScanCommandOptions) => {
      // Loaded here so that other commands never pay for mail parsing and extraction.
      const { scanPath } = await import('../mail/scan.service');
      const { nullFieldExtractor } = await import('../mail/field-extractor');
      let extractor = nullFieldExtractor;
      let closeExtraction = async () => {};
      if (options.extract) {
        const { extractInvoiceFields } = await import('../extraction/index');
        const { DocumentUnreadableError } = await import('../mail/field-extractor');
        // Each file is read in the document sandbox; a file it cannot read is reported, and the scan goes on.
        extractor = {
          extract: async ({ bytes, filename, mimeType }) => {
            const result = await extractInvoiceFields({ bytes, filename, ...(mimeType ? { mimeType } : {}) });
            const problem = result.errors[0];
            if (problem) throw new DocumentUnreadableError(problem.code, problem.message);
            return result;
          },
        };
        closeExtraction = async () => {
          // The sandbox's processes keep this one alive until they are stopped.
          const { shutdownExtraction } = await import('../extraction/index');
          await shutdownExtraction();
        };
      }
      let unreadable = 0;
      // Errors propagate to main, which prints one line on stderr and exits non-zero.
      try {
        const result = await scanPath(path, {
          extractor,
          attachmentsRequired: !options.attachmentsOptional,
          onUnreadable: (error) => {
            unreadable += 1;
            if (options.verbose) console.error(`invoicebox: skipped ${error.origin}: ${error.code}: ${error.message}`);
          },
          onExtractionError: (origin, filename, error) => {
            if (options.verbose) console.error(`invoicebox: could not read ${filename} in ${origin}: ${String(error)}`);
          },
        });
        if (options.json) {
          printJson(result);
          return;
        }
        console.log(
          `${result.total_emails} emails scanned, ${result.invoices.length} look like invoices` +
            (unreadable ? `, ${unreadable} could not be read${options.verbose ? '' : ' (--verbose names them)'}` : ''),
        );
        for (const invoice of result.invoices) {
          const amount =
            invoice.amount === null ? 'amount not detected' : `${invoice.amount} ${invoice.currency ?? ''}`.trim();
          const files = invoice.attachments.map((a) => a.filename).join(', ');
          console.log(
            `- ${invoice.vendor ?? 'Unknown Vendor'} <${invoice.email ?? '?'}>: ${amount}` +
              `${invoice.invoice_date ? `, ${invoice.invoice_date}` : ''}` +
              `${invoice.invoice_number ? `, no. ${invoice.invoice_number}` : ''} [${files}]`,
          );
        }
      } finally {
        await closeExtraction().catch(() => {});
      }
    });
}
