import type { Line, ModelEndpointOptions } from '../extraction/extraction.types';
import { askModelJson } from '../extraction/model/model.client';
import { checkBalances } from './balance-check';
import type { ParsedStatement, StatementIssue } from './statement.types';
import { compactDate, currencyCode, decimalMinor, issue, joinText, transaction } from './statement.util';

/**
 * The optional OpenAI-compatible model reads a PDF statement (the same endpoint, client and settings as invoice
 * extraction, model.client.ts). It is asked only when the rules' reading is in doubt (no rows, or the balances do
 * not add up), and its answer is taken only when it passes the balance check on its own numbers: opening + credits −
 * debits = closing, and every running balance it reports follows from the one before. A model can invent rows; only
 * a reading that adds up to the printed opening and closing balances is trusted, else the rules' reading stands.
 */

const TX_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['date', 'description', 'amount', 'balance'],
  properties: {
    date: { type: 'string', description: 'booking date as YYYY-MM-DD (not the value date)' },
    description: { type: 'string' },
    amount: { type: 'string', description: 'signed plain decimal: negative for money out (debit), e.g. "-12.50"' },
    balance: { type: ['string', 'null'], description: 'running balance printed on the row, plain decimal, or null' },
  },
} as const;

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['currency', 'opening_balance', 'closing_balance', 'transactions'],
  properties: {
    currency: { type: ['string', 'null'], description: 'ISO 4217 code of the account' },
    opening_balance: { type: ['string', 'null'], description: 'plain decimal, negative when overdrawn' },
    closing_balance: { type: ['string', 'null'], description: 'plain decimal, negative when overdrawn' },
    transactions: { type: 'array', items: TX_SCHEMA, description: 'every transaction row in the order printed' },
  },
} as const;

const PROMPT =
  'Read this bank statement. List every transaction row in the order printed (not totals, carried-over balances, interest or fee summaries). Answer with JSON only; null for anything not printed.';

/** The rules' reading is in doubt: no rows, or its balances do not add up. */
export function statementInDoubt(st: ParsedStatement): boolean {
  return st.transactions.length === 0 || checkBalances(st) !== null;
}

/** The model's answer as a statement, or why it cannot be one. */
export function statementFromAnswer(
  rules: ParsedStatement,
  answer: Record<string, unknown>,
): { statement: ParsedStatement } | { reason: string } {
  const currency = currencyCode(typeof answer.currency === 'string' ? answer.currency : null) ?? rules.currency;
  const money = (v: unknown) =>
    typeof v === 'string' || typeof v === 'number' ? decimalMinor(String(v), currency) : null;
  const opening = money(answer.opening_balance);
  const closing = money(answer.closing_balance);
  // Without both balances nothing can be checked.
  if (opening === null || closing === null) return { reason: 'it states no opening and closing balance' };
  const rows = Array.isArray(answer.transactions) ? (answer.transactions as Array<Record<string, unknown>>) : [];
  if (!rows.length) return { reason: 'it lists no transactions' };
  const transactions = [];
  for (const [i, r] of rows.entries()) {
    const date = compactDate(typeof r.date === 'string' ? r.date : null);
    const amount = money(r.amount);
    if (!date || amount === null || amount === 0) return { reason: `row ${i + 1} has no valid date or amount` };
    const balance = r.balance === null || r.balance === undefined ? null : money(r.balance);
    transactions.push(
      transaction({
        date,
        description: joinText(typeof r.description === 'string' ? r.description : ''),
        amountMinor: Math.abs(amount),
        type: amount < 0 ? 'debit' : 'credit',
        currency: currency ?? 'XXX',
        balanceAfterMinor: balance,
      }),
    );
  }
  const statement: ParsedStatement = {
    ...rules,
    currency,
    openingBalanceMinor: opening,
    closingBalanceMinor: closing,
    transactions,
    warnings: rules.warnings.filter((w) => w.code !== 'no_transactions' && w.code !== 'balance_mismatch'),
  };
  // Balances the rules read from the page must agree with the model's: it may not move the goalposts.
  if (rules.openingBalanceMinor !== null && rules.openingBalanceMinor !== opening)
    return { reason: 'its opening balance differs from the printed one' };
  if (rules.closingBalanceMinor !== null && rules.closingBalanceMinor !== closing)
    return { reason: 'its closing balance differs from the printed one' };
  const mismatch = checkBalances(statement);
  if (mismatch) return { reason: `it fails the balance check (${mismatch.message})` };
  return { statement };
}

/**
 * Asks the model when the rules' reading is in doubt; returns its reading when that passes the balance check,
 * else the rules' reading with a warning saying why the model's was not used.
 */
export async function improveStatementWithModel(
  rules: ParsedStatement,
  lines: Line[],
  options: ModelEndpointOptions,
): Promise<ParsedStatement> {
  if (!statementInDoubt(rules)) return rules;
  const text = lines
    .map((l) => l.cells.map((c) => c.text).join('   '))
    .join('\n')
    .slice(0, 48_000);
  const note = (w: StatementIssue) => ({ ...rules, warnings: [...rules.warnings, w] });
  let answer: Record<string, unknown>;
  try {
    answer = await askModelJson(options, {
      system: 'You read bank statements and answer with JSON that matches the given schema.',
      prompt: `${PROMPT}\n\n${text}`,
      schemaName: 'bank_statement',
      schema: SCHEMA as unknown as Record<string, unknown>,
    });
  } catch (error) {
    return note(issue('model_failed', `Model endpoint: ${error instanceof Error ? error.message : String(error)}`));
  }
  const r = statementFromAnswer(rules, answer);
  if ('statement' in r) return r.statement;
  return note(issue('model_rejected', `The model's reading was not used: ${r.reason}.`));
}
