import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bankDatasets, camtTruth, headerScore, matchTransactions, pct } from '../../test/bank/bank-datasets';
import { describeStatementReader } from '../../test/bank/statement-reader.contract';
import { camtSample } from '../../test/bank/statement-samples';
import { camt053Reader, parseCamt053 } from './camt053.reader';

const dir = path.join(bankDatasets, 'camt053');
const read = (file: string) => camt053Reader.read(new Uint8Array(readFileSync(path.join(dir, file))), file);

describe('camt.053 reader on the genkgo/camt fixtures', () => {
  it('finds every entry and header field the expected dumps hold', async () => {
    let [truth, found, matched, fields, right] = [0, 0, 0, 0, 0];
    const misses: string[] = [];
    for (const t of camtTruth()) {
      const r = await read(t.file);
      expect(r.ok, t.file).toBe(true);
      if (!r.ok) continue;
      const s = matchTransactions(
        t.transactions,
        (t.lastOnly ? r.statements.slice(-1) : r.statements).flatMap((st) => st.transactions),
      );
      [truth, found, matched] = [truth + s.truth, found + s.found, matched + s.matched];
      const h = headerScore(t, r.statements);
      [fields, right] = [fields + h.fields, right + h.right];
      misses.push(...h.misses);
    }
    console.info(
      `camt053: transactions P ${pct(matched, found)} R ${pct(matched, truth)} (${matched}/${truth}); header ${pct(right, fields)} (${right}/${fields})`,
      misses,
    );
    expect(matched).toBe(truth);
    expect(found).toBe(truth);
    expect(right).toBe(fields);
  });

  it('rounds five-decimal amounts to the currency minor unit and keeps booking and value dates apart', async () => {
    const r = await read('camt053.v2.five.decimals.xml');
    if (!r.ok) throw new Error('not ok');
    const [st] = r.statements;
    expect(st!.openingBalanceMinor).toBe(1815);
    expect(st!.closingBalanceMinor).toBe(2705);
    expect(st!.transactions[0]).toMatchObject({
      date: '2014-12-31',
      valueDate: '2015-01-02',
      amountMinor: 885,
      type: 'credit',
      currency: 'EUR',
      counterpartyIban: 'NL56AGDH9619008421',
      reference: '000000001',
    });
    expect(st!.transactions[0]!.description).toContain('Transaction Description');
  });

  it('reads several statements per file and Dt next to DtTm', async () => {
    const multi = await read('camt053.v2.multi.statement.xml');
    expect(multi.ok && multi.statements.length).toBe(2);
    const dt = await read('camt53.only-Dt-with-DtTm.xml');
    expect(dt.ok && dt.statements[0]!.transactions.every((t) => /^\d{4}-\d{2}-\d{2}$/.test(t.date))).toBe(true);
  });

  it('uses the 3-decimal and 0-decimal minor units of the entry currency', () => {
    const xml = (ccy: string, amt: string) =>
      `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>1</Id><Acct><Id><Othr><Id>42</Id></Othr></Id></Acct><Ntry><Amt Ccy="${ccy}">${amt}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><DtTm>2024-05-01T10:00:00+02:00</DtTm></BookgDt><NtryDtls><TxDtls><RltdPties><Cdtr><Pty><Nm>A &amp; B</Nm></Pty></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;
    const kwd = parseCamt053(xml('KWD', '12.3456'));
    expect(kwd.ok && kwd.statements[0]!.transactions[0]).toMatchObject({
      amountMinor: 12346,
      currency: 'KWD',
      date: '2024-05-01',
      counterpartyName: 'A & B',
    });
    const jpy = parseCamt053(xml('JPY', '1500'));
    expect(jpy.ok && jpy.statements[0]!.transactions[0]!.amountMinor).toBe(1500);
    expect(jpy.ok && jpy.statements[0]!.accountNumber).toBe('42');
  });

  it("dates an entry that carries no dates of its own with the statement's", () => {
    const xml = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>1</Id><CreDtTm>2024-03-14T18:00:00</CreDtTm><Acct><Id><IBAN>BE68539007547034</IBAN></Id></Acct><Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-03-13</Dt></Dt></Bal><Ntry><Amt Ccy="EUR">2.50</Amt><CdtDbtInd>DBIT</CdtDbtInd></Ntry></Stmt></BkToCstmrStmt></Document>`;
    const r = parseCamt053(xml);
    expect(r.ok && r.statements[0]!.transactions).toEqual([
      expect.objectContaining({ date: '2024-03-13', amountMinor: 250, type: 'debit' }),
    ]);
  });

  it('honours a declared ISO-8859-1 encoding', async () => {
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE1</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt><AddtlNtryInf>Gebühr Müller</AddtlNtryInf></Ntry></Stmt></BkToCstmrStmt></Document>`;
    const r = await camt053Reader.read(new Uint8Array(Buffer.from(xml, 'latin1')), 'a.xml');
    expect(r.ok && r.statements[0]!.transactions[0]!.description).toBe('Gebühr Müller');
  });

  it('refuses a DOCTYPE, an entity bomb and malformed XML as errors', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Document><BkToCstmrStmt><Stmt><Id>&lol2;</Id></Stmt></BkToCstmrStmt></Document>`;
    expect(parseCamt053(bomb)).toMatchObject({ ok: false, errors: [{ code: 'xml_doctype' }] });
    const xxe = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><Document><BkToCstmrStmt/></Document>`;
    expect(parseCamt053(xxe)).toMatchObject({ ok: false, errors: [{ code: 'xml_doctype' }] });
    expect(parseCamt053('<Document><BkToCstmrStmt><Stmt></BkToCstmrStmt>')).toMatchObject({
      ok: false,
      errors: [{ code: 'xml_malformed' }],
    });
    expect(parseCamt053('<Document><Other/></Document>')).toMatchObject({
      ok: false,
      errors: [{ code: 'unsupported_format' }],
    });
  });
});

describeStatementReader('camt053', {
  reader: camt053Reader,
  sample: camtSample,
  filename: 'statement.xml',
  balances: 'opening-closing',
});
