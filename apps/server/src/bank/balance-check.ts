import type { ParsedStatement, StatementIssue } from './statement.types';

/**
 * Opening + credits − debits = closing, and every printed running balance. Returns the first `balance_mismatch`
 * (with the 0-based row where the sums stop adding up) or null when consistent. Missing balances mean no check.
 * Running balances are checked in the file's order or, for newest-first files, in reverse — whichever the first pair
 * of printed balances fits.
 */
export function checkBalances(st: ParsedStatement): StatementIssue | null {
  const txs = st.transactions;
  const signed = txs.map((t) => (t.type === 'debit' ? -t.amountMinor : t.amountMinor));
  const money = (m: number) => (m / 100).toFixed(2);
  // Running balances: each printed balance must follow from the previous printed one plus the rows in between.
  const printed = txs
    .map((t, i) => ({ i, b: t.balanceAfterMinor }))
    .filter((x): x is { i: number; b: number } => x.b !== null);
  if (printed.length >= 2) {
    const fits = (newestFirst: boolean, from: number, to: number) => {
      const [a, b] = [printed[from]!, printed[to]!];
      let sum = 0;
      if (!newestFirst) for (let k = a.i + 1; k <= b.i; k += 1) sum += signed[k]!;
      else for (let k = a.i; k < b.i; k += 1) sum -= signed[k]!;
      return a.b + sum === b.b;
    };
    const newestFirst = !fits(false, 0, 1) && fits(true, 0, 1);
    for (let p = 1; p < printed.length; p += 1) {
      if (!fits(newestFirst, p - 1, p)) {
        const row = printed[p]!.i;
        return {
          code: 'balance_mismatch',
          message: `Row ${row + 1}: the printed balance ${money(printed[p]!.b)} does not follow from the previous balance and the amounts in between.`,
          at: row,
        };
      }
    }
    if (
      st.openingBalanceMinor !== null &&
      !newestFirst &&
      st.openingBalanceMinor + signed[0]! !== printed[0]!.b &&
      printed[0]!.i === 0
    ) {
      return {
        code: 'balance_mismatch',
        message: `Row 1: the opening balance plus the first amount is not the printed balance.`,
        at: 0,
      };
    }
  }
  if (st.openingBalanceMinor === null || st.closingBalanceMinor === null) return null;
  let running = st.openingBalanceMinor;
  for (const s of signed) running += s;
  if (running === st.closingBalanceMinor) return null;
  // Name the first row after which the closing balance can no longer be reached by any printed balance: without
  // running balances that is the last row (we cannot tell which row is wrong, only that the sum is).
  const row = Math.max(0, txs.length - 1);
  return {
    code: 'balance_mismatch',
    message: `Opening ${money(st.openingBalanceMinor)} + credits − debits = ${money(running)}, but the closing balance is ${money(st.closingBalanceMinor)} (difference ${money(st.closingBalanceMinor - running)}).`,
    at: row,
  };
}
