import { minorUnitsToDecimal } from '@invoicebox/core';
import type { Command } from 'commander';
import { exitWithError, printJson } from './output';

export function registerStatementCommand(program: Command): void {
  program
    .command('statement')
    .description('read the header and transactions of a bank statement (PDF, CSV, OFX, camt.053 or MT940)')
    .argument('<file>', 'bank statement file')
    .option(
      '--json',
      'print only {bank_name, account_number, start_date, end_date, currency, transactions: [{date, description, amount, type, currency}]}',
    )
    .option('--model-url <url>', 'base URL of an OpenAI-compatible endpoint, asked when a PDF does not add up')
    .option('--model-name <name>', 'model name for --model-url')
    .option('--model-key <key>', 'API key for --model-url')
    .action(
      async (file: string, options: { json?: boolean; modelUrl?: string; modelName?: string; modelKey?: string }) => {
        try {
          const [{ readStatementFileInSandbox }, { mergeStatements }] = await Promise.all([
            import('../bank/statement-file'),
            import('../bank/statement-merge'),
          ]);
          // The same endpoint settings as `extract`; its reading is taken only when it passes the balance check.
          const { loadConfig } = await import('../config');
          const model =
            options.modelUrl && options.modelName
              ? { baseURL: options.modelUrl, apiKey: options.modelKey ?? 'none', model: options.modelName }
              : loadConfig().extractionModel;
          const read = await readStatementFileInSandbox(file, model ? { model } : {});
          if (!read.ok) {
            const first = read.errors[0];
            throw new Error(
              `${file}: ${first?.message ?? 'cannot read the statement'}${first ? ` (${first.code})` : ''}`,
            );
          }
          const s = mergeStatements(read.statements);
          const transactions = s.transactions.map((t) => ({
            date: t.date,
            description: t.description,
            amount: Number(minorUnitsToDecimal(t.amountMinor, t.currency)),
            type: t.type,
            // XXX is ISO 4217's "no currency": the file states none, and the contract says null, never a guess.
            currency: t.currency === 'XXX' ? null : t.currency,
          }));
          if (options.json) {
            printJson({
              bank_name: s.bankName,
              account_number: s.accountNumber,
              start_date: s.startDate,
              end_date: s.endDate,
              currency: s.currency,
              transactions,
            });
            return;
          }
          const money = (minor: number | null) =>
            minor === null ? '—' : `${minorUnitsToDecimal(minor, s.currency ?? 'EUR')} ${s.currency ?? ''}`.trim();
          console.log(`${file}  [${read.format}, ${transactions.length} transaction(s)]`);
          console.log(`bank           ${s.bankName ?? '—'}`);
          console.log(`account        ${s.accountNumber ?? '—'}`);
          console.log(`period         ${s.startDate ?? '—'} to ${s.endDate ?? '—'}`);
          console.log(`balances       ${money(s.openingBalanceMinor)} → ${money(s.closingBalanceMinor)}`);
          for (const t of transactions) {
            const sign = t.type === 'debit' ? '-' : '+';
            console.log(
              `${t.date}  ${`${sign}${t.amount.toFixed(2)}`.padStart(12)} ${t.currency ?? ''}  ${t.description}`,
            );
          }
          for (const w of s.warnings) console.log(`note: ${w.message} (${w.code})`);
        } catch (error) {
          exitWithError(error);
        }
      },
    );
}
