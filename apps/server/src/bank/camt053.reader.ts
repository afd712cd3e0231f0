import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeXml } from '../extraction/einvoice/einvoice.parser';
import type { ParsedStatement, StatementReader, StatementReadResult, StatementTransaction } from './statement.types';
import {
  currencyCode,
  decimalMinor,
  emptyStatement,
  fail,
  headText,
  issue,
  joinText,
  transaction,
} from './statement.util';

/**
 * ISO 20022 camt.053 (BkToCstmrStmt), versions .001.02 to .001.08, several <Stmt> per file. One transaction per <Ntry>
 * (what hit the account; a batch's <TxDtls> only add text). Booking date is the transaction date, value date kept.
 *
 * Security: a DOCTYPE (and so any entity, internal or external) is refused before parsing, entity processing is off and
 * the input is capped, so neither a billion-laughs bomb nor XXE can do anything.
 */

export const CAMT_MAX_BYTES = 50 * 1024 * 1024;

type Node = Record<string, unknown>;

const ARRAYS = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'AddtlNtryInf']);

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  htmlEntities: false,
  isArray: (name) => ARRAYS.has(name),
});

function child(n: unknown, name: string): unknown {
  if (!n || typeof n !== 'object') return undefined;
  const v = (n as Node)[name];
  return Array.isArray(v) ? v[0] : v;
}

function at(n: unknown, ...path: string[]): unknown {
  return path.reduce((cur, p) => child(cur, p), n);
}

