/**
 * One small statement written in every structured format, so the contract suite can hold each reader to the same
 * answer. `tamper` makes the closing (and the last running) balance wrong by 1.00.
 */

export interface SampleTx {
  date: string;
  valueDate: string;
  amount: string;
  type: 'debit' | 'credit';
  name: string;
  text: string;
}

export const SAMPLE = {
  account: 'DE89370400440532013000',
  currency: 'EUR',
  opening: '100.00',
  closing: '1086.51',
  transactions: [
    { date: '2024-03-01', valueDate: '2024-03-01', amount: '12.50', type: 'debit', name: 'ACME GmbH', text: 'INV-1' },
    {
      date: '2024-03-02',
      valueDate: '2024-03-04',
      amount: '1000.00',
      type: 'credit',
      name: 'Employer AG',
      text: 'Salary March',
    },
    { date: '2024-03-05', valueDate: '2024-03-05', amount: '0.99', type: 'debit', name: 'Shop', text: 'Receipt 42' },
  ] as SampleTx[],
};

/** Running balances after each row, as decimal strings. */
function running(tamper: boolean): string[] {
  let cents = Math.round(Number(SAMPLE.opening) * 100);
  return SAMPLE.transactions.map((t, i) => {
    cents += (t.type === 'debit' ? -1 : 1) * Math.round(Number(t.amount) * 100);
    const shown = tamper && i === SAMPLE.transactions.length - 1 ? cents + 100 : cents;
    return (shown / 100).toFixed(2);
  });
}

const closing = (tamper: boolean) => (tamper ? (Number(SAMPLE.closing) + 1).toFixed(2) : SAMPLE.closing);
const compact = (d: string) => d.replace(/-/g, '');
const yymmdd = (d: string) => compact(d).slice(2);

export function camtSample(tamper = false): string {
  const entries = SAMPLE.transactions
    .map(
      (t) =>
        `<Ntry><Amt Ccy="EUR">${t.amount}</Amt><CdtDbtInd>${t.type === 'debit' ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${t.date}</Dt></BookgDt><ValDt><Dt>${t.valueDate}</Dt></ValDt><NtryDtls><TxDtls><RltdPties><${t.type === 'debit' ? 'Cdtr' : 'Dbtr'}><Nm>${t.name}</Nm></${t.type === 'debit' ? 'Cdtr' : 'Dbtr'}></RltdPties><RmtInf><Ustrd>${t.text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt><GrpHdr><MsgId>1</MsgId><CreDtTm>2024-03-06T08:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S1</Id><CreDtTm>2024-03-06T08:00:00</CreDtTm><FrToDt><FrDtTm>2024-03-01T00:00:00</FrDtTm><ToDtTm>2024-03-05T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>${SAMPLE.account}</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${SAMPLE.opening}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-03-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${closing(tamper)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-03-05</Dt></Dt></Bal>
${entries}
</Stmt></BkToCstmrStmt></Document>`;
}

export function mt940Sample(tamper = false): string {
  const body = SAMPLE.transactions
    .map(
      (t) =>
        `:61:${yymmdd(t.valueDate)}${compact(t.date).slice(4)}${t.type === 'debit' ? 'D' : 'C'}${t.amount.replace('.', ',')}NTRFNONREF\n:86:166?00UEBERWEISUNG?20${t.text}?32${t.name}`,
    )
    .join('\n');
  return `:20:STMT1\n:25:${SAMPLE.account}\n:28C:1/1\n:60F:C240301EUR${SAMPLE.opening.replace('.', ',')}\n${body}\n:62F:C240305EUR${closing(tamper).replace('.', ',')}\n-\n`;
}

export function ofxSample(tamper = false): string {
  const rows = SAMPLE.transactions
    .map(
      (t) =>
        `<STMTTRN><TRNTYPE>${t.type.toUpperCase()}<DTPOSTED>${compact(t.date)}<TRNAMT>${t.type === 'debit' ? '-' : ''}${t.amount}<FITID>${t.date}<NAME>${t.name}<MEMO>${t.text}</STMTTRN>`,
    )
    .join('\n');
  // OFX states no opening balance, so only the closing one can be tampered, and the check then has nothing to add up.
  return `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>37040044<ACCTID>${SAMPLE.account}<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20240301<DTEND>20240305\n${rows}\n</BANKTRANLIST><LEDGERBAL><BALAMT>${closing(tamper)}<DTASOF>20240305</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
}

export function csvSample(tamper = false): string {
  const bal = running(tamper);
  return `Booking date;Value date;Payee;Purpose;Amount;Balance;Currency\n${SAMPLE.transactions
    .map(
      (t, i) =>
        `${t.date.split('-').reverse().join('.')};${t.valueDate.split('-').reverse().join('.')};${t.name};${t.text};${t.type === 'debit' ? '-' : ''}${t.amount.replace('.', ',')};${bal[i]!.replace('.', ',')};EUR`,
    )
    .join('\n')}\n`;
}
