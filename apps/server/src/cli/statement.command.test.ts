import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankDatasets } from '../../test/bank/bank-datasets';

/** The real `invoicebox` command, from the bundle that `npm run build` makes (npm test builds first). */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');

function run(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The CLI contract of issue 13: exactly these keys, in the file's order, unknown fields null. */
describe('invoicebox statement --json', { timeout: 120_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(path.resolve(path.dirname(bin), '../dist/cli.js'))) {
      throw new Error('apps/server/dist is missing: run `npm run build` first (npm test does)');
    }
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-statement-cli-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('reads a camt.053 file: header and every entry, amounts positive with their type', () => {
    const out = run(['statement', path.join(bankDatasets, 'camt053', 'camt053.v2.minimal.xml'), '--json']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const json = JSON.parse(out.stdout);
    expect(Object.keys(json)).toEqual([
      'bank_name',
      'account_number',
      'start_date',
      'end_date',
      'currency',
      'transactions',
    ]);
    expect(json.transactions.length).toBeGreaterThan(0);
    for (const t of json.transactions) {
      expect(Object.keys(t)).toEqual(['date', 'description', 'amount', 'type', 'currency']);
      expect(t.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(t.amount).toBeGreaterThan(0);
      expect(['debit', 'credit']).toContain(t.type);
    }
  });

  it('reads a CSV export with debits and credits in one signed column', async () => {
    const file = path.join(dir, 'export.csv');
    await fs.writeFile(
      file,
      'Buchungstag;Verwendungszweck;Betrag;Währung\n03.03.2026;ACME GmbH RE 42;-117,43;EUR\n05.03.2026;Kunde AG;1.500,00;EUR\n',
    );
    const out = run(['statement', file, '--json']);
    expect(out.stderr).toBe('');
    const json = JSON.parse(out.stdout);
    expect(json.transactions).toEqual([
      { date: '2026-03-03', description: 'ACME GmbH RE 42', amount: 117.43, type: 'debit', currency: 'EUR' },
      { date: '2026-03-05', description: 'Kunde AG', amount: 1500, type: 'credit', currency: 'EUR' },
    ]);
    expect(json.bank_name).toBeNull();
  });

  it('leaves the currency null where the file states none, never a placeholder code', async () => {
    const file = path.join(dir, 'no-currency.csv');
    await fs.writeFile(file, 'Date,Description,Amount\n2026-03-03,Grocer,-12.50\n2026-03-04,Refund,3.00\n');
    const json = JSON.parse(run(['statement', file, '--json']).stdout);
    expect(json.currency).toBeNull();
    expect(json.transactions.map((t: { currency: unknown }) => t.currency)).toEqual([null, null]);
  });

  it('says in one line on stderr, exit 1, what it cannot read', async () => {
    const photo = path.join(dir, 'photo.png');
    await fs.writeFile(photo, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const bad = run(['statement', photo, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/photo\.png: /);

    const missing = run(['statement', path.join(dir, 'nope.csv'), '--json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`invoicebox: ${path.join(dir, 'nope.csv')}: no such file`);
  });
});
