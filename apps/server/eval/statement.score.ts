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
    failures: [],
    ms: 0,
  };
}
