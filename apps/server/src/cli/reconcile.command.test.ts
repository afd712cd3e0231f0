import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The real `invoicebox` command, from the bundle that `npm run build` makes (npm test builds first). */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');

function run(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const transaction = (date: string, amountMinor: number, description: string, type = 'debit') => ({
  date,
  description,
  amountMinor,
  type,
  currency: 'EUR',
});

describe('invoicebox reconcile', { timeout: 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(path.resolve(path.dirname(bin), '../dist/cli.js'))) {
      throw new Error('apps/server/dist is missing: run `npm run build` first (npm test does)');
    }
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-reconcile-cli-'));
    // A CSV export as banks give them: one signed amount column, debits negative.
    const rows = [
      transaction('2026-03-05', 11743, 'SEPA ACME SOFTWARE GMBH RE INV-2026-0042'),
      transaction('2026-03-06', 8990, 'ACME SOFTWARE refund', 'credit'),
      transaction('2026-03-06', 8990, 'Kartenzahlung GLOBEX BERLIN'),
      transaction('2026-03-09', 8990, 'KARTENZAHLUNG ACME SOFTWARE'),
      transaction('2026-03-10', 30065, 'ACME SAMMELZAHLUNG'),
    ];
    await fs.writeFile(
      path.join(dir, 'statement.csv'),
      [
        'Date,Description,Amount,Currency',
        ...rows.map(
          (r) =>
            `${r.date},"${r.description}",${r.type === 'debit' ? '-' : ''}${(r.amountMinor / 100).toFixed(2)},${r.currency}`,
        ),
      ].join('\n'),
    );
    await fs.writeFile(
      path.join(dir, 'invoices.json'),
      JSON.stringify([
        {
          id: 'inv-1',
          vendor: 'ACME Software GmbH',
          amount: '€117.43',
          currency: 'EUR',
          invoice_date: '2026-03-02',
          invoice_number: 'INV-2026-0042',
        },
        {
          id: 'inv-2',
          vendor: 'Acme Software',
          amount: 89.9,
          currency: 'EUR',
          invoice_date: '2026-03-01',
          invoice_number: null,
        },
        {
          id: 'inv-3',
          vendor: 'ACME',
          amount: '100.55',
          currency: 'EUR',
          invoice_date: '2026-03-01',
          invoice_number: null,
        },
        {
          id: 'inv-4',
          vendor: 'ACME',
          amount: '200.10',
          currency: 'EUR',
          invoice_date: '2026-03-01',
          invoice_number: null,
        },
      ]),
    );
    await fs.writeFile(path.join(dir, 'broken.json'), '{');
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('prints the matches with transaction_index, invoice_id, score and explanation', () => {
    const r = run([
      'reconcile',
      '--statement',
      path.join(dir, 'statement.csv'),
      '--invoices',
      path.join(dir, 'invoices.json'),
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { matches: Array<Record<string, unknown>> };
    expect(Object.keys(out)).toEqual(['matches']);
    expect(out.matches.map((m) => [m.transaction_index, m.invoice_id])).toEqual([
      [0, 'inv-1'],
      [3, 'inv-2'],
    ]);
    for (const m of out.matches) {
      expect(Object.keys(m)).toEqual(['transaction_index', 'invoice_id', 'score', 'explanation']);
      expect(m.score).toBeGreaterThan(0);
      expect(m.score).toBeLessThanOrEqual(1);
    }
    expect(out.matches[0]!.explanation).toBe(
      "amount equal, paid 3 days after the invoice date, invoice number 'INV-2026-0042' in the description, 'ACME SOFTWARE' in the description",
    );
  });

  it('fails with one line on stderr and exit 1 for a missing or unreadable file', () => {
    const missing = run([
      'reconcile',
      '--statement',
      path.join(dir, 'nope.json'),
      '--invoices',
      path.join(dir, 'invoices.json'),
      '--json',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim().split('\n')).toEqual([`invoicebox: ${path.join(dir, 'nope.json')}: no such file`]);
    const broken = run([
      'reconcile',
      '--statement',
      path.join(dir, 'statement.csv'),
      '--invoices',
      path.join(dir, 'broken.json'),
      '--json',
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toContain('broken.json: not JSON');
  });
});
