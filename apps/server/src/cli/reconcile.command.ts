import { readFile } from 'node:fs/promises';
import { minorUnitsToDecimal } from '@invoicebox/core';
import type { Command } from 'commander';
import { exitWithError, printJson } from './output';

interface ReconcileCommandOptions {
  statement: string;
  invoices: string;
  json?: boolean;
}

async function readInput(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new Error(code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(error as Error).message}`);
  }
}

export function registerReconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description(
      'match the debit transactions of a bank statement with invoices, one to one, with a score and a reason',
    )
    .requiredOption('--statement <file>', 'bank statement (CSV, OFX, camt.053, MT940 or PDF)')
    .requiredOption(
      '--invoices <file>',
      'JSON array of {"id", "vendor", "amount", "currency", "invoice_date", "invoice_number"}',
    )
    .option('--json', 'print only {"matches": [{transaction_index, invoice_id, score, explanation}]} as JSON')
    .action(async (options: ReconcileCommandOptions) => {
      try {
        const [{ readStatementFileInSandbox }, { reconcile }, { parseInvoicesJson }] = await Promise.all([
          import('../bank/statement-file'),
          import('../bank/reconcile/reconcile'),
          import('../bank/reconcile/invoice-input'),
        ]);
        // Read as the server reads uploads: in the document sandbox.
        const read = await readStatementFileInSandbox(options.statement);
        if (!read.ok) {
          const first = read.errors[0];
          throw new Error(
            `${options.statement}: ${first?.message ?? 'cannot read the statement'}${first ? ` (${first.code})` : ''}`,
          );
        }
        // Several statements in one file (camt.053, MT940): their transactions in file order, indexed as one list.
        const transactions = read.statements.flatMap((s) => s.transactions);
        const currency = read.statements.find((s) => s.currency)?.currency ?? transactions[0]?.currency ?? null;
        let invoices: ReturnType<typeof parseInvoicesJson>;
        try {
          invoices = parseInvoicesJson((await readInput(options.invoices)).toString('utf8'), currency);
        } catch (error) {
          const message = (error as Error).message;
          throw new Error(message.startsWith(`${options.invoices}:`) ? message : `${options.invoices}: ${message}`);
        }
        const result = reconcile(transactions, invoices);
        if (options.json) {
          printJson({
            matches: result.matches.map((m) => ({
              transaction_index: m.transactionIndex,
              invoice_id: m.invoiceId,
              score: m.score,
              explanation: m.explanation,
            })),
          });
          return;
        }
        const debits = transactions.filter((t) => t.type === 'debit').length;
        console.log(
          `${transactions.length} transactions (${debits} debits), ${invoices.length} invoices: ${result.matches.length} matched`,
        );
        for (const m of result.matches) {
          const t = transactions[m.transactionIndex]!;
          console.log(
            `#${m.transactionIndex}  ${t.date}  ${minorUnitsToDecimal(t.amountMinor, t.currency)} ${t.currency}  →  ${m.invoiceId}  (${m.score.toFixed(2)})  ${m.explanation}`,
          );
        }
      } catch (error) {
        exitWithError(error);
      }
    });
}
