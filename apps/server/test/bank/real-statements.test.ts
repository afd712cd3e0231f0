import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isHeldOut,
  loadRealStatements,
  type RealStatementTruth,
  realStatementsDir,
  validateRealStatement,
} from '../../eval/real-statements.dataset';

const readme = readFileSync(path.join(realStatementsDir, 'README.md'), 'utf8');

describe('real statement corpus (eval/real-statements)', () => {
  const entries = loadRealStatements();

  it('has entries, each with its file, hash, split, provenance, licence text and sound rows', () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const { file, item } of entries) expect(validateRealStatement(file, item, readme)).toEqual([]);
  });

  it('names each file prefix in the README and has a licence copy for each source', () => {
    for (const { name, item } of entries) {
      expect(readme).toContain(`| ${name.split('-')[0]}- |`);
      const repo = item.source.split('/')[1]!;
      expect(readFileSync(path.join(realStatementsDir, 'licenses', `${repo}.LICENSE`), 'utf8')).toMatch(/licen[cs]e/i);
    }
  });

  it('holds out by the first hex digit of the SHA-256', () => {
    expect(isHeldOut('3fff')).toBe(true);
    expect(isHeldOut('4000')).toBe(false);
    expect(isHeldOut('a2b4')).toBe(false);
  });

  // The validator must catch what it is for, or the test above proves nothing.
  it('rejects a bad date, a non-positive amount, an unknown type, a wrong hash and rows that miss the balance', () => {
    const { file, item } = entries[0]!;
    const bad: RealStatementTruth = {
      ...item,
      sha256: '0'.repeat(64),
      transactions: [
        { date: '2023-02-30', amount: 1, type: 'debit' },
        { date: '2023-07-01', amount: 0, type: 'debit' },
        { date: '2023-07-01', amount: 1, type: 'refund' as 'debit' },
      ],
      opening_balance: 10,
      closing_balance: 20,
    };
    const problems = validateRealStatement(file, bad, readme).join('\n');
    expect(problems).toMatch(/sha256/);
    expect(problems).toMatch(/#0: date 2023-02-30/);
    expect(problems).toMatch(/#1: amount 0/);
    expect(problems).toMatch(/#2: type refund/);
    expect(problems).toMatch(/rows move the balance/);
    expect(validateRealStatement(path.join(realStatementsDir, 'files', 'absent.pdf'), item, readme)).toEqual([
      'absent.pdf: file missing',
    ]);
  });
});
