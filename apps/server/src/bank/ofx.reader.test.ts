import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bankDatasets, pct } from '../../test/bank/bank-datasets';
import { describeStatementReader } from '../../test/bank/statement-reader.contract';
import { ofxSample } from '../../test/bank/statement-samples';
import { ofxReader, parseOfx } from './ofx.reader';
import type { ParsedStatement } from './statement.types';

const dir = path.join(bankDatasets, 'ofx');
const read = async (file: string) => ofxReader.read(new Uint8Array(readFileSync(path.join(dir, file))), file);
const statements = async (file: string): Promise<ParsedStatement[]> => {
  const r = await read(file);
  if (!r.ok) throw new Error(`${file}: ${JSON.stringify(r.errors)}`);
  return r.statements;
};

/** ofxparse's own assertions (expected/ofxparse_test_parse.py), field by field, as [what, expected, ours]. */
async function ofxparseAssertions(): Promise<Array<[string, unknown, unknown]>> {
  const medium = (await statements('bank_medium.ofx'))[0]!;
  const anz = (await statements('anzcc.ofx'))[0]!;
  const multi = await statements('multiple_accounts2.ofx');
  const empty = (await statements('ofx-v102-empty-tags.ofx'))[0]!;
  const suncorp = (await statements('suncorp.ofx'))[0]!;
  const emptyBalance = (await statements('fail_nice_empty_balance.ofx'))[0]!;
  return [
    ['bank_medium account', '12300000012345678', medium.accountNumber],
    ['bank_medium balance', 38234, medium.closingBalanceMinor],
    ['bank_medium start', '2009-04-01', medium.startDate],
    ['bank_medium end', '2009-05-23', medium.endDate],
    ['bank_medium currency', 'CAD', medium.currency],
    ['bank_medium transactions', 3, medium.transactions.length],
    ['bank_medium tx0 payee', "MCDONALD'S #112", medium.transactions[0]?.counterpartyName],
    ['bank_medium tx0 amount', 660, medium.transactions[0]?.amountMinor],
    ['bank_medium tx0 type', 'debit', medium.transactions[0]?.type],
    ['bank_medium tx0 date', '2009-04-01', medium.transactions[0]?.date],
    ['anzcc account', '1234123412341234', anz.accountNumber],
    ['multiple_accounts2 count', 2, multi.length],
    ['multiple_accounts2 account 0', '9100', multi[0]?.accountNumber],
    ['multiple_accounts2 account 1', '9200', multi[1]?.accountNumber],
    ['empty-tags account', '12345678', empty.accountNumber],
    ['empty-tags curdef', null, empty.currency],
    ['empty-tags currency warning', true, empty.warnings.some((w) => w.code === 'currency_unknown')],
    ['suncorp transactions', 1, suncorp.transactions.length],
    ['suncorp payee', 'EFTPOS WDL HANDYWAY ALDI STORE', suncorp.transactions[0]?.counterpartyName],
    ['suncorp amount', 1685, suncorp.transactions[0]?.amountMinor],
    ['suncorp type', 'debit', suncorp.transactions[0]?.type],
    ['empty_balance transactions', 1, emptyBalance.transactions.length],
    ['empty_balance balance', null, emptyBalance.closingBalanceMinor],
  ];
}

