import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BankExportTruth,
  bankExportsDir,
  isBankExportHeldOut,
  licenceFile,
  loadBankExports,
  validateBankExport,
} from '../../eval/bank-exports.dataset';

const readme = readFileSync(path.join(bankExportsDir, 'README.md'), 'utf8');

describe('real bank export corpus (eval/bank-exports)', () => {
  const entries = loadBankExports();

  it('has entries, each with its file, hash, split, provenance, licence text and sound rows', () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const { file, item } of entries) expect(validateBankExport(file, item, readme)).toEqual([]);
  });

  it('has a truth entry for every file and leaves out the two statements of real customers', () => {
    expect(readdirSync(path.join(bankExportsDir, 'files')).sort()).toEqual(entries.map((e) => e.name).sort());
    for (const name of [
      'stan-Girokonto_5434805604_Kontoauszug_20220104.pdf',
      'stan-PB_KAZ_KtoNr_0914083113_03-06-2016_0313.pdf',
    ])
      expect(existsSync(path.join(bankExportsDir, 'files', name))).toBe(false);
  });

  it('names each file prefix in the README and has a licence copy for each source', () => {
    for (const { name, item } of entries) {
      expect(readme).toContain(`| ${name.split('-')[0]}- |`);
      expect(readme).toContain(`licenses/${licenceFile(item.source)}`);
      // The BSD-2-Clause text never says "license": its grant begins "Redistribution and use".
      expect(readFileSync(path.join(bankExportsDir, 'licenses', licenceFile(item.source)), 'utf8')).toMatch(
        /licen[cs]e|redistribution and use/i,
      );
    }
  });

  it('keeps round 1 in dev and holds out rounds 2 and 3 by the first byte of the SHA-256', () => {
    expect(isBankExportHeldOut(3, '00ff')).toBe(true);
    expect(isBankExportHeldOut(3, '01ff')).toBe(false);
    expect(isBankExportHeldOut(2, '00ff')).toBe(true);
    expect(isBankExportHeldOut(2, '03ff')).toBe(true);
    expect(isBankExportHeldOut(2, '01ff')).toBe(false);
    expect(isBankExportHeldOut(1, '00ff')).toBe(false);
    expect(entries.filter((e) => e.item.round === 1).every((e) => e.item.split === 'dev')).toBe(true);
    expect(entries.some((e) => e.item.split === 'held-out')).toBe(true);
  });

  // The validator must catch what it is for, or the tests above prove nothing.
  it('rejects a bad date, a non-positive amount, an unknown type, a wrong hash, a wrong split and rows that miss the balance', () => {
    const { file, item } = entries.find((e) => e.item.round === 2 && e.item.split === 'dev')!;
    const bad: BankExportTruth = {
      ...item,
      sha256: '0'.repeat(64),
      split: 'held-out',
      currency: 'euro',
      start_date: '2023-13-01',
      unscored: [],
      transactions: [
        { date: '2023-02-30', amount: 1, type: 'debit' },
        { date: '2023-07-01', amount: 0, type: 'debit' },
        { date: '2023-07-01', amount: 1, type: 'refund' as 'debit' },
      ],
      opening_balance: 10,
      closing_balance: 20,
    };
    const problems = validateBankExport(file, bad, readme).join('\n');
    expect(problems).toMatch(/sha256/);
    expect(problems).toMatch(/split does not follow/);
    expect(problems).toMatch(/currency euro/);
    expect(problems).toMatch(/start_date 2023-13-01/);
    expect(problems).toMatch(/#0: date 2023-02-30/);
    expect(problems).toMatch(/#1: amount 0/);
    expect(problems).toMatch(/#2: type refund/);
    expect(problems).toMatch(/rows move the balance/);
    // Unscored balances are not checked, and round 1 is dev whatever its hash.
    expect(validateBankExport(file, { ...bad, unscored: ['closing_balance'] }, readme).join('\n')).not.toMatch(
      /rows move the balance/,
    );
    const r1 = entries.find((e) => e.item.round === 1)!;
    expect(validateBankExport(r1.file, { ...r1.item, split: 'held-out' }, readme).join('\n')).toMatch(
      /split does not follow/,
    );
    expect(validateBankExport(file, { ...item, source: 'someone/elsewhere' }, readme).join('\n')).toMatch(
      /not in README/,
    );
    expect(validateBankExport(path.join(bankExportsDir, 'files', 'absent.csv'), item, readme)).toEqual([
      'absent.csv: file missing',
    ]);
  });

  it('copied the files byte-exact: each hash is the one recorded', () => {
    for (const { file, item } of entries)
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(item.sha256);
  });
});
