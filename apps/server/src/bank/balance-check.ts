import { minorUnitsToDecimal } from '@invoicebox/core';
import type { ParsedStatement, StatementIssue } from './statement.types';

/**
 * Opening + credits − debits = closing, and every printed running balance; on a card statement, whose balance is
 * what is owed, opening + debits − credits = closing. Returns the first `balance_mismatch` of the account's reckoning
 * (with the 0-based row where the sums stop adding up) or null when consistent. Missing balances mean no check.
 * Running balances are followed in the file's order or, for newest-first files, in reverse: whichever the first
 * pair of printed balances fits.
 */
export function checkBalances(st: ParsedStatement): StatementIssue | null {
  const asAccount = checkWithSign(st, 1);
  // A card statement's balances are what the holder owes: purchases (debits) raise them, payments lower them.
  return asAccount && checkWithSign(st, -1) ? asAccount : null;
}

/** The check with credits counted as `sign` (1: an account's balance; -1: a card's amount owed). */
function checkWithSign(st: ParsedStatement, sign: 1 | -1): StatementIssue | null {
  const txs = st.transactions;
  const signed = txs.map((t) => sign * (t.type === 'debit' ? -t.amountMinor : t.amountMinor));
  const money = (m: number) => minorUnitsToDecimal(m, st.currency ?? 'XXX');
  const mismatch = (at: number, message: string): StatementIssue => ({ code: 'balance_mismatch', message, at });
  const printed = txs
    .map((t, i) => ({ i, b: t.balanceAfterMinor }))
    .filter((x): x is { i: number; b: number } => x.b !== null);
  let newestFirst = false;
  if (printed.length >= 2) {
    // Each printed balance must follow from the previous printed one plus the rows in between.
    const fits = (reverse: boolean, from: number, to: number) => {
      const [a, b] = [printed[from]!, printed[to]!];
      let sum = 0;
      let start = a.b;
      if (!reverse)
        for (let k = a.i + 1; k <= b.i; k += 1) {
          // The chain starts again from a balance printed before this row (a combined statement's next account).
          const restart = txs[k]!.balanceBeforeMinor;
          if (restart !== undefined) [start, sum] = [restart, 0];
          sum += signed[k]!;
        }
      else for (let k = a.i; k < b.i; k += 1) sum -= signed[k]!;
      return start + sum === b.b;
    };
    newestFirst = !fits(false, 0, 1) && fits(true, 0, 1);
    for (let p = 1; p < printed.length; p += 1) {
      if (!fits(newestFirst, p - 1, p)) {
        const row = printed[p]!.i;
        return mismatch(
          row,
          `Row ${row + 1}: the printed balance ${money(printed[p]!.b)} does not follow from the previous balance and the amounts in between.`,
        );
      }
    }
  }
  if (st.openingBalanceMinor !== null && printed.length >= 1) {
    // The oldest printed balance must follow from the opening balance and the rows before it.
    const oldest = newestFirst ? printed[printed.length - 1]! : printed[0]!;
    const before = newestFirst ? signed.slice(oldest.i) : signed.slice(0, oldest.i + 1);
    const expected = st.openingBalanceMinor + before.reduce((a, b) => a + b, 0);
    const restarted = !newestFirst && txs.slice(0, oldest.i + 1).some((t) => t.balanceBeforeMinor !== undefined);
    if (expected !== oldest.b && !restarted) {
      return mismatch(
        oldest.i,
        `Row ${oldest.i + 1}: the opening balance ${money(st.openingBalanceMinor)} and the amounts up to this row give ${money(expected)}, but the row shows ${money(oldest.b)}.`,
      );
    }
  }
  if (st.openingBalanceMinor === null || st.closingBalanceMinor === null) return null;
  // Several accounts in one statement, each with its own opening: the running balances above were their check.
  if (txs.some((t) => t.balanceBeforeMinor !== undefined) && printed.length >= 2) return null;
  const total = st.openingBalanceMinor + signed.reduce((a, b) => a + b, 0);
  if (total === st.closingBalanceMinor) return null;
  // Without running balances no single row can be blamed; the statement breaks at its last row.
  return mismatch(
    Math.max(0, txs.length - 1),
    `Opening ${money(st.openingBalanceMinor)} + credits − debits = ${money(total)}, but the closing balance is ${money(st.closingBalanceMinor)} (difference ${money(st.closingBalanceMinor - total)}).`,
  );
}
