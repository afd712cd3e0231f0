import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RealWorldItem, realWorldDir, reportRealWorld } from '../../eval/real-world.eval';
import {
  isRealWorld2HeldOut,
  licenceFiles,
  loadRealWorld2,
  REAL_WORLD_2_LABEL,
  type RealWorld2Item,
  realWorld2Dir,
  validateRealWorld2,
} from '../../eval/real-world-2.dataset';
import { REAL_WORLD_3_LABEL, realWorld3Dir } from '../../eval/real-world-3.dataset';

/** Every file under a folder, recursively. */
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)],
  );

/** The corpora in eval/real-world-2's schema, each with its held-out rule and validator (real-world-2.dataset.ts). */
const CORPORA = [
  {
    title: 'sixth sample (eval/real-world-2)',
    dir: realWorld2Dir,
    block: 'real-world-2',
    label: REAL_WORLD_2_LABEL,
    wantLabel: 'real-world, sixth sample (2026-12)',
  },
  {
    title: 'fresh samples 20 and 21 (eval/real-world-3)',
    dir: realWorld3Dir,
    block: 'real-world-3',
    label: REAL_WORLD_3_LABEL,
    wantLabel: 'real-world, samples 20 and 21 (2026-12)',
  },
];

describe.each(CORPORA)('real-world corpus, $title', ({ dir, block, label, wantLabel }) => {
  const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
  // Through the first corpus' loader, as run-eval.ts reads it.
  const entries = loadRealWorld2(dir);

  it('has entries, each with its file, hash, split, provenance, licence text and sound fields', () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const { file, item } of entries) expect(validateRealWorld2(file, item, readme, dir)).toEqual([]);
  });

  it('has a truth entry for every file, names each prefix and licence in the README, and stays under 12 MiB', () => {
    const files = readdirSync(path.join(dir, 'files'));
    expect(files.sort()).toEqual(entries.map((e) => e.name).sort());
    for (const { name, item } of entries) {
      expect(readme).toContain(`| ${name.split('-')[0]}- |`);
      for (const f of licenceFiles(dir, item.source)) expect(readme).toContain(f);
    }
    expect(walk(dir).reduce((n, f) => n + statSync(f).size, 0)).toBeLessThan(12 * 1024 * 1024);
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
    const problems = validateRealWorld2(file, bad, readme, dir).join('\n');
    for (const want of [/sha256/, /split does not follow/, /kind fax/, /currency euro/, /invoice_date/, /amount NaN/])
      expect(problems).toMatch(want);
    expect(problems).toMatch(/unscored total/);
    expect(problems).toMatch(/commit is not/);
    expect(validateRealWorld2(file, { ...item, source: 'someone/elsewhere' }, readme, dir).join('\n')).toMatch(
      /not in README[\s\S]*no licence text/,
    );
    expect(validateRealWorld2(path.join(dir, 'files', 'absent.pdf'), item, readme, dir)).toEqual([
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
    const lines = reportRealWorld(results, true, block);
    expect(lines.some((l) => l.startsWith(`${block} dev`))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${block} held-out`))).toBe(true);
    const held = new Set(entries.filter((e) => e.item.split === 'held-out').map((e) => e.name));
    for (const l of lines) for (const name of held) expect(l).not.toContain(name);
    expect(label).toBe(wantLabel);
  });
});

describe('real-world corpus, fresh samples 20 and 21 (eval/real-world-3): what it was cut from', () => {
  const entries = loadRealWorld2(realWorld3Dir);

  it('keeps only the licences of the sources it kept', () => {
    const sources = new Set(entries.map((e) => e.item.source.replace('/', '__')));
    for (const f of readdirSync(path.join(realWorld3Dir, 'licenses')))
      expect(
        [...sources].some((s) => f.startsWith(`${s}__`)),
        f,
      ).toBe(true);
  });

  it('holds no file byte-identical to one in eval/real-world, eval/real-world-2 or ../shared/datasets', () => {
    const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
    const ours = new Map(entries.map((e) => [e.item.sha256, e.name]));
    // ../shared/datasets beside the repository, as run-eval.ts finds it.
    const datasets = path.resolve(realWorld3Dir, '..', '..', '..', '..', '..', 'shared', 'datasets');
    const elsewhere = [realWorldDir, realWorld2Dir, datasets].filter((d) => existsSync(d)).flatMap(walk);
    expect(elsewhere.length).toBeGreaterThan(0);
    const sizes = new Set(entries.map((e) => statSync(e.file).size));
    const same = elsewhere.filter((f) => sizes.has(statSync(f).size) && ours.has(sha(f)));
    expect(same.map((f) => `${ours.get(sha(f))} = ${f}`)).toEqual([]);
  });
});
