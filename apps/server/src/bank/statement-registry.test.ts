import { describe, expect, it } from 'vitest';
import { camtSample, csvSample, mt940Sample, ofxSample } from '../../test/bank/statement-samples';
import type { StatementReader } from './statement.types';
import { pickReader, readStatement } from './statement-registry';

const enc = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('statement registry', () => {
  it('picks the reader by content, not by the file name', () => {
    expect(pickReader(enc(camtSample()), 'export.txt')?.format).toBe('camt053');
    expect(pickReader(enc(mt940Sample()), 'export.txt')?.format).toBe('mt940');
    expect(pickReader(enc(ofxSample()), 'export.csv')?.format).toBe('ofx');
    expect(pickReader(enc(csvSample()), 'export.txt')?.format).toBe('csv');
  });

  it('sends a PDF to the PDF reader, and returns unsupported_format for an image or an unknown XML', async () => {
    expect(await readStatement(enc('%PDF-1.7\n%âãÏÓ\n'), 'statement.pdf')).toMatchObject({
      ok: false,
      errors: [{ code: 'pdf_invalid' }],
    });
    expect(await readStatement(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'a.png')).toMatchObject({
      ok: false,
      errors: [{ code: 'unsupported_format' }],
    });
    expect(await readStatement(enc('<?xml version="1.0"?><Invoice/>'), 'a.dat')).toMatchObject({
      ok: false,
      errors: [{ code: 'unsupported_format' }],
    });
    expect(await readStatement(new Uint8Array(0), 'a.csv')).toMatchObject({
      ok: false,
      errors: [{ code: 'empty_file' }],
    });
  });

  it('turns a reader that throws into an error instead of a crash', async () => {
    const broken: StatementReader = {
      format: 'csv',
      accepts: () => true,
      read: async () => {
        throw new Error('boom');
      },
    };
    expect(await readStatement(enc('x'), 'x.csv', [broken])).toEqual({
      ok: false,
      errors: [{ code: 'unreadable', message: 'The csv file could not be read: boom' }],
    });
  });

  it('leaves out entries of 0.00, saying so', async () => {
    const r = await readStatement(
      enc(
        ':20:A\n:25:1\n:60F:C240101EUR0,00\n:61:2401020102C1,00NTRFX\n:61:2401030103D0,00NTRFX\n:62F:C240103EUR1,00\n',
      ),
      'x.sta',
    );
    expect(r.ok && r.statements[0]!.transactions.map((t) => t.amountMinor)).toEqual([100]);
    expect(r.ok && r.statements[0]!.warnings).toEqual([
      { code: 'zero_amounts_skipped', message: '1 entry of 0.00 left out: no money moved.' },
    ]);
  });

  it('keeps a statement whose balances do not add up, with a warning naming the row', async () => {
    const r = await readStatement(enc(mt940Sample(true)), 'x.sta');
    expect(r.ok && r.statements[0]!.transactions).toHaveLength(3);
    expect(r.ok && r.statements[0]!.warnings).toEqual([expect.objectContaining({ code: 'balance_mismatch', at: 2 })]);
  });

  it('refuses hostile input with clear errors, quickly', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>&lol9;</Id></Stmt></BkToCstmrStmt></Document>`;
    expect(await readStatement(enc(laughs), 'camt.xml')).toMatchObject({
      ok: false,
      errors: [{ code: 'xml_doctype' }],
    });
    const deep = `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>${'<Stmt>'.repeat(2000)}`;
    const r = await readStatement(enc(deep), 'camt.xml');
    expect(r.ok).toBe(false);
    const broken = await readStatement(enc(':20:X\n:25:1\n:60F:C2401\n:61:garbage\n:86:x\n:62F:\n'), 'a.sta');
    expect(broken.ok && broken.statements[0]!.warnings.map((w) => w.code)).toEqual([
      'tag_unreadable',
      'tag_unreadable',
      'tag_unreadable',
      'currency_unknown',
    ]);
  });
});
