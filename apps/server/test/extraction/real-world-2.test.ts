import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RealWorldItem, reportRealWorld } from '../../eval/real-world.eval';
import {
  isRealWorld2HeldOut,
  licenceFiles,
  loadRealWorld2,
  REAL_WORLD_2_LABEL,
  type RealWorld2Item,
  realWorld2Dir,
  validateRealWorld2,
} from '../../eval/real-world-2.dataset';

const readme = readFileSync(path.join(realWorld2Dir, 'README.md'), 'utf8');

describe('real-world corpus, sixth sample (eval/real-world-2)', () => {
  // Through the first corpus' loader, as run-eval.ts reads it.
  const entries = loadRealWorld2();

  it('has entries, each with its file, hash, split, provenance, licence text and sound fields', () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const { file, item } of entries) expect(validateRealWorld2(file, item, readme)).toEqual([]);
  });

  it('has a truth entry for every file, names each prefix and licence in the README, and stays under 12 MB', () => {
    const files = readdirSync(path.join(realWorld2Dir, 'files'));
    expect(files.sort()).toEqual(entries.map((e) => e.name).sort());
    for (const { name, item } of entries) {
      expect(readme).toContain(`| ${name.split('-')[0]}- |`);
      for (const f of licenceFiles(realWorld2Dir, item.source)) expect(readme).toContain(f);
    }
    const bytes = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce(
        (n, d) => n + (d.isDirectory() ? bytes(path.join(dir, d.name)) : statSync(path.join(dir, d.name)).size),
        0,
      );
    expect(bytes(realWorld2Dir)).toBeLessThan(12 * 1024 * 1024);
  });

  it('holds out by the first byte of the SHA-256, divisible by 3', () => {
    expect(isRealWorld2HeldOut('00ff')).toBe(true);
    expect(isRealWorld2HeldOut('ffee')).toBe(true);
    expect(isRealWorld2HeldOut('01ff')).toBe(false);
    expect(entries.some((e) => e.item.split === 'held-out')).toBe(true);
    expect(entries.some((e) => e.item.split === 'dev')).toBe(true);
  });

  // The validator must catch what it is for, or the tests above prove nothing.
  it('rejects a wrong hash, a wrong split, a bad date, currency, kind or unscored field and a missing licence', () => {
    const { file, item } = entries.find((e) => e.item.split === 'dev')!;
    const bad = {
      ...item,
      sha256: '0'.repeat(64),
      split: 'held-out',
      kind: 'fax' as RealWorldItem['kind'],
      currency: 'euro',
      invoice_date: '2024-02-30',
      amount: Number.NaN,
      unscored: ['total' as 'amount'],
      commit: 'abc',
    } satisfies RealWorld2Item;
    const problems = validateRealWorld2(file, bad, readme).join('\n');
    for (const want of [/sha256/, /split does not follow/, /kind fax/, /currency euro/, /invoice_date/, /amount NaN/])
      expect(problems).toMatch(want);
    expect(problems).toMatch(/unscored total/);
    expect(problems).toMatch(/commit is not/);
    expect(validateRealWorld2(file, { ...item, source: 'someone/elsewhere' }, readme).join('\n')).toMatch(
      /not in README[\s\S]*no licence text/,
    );
    expect(validateRealWorld2(path.join(realWorld2Dir, 'files', 'absent.pdf'), item, readme)).toEqual([
      'absent.pdf: file missing',
    ]);
  });

  it('is reported under its own label, its held-out misses never listed', () => {
    const results = entries.map(({ name, item }) => ({
      name,
      item,
      got: { vendor: null, amount: null, currency: null, invoice_date: null, invoice_number: null },
      ms: 1,
    }));
    const lines = reportRealWorld(results, true, 'real-world-2');
    expect(lines.some((l) => l.startsWith('real-world-2 dev'))).toBe(true);
    expect(lines.some((l) => l.startsWith('real-world-2 held-out'))).toBe(true);
    const held = new Set(entries.filter((e) => e.item.split === 'held-out').map((e) => e.name));
    for (const l of lines) for (const name of held) expect(l).not.toContain(name);
    expect(REAL_WORLD_2_LABEL).toBe('real-world, sixth sample (2026-12)');
  });
});
