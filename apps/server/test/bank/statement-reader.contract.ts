import { describe, expect, it } from 'vitest';
import { checkBalances } from '../../src/bank/balance-check';
import type { StatementReader, StatementReadResult } from '../../src/bank/statement.types';
import { readStatement } from '../../src/bank/statement-registry';
import { camtSample, csvSample, mt940Sample, ofxSample, SAMPLE } from './statement-samples';

/**
 * The one contract every statement reader passes (camt053, mt940, ofx, csv reader tests call it). Each reader reads
 * the same small statement (statement-samples.ts) written in its format and must give the same answer; bad input is
 * data, never a throw.
 */
export interface StatementReaderHarness {
  reader: StatementReader;
  /** The sample statement in this format; `tamper` breaks its balances by 1.00. */
  sample(tamper?: boolean): string;
  /** The file name a bank would give it. */
  filename: string;
  /** Which balances the format carries, so the balance check has something to break. */
  balances: 'opening-closing' | 'running' | 'closing-only';
}

const enc = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const SAMPLES: Record<string, string> = {
  camt053: camtSample(),
  mt940: mt940Sample(),
  ofx: ofxSample(),
  csv: csvSample(),
  pdf: '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n',
};
const cents = (decimal: string) => Math.round(Number(decimal) * 100);

function expectWellFormed(r: StatementReadResult) {
  if (!r.ok) {
    expect(r.errors.length).toBeGreaterThan(0);
    for (const e of r.errors) {
      expect(e.code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(e.message.length).toBeGreaterThan(0);
    }
    return;
  }
  for (const st of r.statements) {
    for (const t of st.transactions) {
      expect(t.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (t.valueDate !== null) expect(t.valueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isSafeInteger(t.amountMinor) && t.amountMinor >= 0).toBe(true);
      expect(['debit', 'credit']).toContain(t.type);
      expect(t.currency).toMatch(/^[A-Z]{3}$/);
      expect(typeof t.description).toBe('string');
    }
    for (const w of st.warnings) expect(w.code).toMatch(/^[a-z][a-z0-9_]*$/);
  }
}

export function describeStatementReader(name: string, h: StatementReaderHarness) {
  describe(`StatementReader contract: ${name}`, () => {
    const bytes = (tamper = false) => enc(h.sample(tamper));

    it('accepts its own format by content, whatever the file is called', () => {
      const head = bytes().subarray(0, 4096);
      expect(h.reader.accepts(head, h.filename)).toBe(true);
      expect(h.reader.accepts(head, 'upload.bin')).toBe(true);
    });

    it('does not accept the other formats', () => {
      for (const [format, text] of Object.entries(SAMPLES)) {
        if (format === h.reader.format) continue;
        expect(h.reader.accepts(enc(text).subarray(0, 4096), 'upload.bin'), format).toBe(false);
      }
    });

    it('reads the sample: header, transactions in file order, booking dates, positive minor units, types', async () => {
      const r = await h.reader.read(bytes(), h.filename);
      expectWellFormed(r);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(r.format).toBe(h.reader.format);
      expect(r.statements).toHaveLength(1);
      const st = r.statements[0]!;
      expect(st.accountNumber === null || st.accountNumber === SAMPLE.account).toBe(true);
      if (h.reader.format !== 'csv') expect(st.accountNumber).toBe(SAMPLE.account);
      expect(st.currency).toBe('EUR');
      expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type, t.currency])).toEqual(
        SAMPLE.transactions.map((t) => [t.date, cents(t.amount), t.type, 'EUR']),
      );
      st.transactions.forEach((t, i) => {
        expect(t.description).toContain(SAMPLE.transactions[i]!.text);
        expect(t.description).toContain(SAMPLE.transactions[i]!.name);
        if (t.valueDate !== null) expect(t.valueDate).toBe(SAMPLE.transactions[i]!.valueDate);
      });
      if (h.balances === 'opening-closing') {
        expect(st.openingBalanceMinor).toBe(cents(SAMPLE.opening));
        expect(st.closingBalanceMinor).toBe(cents(SAMPLE.closing));
      }
      if (h.balances === 'closing-only') expect(st.closingBalanceMinor).toBe(cents(SAMPLE.closing));
      expect(st.warnings).toEqual([]);
      expect(checkBalances(st)).toBeNull();
    });

    it('is deterministic and leaves the input bytes alone', async () => {
      const input = bytes();
      const copy = input.slice();
      const a = await h.reader.read(input, h.filename);
      const b = await h.reader.read(input, h.filename);
      expect(a).toEqual(b);
      expect(input).toEqual(copy);
    });

    it('flags balances that do not add up, naming the row, through the registry', async () => {
      const r = await readStatement(bytes(true), h.filename);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      const w = r.statements[0]!.warnings.find((x) => x.code === 'balance_mismatch');
      if (h.balances === 'closing-only') {
        // Without an opening balance there is nothing to add up: no check, not a failure.
        expect(w).toBeUndefined();
        return;
      }
      expect(w).toMatchObject({ code: 'balance_mismatch', at: SAMPLE.transactions.length - 1 });
      expect(w!.message.length).toBeGreaterThan(10);
      const ok = await readStatement(bytes(), h.filename);
      expect(ok.ok && ok.statements[0]!.warnings).toEqual([]);
    });

    it('returns errors as data for empty, binary, truncated and garbled input, never a throw', async () => {
      const text = h.sample();
      const inputs: Uint8Array[] = [
        new Uint8Array(0),
        new Uint8Array(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)),
        enc(text.slice(0, Math.floor(text.length / 2))),
        enc(text.slice(0, 40)),
        enc(text.replace(/\d/g, 'x')),
        enc(text.replace(/[<>:;]/g, '')),
        enc(`${'A'.repeat(200_000)}\n`),
        enc(text.replace(/\n/g, '\u0000\n')),
      ];
      for (const input of inputs) {
        const r = await h.reader.read(input, h.filename);
        expectWellFormed(r);
      }
    });
  });
}
