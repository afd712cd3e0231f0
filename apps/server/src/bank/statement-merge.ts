import type { ParsedStatement } from './statement.types';

/** Several statements in one file (camt.053, MT940) are one statement of the account over the whole period. */
export function mergeStatements(statements: ParsedStatement[]): ParsedStatement {
  if (statements.length === 1) return statements[0]!;
  const first = statements[0];
  const last = statements.at(-1);
  const dates = (pick: (s: ParsedStatement) => string | null) =>
    statements
      .map(pick)
      .filter((d): d is string => !!d)
      .sort();
  return {
    bankName: first?.bankName ?? null,
    accountNumber: first?.accountNumber ?? null,
    startDate: dates((s) => s.startDate)[0] ?? null,
    endDate: dates((s) => s.endDate).at(-1) ?? null,
    currency: first?.currency ?? null,
    openingBalanceMinor: first?.openingBalanceMinor ?? null,
    closingBalanceMinor: last?.closingBalanceMinor ?? null,
    transactions: statements.flatMap((s) => s.transactions),
    warnings: statements.flatMap((s) => s.warnings),
  };
}