describe('OFX reader on the ofxparse fixtures', () => {
  it('meets every ofxparse assertion on the shared files', async () => {
    const checks = await ofxparseAssertions();
    const wrong = checks.filter(([, e, o]) => e !== o);
    console.info(
      `ofx: ofxparse assertions ${pct(checks.length - wrong.length, checks.length)} (${checks.length - wrong.length}/${checks.length})`,
      wrong,
    );
    expect(wrong).toEqual([]);
  });

  it('reads OFX 1.x SGML and 2.x XML to the same statement', () => {
    const sgml = `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<BRANCHID><ACCTID>DE89 3704 0044 0532 0130 00<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105120000[+1:CET]<TRNAMT>-12,50<FITID>a<NAME>ACME &amp; Co<MEMO>INV-7</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>87.50<DTASOF>20240131</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    const xml = `<?xml version="1.0"?><?OFX OFXHEADER="200" VERSION="220"?><OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR</CURDEF><BANKACCTFROM><BANKID>1</BANKID><BRANCHID></BRANCHID><ACCTID>DE89 3704 0044 0532 0130 00</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM><BANKTRANLIST><DTSTART>20240101</DTSTART><DTEND>20240131</DTEND><STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240105120000[+1:CET]</DTPOSTED><TRNAMT>-12.50</TRNAMT><FITID>a</FITID><NAME>ACME &amp; Co</NAME><MEMO>INV-7</MEMO></STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>87.50</BALAMT><DTASOF>20240131</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    const a = parseOfx(sgml);
    const b = parseOfx(xml);
    expect(a).toEqual(b);
    expect(a.ok && a.statements[0]).toMatchObject({
      accountNumber: 'DE89370400440532013000',
      currency: 'EUR',
      startDate: '2024-01-01',
      endDate: '2024-01-31',
      closingBalanceMinor: 8750,
      transactions: [
        { date: '2024-01-05', amountMinor: 1250, type: 'debit', description: 'ACME & Co INV-7', currency: 'EUR' },
      ],
    });
  });

  it('reads the rows of a transaction list its bank left unclosed', () => {
    const sgml = `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>BRL<CCACCTFROM><ACCTID>1111\n</CCACCTFROM>\n\n<BANKTRANLIST>\n<DTSTART>20240224000000[-3:GMT]\n<DTEND>20240326000000[-3:GMT]\n<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240323000000[-3:GMT]\n<TRNAMT>-13.00\n<FITID>a\n<MEMO>Padaria\n</STMTTRN>\n\n<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240322000000[-3:GMT]\n<TRNAMT>-9.02\n<FITID>b\n</STMTTRN>\n\n<LEDGERBAL>\n<BALAMT>-22.02\n<DTASOF>20240325000000[-3:GMT]\n</LEDGERBAL>\n</CCSTMTRS>\n</CCSTMTTRNRS>\n</CREDITCARDMSGSRSV1>\n</OFX>`;
    const r = parseOfx(sgml);
    expect(r.ok && r.statements[0]).toMatchObject({
      startDate: '2024-02-24',
      endDate: '2024-03-26',
      closingBalanceMinor: -2202,
      transactions: [
        { date: '2024-03-23', amountMinor: 1300, type: 'debit' },
        { date: '2024-03-22', amountMinor: 902, type: 'debit' },
      ],
    });
  });

  it('reads credit-card statements', async () => {
    const [anz] = await statements('anzcc.ofx');
    expect(anz!.currency).toBe('AUD');
    expect(anz!.transactions.length).toBeGreaterThan(0);
  });

  it("gives the 'fail_nice' files clear errors and warnings", async () => {
    const dec = await read('fail_nice_decimal_error.ofx');
    expect(dec).toMatchObject({ ok: false, errors: [{ code: 'entry_skipped', at: 0 }] });
    expect(!dec.ok && dec.errors[0]!.message).toContain('"$120" is not a number');
    const [bal] = await statements('fail_nice_empty_balance.ofx');
    expect(bal!.warnings).toEqual([{ code: 'balance_unreadable', message: '<LEDGERBAL><BALAMT> is empty.' }]);
    expect(parseOfx('<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>')).toMatchObject({
      ok: false,
      errors: [{ code: 'no_statements' }],
    });
    expect(parseOfx(`<OFX>${'<A>'.repeat(200_000)}`)).toMatchObject({ ok: false, errors: [{ code: 'no_statements' }] });
    expect(parseOfx('just text')).toMatchObject({ ok: false, errors: [{ code: 'unsupported_format' }] });
    expect(parseOfx('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><OFX></OFX>')).toMatchObject({
      ok: false,
      errors: [{ code: 'xml_doctype' }],
    });
  });
});

describeStatementReader('ofx', {
  reader: ofxReader,
  sample: ofxSample,
  filename: 'statement.ofx',
  balances: 'closing-only',
});
