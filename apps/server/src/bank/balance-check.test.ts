import { describe, expect, it } from 'vitest';
import { checkBalances } from './balance-check';
import type { ParsedStatement, StatementTransaction } from './statement.types';
import { emptyStatement, transaction } from './statement.util';

const tx = (signed: number, balance: number | null = null): StatementTransaction =>
  transaction({
    date: '2024-01-01',
    amountMinor: Math.abs(signed),
    type: signed < 0 ? 'debit' : 'credit',
    currency: 'EUR',
    balanceAfterMinor: balance,
  });

const st = (p: Partial<ParsedStatement>): ParsedStatement => ({ ...emptyStatement(), currency: 'EUR', ...p });

describe('balance check', () => {
  it('passes when opening + credits − debits = closing', () => {
    expect(
      checkBalances(st({ openingBalanceMinor: 1000, closingBalanceMinor: 1250, transactions: [tx(500), tx(-250)] })),
    ).toBeNull();
  });

  it("follows a combined statement's next account from its own opening balance, and still finds a break in it", () => {
    const second = { ...tx(250, 10250), balanceBeforeMinor: 10000 };
    const rows = [tx(500, 1500), tx(-250, 1250), second, tx(-50, 10200)];
    expect(checkBalances(st({ openingBalanceMinor: 1000, closingBalanceMinor: 10200, transactions: rows }))).toBeNull();
    const broken = [...rows.slice(0, 3), tx(-50, 10100)];
    expect(checkBalances(st({ openingBalanceMinor: 1000, closingBalanceMinor: 10100, transactions: broken }))?.at).toBe(
      3,
    );
    // Without the restart the same rows break where the next account starts.
    expect(
      checkBalances(
        st({
          openingBalanceMinor: 1000,
          closingBalanceMinor: 10200,
          transactions: [...rows.slice(0, 2), tx(250, 10250), tx(-50, 10200)],
        }),
      )?.at,
    ).toBe(2);
  });

  it('passes a card statement, whose balance is what is owed: opening + debits − credits = closing', () => {
    // 264.25 owed, paid off (a credit), then 19.85 of purchases: 19.85 owed.
    expect(
      checkBalances(
        st({ openingBalanceMinor: 26425, closingBalanceMinor: 1985, transactions: [tx(-998), tx(26425), tx(-987)] }),
      ),
    ).toBeNull();
    expect(
      checkBalances(
        st({ openingBalanceMinor: 100, closingBalanceMinor: 300, transactions: [tx(-100, 200), tx(-100, 300)] }),
      ),
    ).toBeNull();
  });

  it('names the difference when the closing balance does not add up', () => {
    const w = checkBalances(
      st({ openingBalanceMinor: 1000, closingBalanceMinor: 1300, transactions: [tx(500), tx(-250)] }),
    );
    expect(w).toMatchObject({ code: 'balance_mismatch', at: 1 });
    expect(w!.message).toContain('difference 0.50');
  });

  it('names the first row whose running balance breaks, oldest-first and newest-first', () => {
    const oldestFirst = [tx(100, 1100), tx(-50, 1050), tx(-10, 1000), tx(5, 1005)];
    expect(checkBalances(st({ transactions: oldestFirst }))).toMatchObject({ code: 'balance_mismatch', at: 2 });
    const newestFirst = [tx(5, 1045), tx(-10, 1040), tx(-50, 1050), tx(100, 1100)];
    expect(checkBalances(st({ transactions: newestFirst }))).toBeNull();
    const newestFirstBroken = [tx(5, 1045), tx(-10, 1040), tx(-50, 1051), tx(100, 1100)];
    expect(checkBalances(st({ transactions: newestFirstBroken }))).toMatchObject({ at: 2 });
  });

  it('checks the first running balance against the opening balance', () => {
    expect(checkBalances(st({ openingBalanceMinor: 1000, transactions: [tx(100, 1101), tx(-1, 1100)] }))).toMatchObject(
      { at: 0 },
    );
  });

  it('does no check without balances, and formats minor units of the currency', () => {
    expect(checkBalances(st({ transactions: [tx(100), tx(-5)] }))).toBeNull();
    expect(checkBalances(st({ openingBalanceMinor: 5, transactions: [tx(100)] }))).toBeNull();
    const jpy = checkBalances(
      st({ currency: 'JPY', openingBalanceMinor: 1000, closingBalanceMinor: 1500, transactions: [tx(400)] }),
    );
    expect(jpy!.message).toContain('difference 100');
  });
});
