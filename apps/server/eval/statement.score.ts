/** One statement set's tally in the statement eval (statement.eval.ts, real-statements.eval.ts). */
export interface StatementScore {
  name: string;
  files: number;
  truth: number;
  found: number;
  matched: number;
  headerRight: Record<string, number>;
  headerTotal: Record<string, number>;
  balanceOk: number;
  balanceChecked: number;
  /** Statements read with nothing to check against: no opening and closing balance, fewer than two running ones. */
  balanceUnchecked: number;
  failures: string[];
  ms: number;
}

export function newScore(name: string): StatementScore {
  return {
    name,
    files: 0,
    truth: 0,
    found: 0,
    matched: 0,
    headerRight: {},
    headerTotal: {},
    balanceOk: 0,
    balanceChecked: 0,
    balanceUnchecked: 0,
    failures: [],
    ms: 0,
  };
}

/**
 * The balance check's tally over the statements read from one file: a statement counts as checked only where the
 * check had something to go on (an opening and a closing balance, or two running balances); one without balances
 * passes the check trivially and is counted apart, not as passed.
 */
export function tallyBalances(
  s: StatementScore,
  statements: ReadonlyArray<{
    openingBalanceMinor: number | null;
    closingBalanceMinor: number | null;
    transactions: ReadonlyArray<{ balanceAfterMinor: number | null }>;
    warnings: ReadonlyArray<{ code: string }>;
  }>,
): void {
  for (const st of statements) {
    const running = st.transactions.filter((t) => t.balanceAfterMinor !== null).length;
    if ((st.openingBalanceMinor === null || st.closingBalanceMinor === null) && running < 2) {
      s.balanceUnchecked += 1;
      continue;
    }
    s.balanceChecked += 1;
    if (!st.warnings.some((w) => w.code === 'balance_mismatch')) s.balanceOk += 1;
  }
}