function list(n: unknown, name: string): unknown[] {
  if (!n || typeof n !== 'object') return [];
  const v = (n as Node)[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function text(n: unknown): string | null {
  if (n === undefined || n === null) return null;
  if (typeof n === 'string' || typeof n === 'number') return String(n).trim() || null;
  if (typeof n === 'object' && '#text' in (n as Node)) return text((n as Node)['#text']);
  return null;
}

/** The five predefined XML entities (entity processing is off, so these stay as written). */
function unescapeXml(s: string | null): string | null {
  return s === null
    ? null
    : s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (m, e: string) => {
        if (e === 'lt') return '<';
        if (e === 'gt') return '>';
        if (e === 'amp') return '&';
        if (e === 'quot') return '"';
        if (e === 'apos') return "'";
        const code = e.startsWith('#x') ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      });
}

function str(n: unknown, ...path: string[]): string | null {
  return unescapeXml(text(at(n, ...path)));
}

/** <Dt> or <DtTm>: the calendar day as the bank wrote it (time and offset cut, not converted). */
function dateOf(n: unknown): string | null {
  const v = str(n, 'Dt') ?? str(n, 'DtTm');
  const m = v ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

function amountOf(n: unknown): { minor: number | null; currency: string | null } {
  const amt = child(n, 'Amt');
  const currency = currencyCode(amt && typeof amt === 'object' ? String((amt as Node)['@Ccy'] ?? '') : null);
  const raw = text(amt);
  return { minor: raw === null ? null : decimalMinor(raw, currency), currency };
}

function partyName(p: unknown): string | null {
  return str(p, 'Nm') ?? str(p, 'Pty', 'Nm');
}

function accountId(a: unknown): string | null {
  const v = str(a, 'Id', 'IBAN') ?? str(a, 'Id', 'Othr', 'Id');
  return v ? v.replace(/\s+/g, '') : null;
}

const BALANCE_CODE = (b: unknown) =>
  (str(b, 'Tp', 'CdOrPrtry', 'Cd') ?? str(b, 'Tp', 'CdOrPrtry', 'Prtry') ?? '').toUpperCase();

function signedBalance(b: unknown): number | null {
  const { minor } = amountOf(b);
  if (minor === null) return null;
  return str(b, 'CdtDbtInd') === 'DBIT' ? -minor : minor;
}

function readEntry(
  e: unknown,
  index: number,
  st: ParsedStatement,
  statementDate: string | null,
): StatementTransaction | string {
  const { minor, currency } = amountOf(e);
  if (minor === null) return `entry ${index + 1}: amount missing or not a number`;
  const cdi = str(e, 'CdtDbtInd');
  if (cdi !== 'CRDT' && cdi !== 'DBIT') return `entry ${index + 1}: CdtDbtInd is neither CRDT nor DBIT`;
  const booking = dateOf(child(e, 'BookgDt'));
  const value = dateOf(child(e, 'ValDt'));
  // An entry without dates of its own was booked within the statement: the statement's date stands for it.
  const date = booking ?? value ?? statementDate;
  if (!date) return `entry ${index + 1}: no booking or value date`;
  const type = cdi === 'DBIT' ? 'debit' : 'credit';
  const details = list(e, 'NtryDtls').flatMap((d) => list(d, 'TxDtls'));
  const first = details[0];
  const parties = child(first, 'RltdPties');
  // The other side: whom we paid on a debit, who paid us on a credit.
  const cp = type === 'debit' ? 'Cdtr' : 'Dbtr';
  const other = cp === 'Cdtr' ? 'Dbtr' : 'Cdtr';
  // Some banks state only one party; then that one is all we know about the other side.
  const side = child(parties, cp) || child(parties, `${cp}Acct`) ? cp : other;
  const counterpartyName = partyName(child(parties, side)) ?? partyName(child(parties, `Ultmt${side}`));
  const counterpartyIban = accountId(child(parties, `${side}Acct`));
  const remittance = details.flatMap((d) => [
    ...list(child(d, 'RmtInf'), 'Ustrd').map((u) => unescapeXml(text(u))),
    ...list(child(d, 'RmtInf'), 'Strd').map((s) => str(s, 'CdtrRefInf', 'Ref')),
  ]);
  const extra = list(e, 'AddtlNtryInf').map((x) => unescapeXml(text(x)));
  const purpose = remittance.some(Boolean) ? remittance : [...extra, ...details.map((d) => str(d, 'AddtlTxInf'))];
  const reference = str(first, 'Refs', 'EndToEndId') ?? str(e, 'AcctSvcrRef') ?? str(e, 'NtryRef');
  return transaction({
    date,
    valueDate: value,
    description: joinText(counterpartyName, ...purpose),
    amountMinor: Math.abs(minor),
    type,
    currency: currency ?? st.currency ?? 'XXX',
    reference: reference && reference !== 'NOTPROVIDED' ? reference : null,
    counterpartyName,
    counterpartyIban,
  });
}

function readStatement(s: unknown): ParsedStatement {
  const st = emptyStatement();
  const acct = child(s, 'Acct');
  st.accountNumber = accountId(acct);
  st.bankName = str(acct, 'Svcr', 'FinInstnId', 'Nm');
  st.currency = currencyCode(str(acct, 'Ccy'));
  const frTo = child(s, 'FrToDt');
  st.startDate = dateOf({ DtTm: str(frTo, 'FrDtTm') });
  st.endDate = dateOf({ DtTm: str(frTo, 'ToDtTm') });
  const balances = list(s, 'Bal');
  const opening = balances.find((b) => BALANCE_CODE(b) === 'OPBD') ?? balances.find((b) => BALANCE_CODE(b) === 'PRCD');
  const closing = balances.find((b) => BALANCE_CODE(b) === 'CLBD');
  st.currency ??= amountOf(opening ?? closing).currency;
  st.openingBalanceMinor = opening ? signedBalance(opening) : null;
  st.closingBalanceMinor = closing ? signedBalance(closing) : null;
  // The day the statement closes (its period's end, its closing balance's date, or when it was made).
  const statementDate = st.endDate ?? dateOf(child(closing, 'Dt')) ?? dateOf({ DtTm: str(s, 'CreDtTm') });
  list(s, 'Ntry').forEach((e, i) => {
    const t = readEntry(e, i, st, statementDate);
    if (typeof t === 'string') st.warnings.push(issue('entry_skipped', t, i));
    else st.transactions.push(t);
  });
  return st;
}

function hasDoctype(xml: string): boolean {
  const firstElement = xml.search(/<[A-Za-z_]/);
  const prolog = firstElement === -1 ? xml : xml.slice(0, firstElement);
  return /<!DOCTYPE|<!ENTITY/i.test(prolog);
}

export function parseCamt053(xml: string): StatementReadResult {
  if (hasDoctype(xml))
    return fail('xml_doctype', 'The XML declares a DOCTYPE; bank statements never need one, so it is refused.');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return fail('xml_malformed', `The XML is not well-formed: ${valid.err.msg}`, valid.err.line);
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (e) {
    return fail('xml_malformed', `The XML could not be read: ${(e as Error).message}`);
  }
  const root = child(child(doc, 'Document'), 'BkToCstmrStmt');
  if (!root) return fail('unsupported_format', 'Not a camt.053 statement (no Document/BkToCstmrStmt).');
  const statements = list(root, 'Stmt').map(readStatement);
  if (statements.length === 0) return fail('no_statements', 'The camt.053 file holds no <Stmt>.');
  return { ok: true, format: 'camt053', statements };
}

export const camt053Reader: StatementReader = {
  format: 'camt053',
  accepts(head, filename) {
    const t = headText(head);
    if (/camt\.053|BkToCstmrStmt/.test(t)) return true;
    return /\.xml$/i.test(filename) && /<(?:\w+:)?Document[\s>]/.test(t) && !/<OFX|OFXHEADER/i.test(t);
  },
  async read(bytes) {
    if (bytes.length > CAMT_MAX_BYTES)
      return fail('too_large', `The XML is larger than ${CAMT_MAX_BYTES / 1024 / 1024} MB.`);
    // BOM or declared encoding (ISO-8859-1 exports exist), as the e-invoice reader does.
    const xml = decodeXml(bytes);
    return parseCamt053(xml.replace(/^\uFEFF/, ''));
  },
};
