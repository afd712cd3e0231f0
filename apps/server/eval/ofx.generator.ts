import type { GeneratedStatement } from './statement.generator';

/**
 * OFX renderings of generated statements (statement.generator.ts supplies the data and so the truth): OFX 1.02 SGML
 * (header block, leaf elements left unclosed, CRLF, Windows-1252 bytes) and OFX 2.x XML (closed elements, <?OFX?>
 * processing instruction), bank (<STMTRS>) and credit-card (<CCSTMTRS>) statements, dates with and without a time and
 * a [offset:zone] suffix, TRNTYPE words beyond DEBIT/CREDIT. OFX carries no opening balance: the ledger balance is the
 * closing one.
 */

export type OfxDialect = 'sgml' | 'xml';

export interface GeneratedOfx {
  id: string;
  dialect: OfxDialect;
  bytes: Uint8Array;
  truth: GeneratedStatement['truth'] & { localAccount: string };
}

const DEBIT_TYPES = ['DEBIT', 'POS', 'PAYMENT', 'CHECK', 'ATM', 'FEE', 'DIRECTDEBIT'];
const CREDIT_TYPES = ['CREDIT', 'DEP', 'XFER', 'DIRECTDEP', 'INT'];

const ymd = (iso: string) => iso.replace(/-/g, '');
const amount = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderOfx(g: GeneratedStatement, dialect: OfxDialect, seed: number): GeneratedOfx {
  const t = g.truth;
  const card = seed % 3 === 2;
  // A local account number (OFX files rarely carry an IBAN): the IBAN's last digits.
  const localAccount = t.accountNumber.replace(/\D/g, '').slice(-10);
  const stamp = (iso: string, k: number) =>
    k % 3 === 0 ? ymd(iso) : k % 3 === 1 ? `${ymd(iso)}120000` : `${ymd(iso)}120000.000[-5:EST]`;
  const el: string[] = [];
  // [depth, tag, value?] → one line; aggregates open and close.
  const leaf = (tag: string, value: string) =>
    el.push(dialect === 'xml' ? `<${tag}>${esc(value)}</${tag}>` : `<${tag}>${value}`);
  const open = (tag: string) => el.push(`<${tag}>`);
  const close = (tag: string) => el.push(`</${tag}>`);
  open('OFX');
  open('SIGNONMSGSRSV1');
  open('SONRS');
  open('STATUS');
  leaf('CODE', '0');
  leaf('SEVERITY', 'INFO');
  close('STATUS');
  leaf('DTSERVER', `${ymd(t.endDate)}235959`);
  leaf('LANGUAGE', 'ENG');
  open('FI');
  leaf('ORG', t.bankName);
  leaf('FID', String(1000 + (seed % 9000)));
  close('FI');
  close('SONRS');
  close('SIGNONMSGSRSV1');
  const rs = card ? 'CCSTMTRS' : 'STMTRS';
  open(card ? 'CREDITCARDMSGSRSV1' : 'BANKMSGSRSV1');
  open(card ? 'CCSTMTTRNRS' : 'STMTTRNRS');
  leaf('TRNUID', '1');
  open('STATUS');
  leaf('CODE', '0');
  leaf('SEVERITY', 'INFO');
  close('STATUS');
  open(rs);
  leaf('CURDEF', t.currency);
  open(card ? 'CCACCTFROM' : 'BANKACCTFROM');
  if (!card) leaf('BANKID', String(100000 + (seed % 800000)));
  leaf('ACCTID', localAccount);
  if (!card) leaf('ACCTTYPE', 'CHECKING');
  close(card ? 'CCACCTFROM' : 'BANKACCTFROM');
  open('BANKTRANLIST');
  leaf('DTSTART', stamp(t.startDate, seed));
  leaf('DTEND', stamp(t.endDate, seed + 1));
  t.transactions.forEach((x, k) => {
    open('STMTTRN');
    const types = x.type === 'debit' ? DEBIT_TYPES : CREDIT_TYPES;
    leaf('TRNTYPE', types[(seed + k) % types.length]!);
    leaf('DTPOSTED', stamp(x.date, seed + k));
    leaf('TRNAMT', amount(x.type === 'debit' ? -x.amountMinor : x.amountMinor));
    leaf('FITID', `${ymd(x.date)}${String(k).padStart(4, '0')}`);
    leaf('NAME', x.description.slice(0, 32));
    if (k % 2 === 0) leaf('MEMO', x.description);
    close('STMTTRN');
  });
  close('BANKTRANLIST');
  open('LEDGERBAL');
  leaf('BALAMT', amount(t.closingBalanceMinor));
  leaf('DTASOF', stamp(t.endDate, seed + 2));
  close('LEDGERBAL');
  close(rs);
  close(card ? 'CCSTMTTRNRS' : 'STMTTRNRS');
  close(card ? 'CREDITCARDMSGSRSV1' : 'BANKMSGSRSV1');
  close('OFX');
  let text: string;
  let bytes: Uint8Array;
  if (dialect === 'sgml') {
    const header = [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      'VERSION:102',
      'SECURITY:NONE',
      'ENCODING:USASCII',
      'CHARSET:1252',
      'COMPRESSION:NONE',
      'OLDFILEUID:NONE',
      'NEWFILEUID:NONE',
      '',
    ];
    text = [...header, el.join(seed % 2 ? '\r\n' : '')].join('\r\n');
    // Windows-1252: the accented letters of the descriptions as single bytes.
    bytes = Uint8Array.from([...text].map((c) => (c.charCodeAt(0) < 256 ? c.charCodeAt(0) : 63)));
  } else {
    text = [
      '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
      `<?OFX OFXHEADER="200" VERSION="${['200', '211', '220'][seed % 3]}" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>`,
      ...el.map((l) => (seed % 2 ? `  ${l}` : l)),
    ].join('\n');
    bytes = new TextEncoder().encode(text);
  }
  return { id: `ofx-${dialect}-${g.id}`, dialect, bytes, truth: { ...t, localAccount } };
}
