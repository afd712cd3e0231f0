import { XMLParser } from 'fast-xml-parser';
import { currencyDecimals, KNOWN_CURRENCIES, parseXmlDecimal } from '../rules/money.parser';

/**
 * Structured e-invoices: UBL 2.1 Invoice / CreditNote (incl. XRechnung UBL), UN/CEFACT CII D16B
 * (Factur-X, ZUGFeRD 2.x, XRechnung CII) and ZUGFeRD 1.0 CrossIndustryDocument. Reads EN 16931 terms:
 * BT-1 number, BT-2 issue date, BT-5 currency, BT-27 seller name (BT-28 trading name as fallback),
 * BT-112 grand total and BT-115 amount due.
 *
 * Security: a document type declaration is refused outright (e-invoices never need one), so no entity of any kind,
 * external (XXE) or internal (billion laughs), can be declared; fast-xml-parser never fetches anything either.
 */

export interface EInvoiceFields {
  syntax: 'UBL-Invoice' | 'UBL-CreditNote' | 'CII' | 'ZUGFeRD1-CII';
  vendor: string | null;
  currency: string | null;
  invoice_date: string | null;
  invoice_number: string | null;
  /** BT-112, minor units. */
  total_minor: number | null;
  /** BT-115, minor units. */
  due_minor: number | null;
  decimals: number;
  type_code: string | null;
}

export type EInvoiceResult =
  | { ok: true; value: EInvoiceFields }
  | { ok: false; errors: Array<{ code: string; message: string }> };

type Node = Record<string, unknown>;

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  isArray: () => false,
});

/** Decodes XML bytes honouring a BOM or the declared encoding (UTF-8 by default). */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 200)).toString('latin1');
  const enc = /encoding=["']([\w-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  try {
    return new TextDecoder(enc && enc !== 'utf8' ? enc : 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** True when the text's first element looks like an XML document (cheap sniff before parsing). */
export function looksLikeXml(text: string): boolean {
  return /^\s*(?:\uFEFF)?<(?:\?xml|[A-Za-z_][\w.-]*:?[\w.-]*[\s>])/.test(text.slice(0, 512));
}

/**
 * Markup ('<') an e-invoice may hold: a large XRechnung with a thousand lines has some 100,000. The parser builds an
 * object per element, so a flood of tiny elements costs far more memory and time than its bytes suggest.
 */
export const MAX_XML_MARKUP = 500_000;

function countMarkup(text: string, stopAfter: number): number {
  let count = 0;
  for (let at = text.indexOf('<'); at !== -1 && count <= stopAfter; at = text.indexOf('<', at + 1)) count++;
  return count;
}

function hasDoctype(text: string): boolean {
  // Only the prolog can hold a DOCTYPE; search before the first element so content like "<!DOCTYPE" in CDATA is moot.
  const firstElement = text.search(/<[A-Za-z_]/);
  const prolog = firstElement === -1 ? text : text.slice(0, firstElement);
  return /<!DOCTYPE/i.test(prolog) || /<!ENTITY/i.test(prolog);
}

function child(n: unknown, name: string): unknown {
  if (!n || typeof n !== 'object') return undefined;
  const v = (n as Node)[name];
  return Array.isArray(v) ? v[0] : v;
}

function at(n: unknown, ...path: string[]): unknown {
  return path.reduce((cur, p) => child(cur, p), n);
}

function text(n: unknown): string | null {
  if (n === undefined || n === null) return null;
  if (typeof n === 'string' || typeof n === 'number') {
    const s = String(n).trim();
    return s || null;
  }
  if (typeof n === 'object' && '#text' in (n as Node)) return text((n as Node)['#text']);
  return null;
}

function attr(n: unknown, name: string): string | null {
  if (!n || typeof n !== 'object') return null;
  const v = (n as Node)[`@${name}`];
  return typeof v === 'string' ? v.trim() : null;
}

function date102(n: unknown): string | null {
  const t = text(n);
  if (!t) return null;
  const d = t.replace(/[^0-9]/g, '');
  if (/^\d{8}/.test(d)) return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  return null;
}

function isoDate(n: unknown): string | null {
  const t = text(n);
  if (!t) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : date102(t);
}

function amount(n: unknown, decimals: number): number | null {
  const t = text(n);
  return t === null ? null : parseXmlDecimal(t, decimals);
}

/** CII amounts may repeat per currency (tax totals); take the one in the invoice currency or the first. */
function amountIn(n: unknown, currency: string | null, decimals: number, parent: unknown, name: string): number | null {
  const all = parent && typeof parent === 'object' ? (parent as Node)[name] : undefined;
  if (Array.isArray(all)) {
    const match = all.find((a) => !currency || !attr(a, 'currencyID') || attr(a, 'currencyID') === currency);
    return amount(match ?? all[0], decimals);
  }
  return amount(n, decimals);
}

function finish(
  syntax: EInvoiceFields['syntax'],
  f: Omit<EInvoiceFields, 'syntax' | 'decimals' | 'total_minor' | 'due_minor'> & {
    total: (d: number) => number | null;
    due: (d: number) => number | null;
  },
): EInvoiceFields {
  const currency = f.currency && KNOWN_CURRENCIES.has(f.currency.toUpperCase()) ? f.currency.toUpperCase() : f.currency;
  const decimals = currencyDecimals(currency);
  return {
    syntax,
    vendor: f.vendor,
    currency,
    invoice_date: f.invoice_date,
    invoice_number: f.invoice_number,
    total_minor: f.total(decimals),
    due_minor: f.due(decimals),
    decimals,
    type_code: f.type_code,
  };
}

/** Parses UBL / CII / ZUGFeRD 1 XML text. Never throws; unknown roots and bad XML come back as errors. */
export function parseEInvoiceXml(xml: string): EInvoiceResult {
  if (hasDoctype(xml)) {
    return { ok: false, errors: [{ code: 'xml_doctype_forbidden', message: 'XML with a DOCTYPE/ENTITY is refused' }] };
  }
  if (countMarkup(xml, MAX_XML_MARKUP) > MAX_XML_MARKUP) {
    return {
      ok: false,
      errors: [{ code: 'xml_too_large', message: `XML with more than ${MAX_XML_MARKUP} elements is refused` }],
    };
  }
  let doc: Node;
  try {
    doc = parser.parse(xml, true) as Node;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    // The parser appends ":line:column", with "undefined" where it has none.
    return {
      ok: false,
      errors: [{ code: 'xml_invalid', message: `Invalid XML: ${message.replace(/:\d+:(\d+|undefined)$/, '')}` }],
    };
  }
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const root = rootName ? doc[rootName] : undefined;
  if (!rootName || !root || typeof root !== 'object') {
    return { ok: false, errors: [{ code: 'xml_unknown_root', message: 'Not an e-invoice (no root element)' }] };
  }
  if (rootName === 'Invoice' || rootName === 'CreditNote') {
    const sup = at(root, 'AccountingSupplierParty', 'Party');
    const tot = child(root, 'LegalMonetaryTotal');
    const currency = text(child(root, 'DocumentCurrencyCode'));
    return {
      ok: true,
      value: finish(rootName === 'Invoice' ? 'UBL-Invoice' : 'UBL-CreditNote', {
        vendor: text(at(sup, 'PartyLegalEntity', 'RegistrationName')) ?? text(at(sup, 'PartyName', 'Name')),
        currency,
        invoice_date: isoDate(child(root, 'IssueDate')),
        invoice_number: text(child(root, 'ID')),
        type_code: text(child(root, rootName === 'Invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode')),
        total: (d) => amount(child(tot, 'TaxInclusiveAmount'), d),
        due: (d) => amount(child(tot, 'PayableAmount'), d),
      }),
    };
  }
  if (rootName === 'CrossIndustryInvoice' || rootName === 'CrossIndustryDocument') {
    const v1 = rootName === 'CrossIndustryDocument';
    const doc2 = child(root, v1 ? 'HeaderExchangedDocument' : 'ExchangedDocument');
    const tx = child(root, v1 ? 'SpecifiedSupplyChainTradeTransaction' : 'SupplyChainTradeTransaction');
    const agreement = child(tx, v1 ? 'ApplicableSupplyChainTradeAgreement' : 'ApplicableHeaderTradeAgreement');
    const settle = child(tx, v1 ? 'ApplicableSupplyChainTradeSettlement' : 'ApplicableHeaderTradeSettlement');
    const sum = child(
      settle,
      v1 ? 'SpecifiedTradeSettlementMonetarySummation' : 'SpecifiedTradeSettlementHeaderMonetarySummation',
    );
    const currency = text(child(settle, 'InvoiceCurrencyCode'));
    return {
      ok: true,
      value: finish(v1 ? 'ZUGFeRD1-CII' : 'CII', {
        vendor: text(at(agreement, 'SellerTradeParty', 'Name')),
        currency,
        invoice_date: date102(at(doc2, 'IssueDateTime', 'DateTimeString')),
        invoice_number: text(child(doc2, 'ID')),
        type_code: text(child(doc2, 'TypeCode')),
        total: (d) => amountIn(child(sum, 'GrandTotalAmount'), currency, d, sum, 'GrandTotalAmount'),
        due: (d) => amountIn(child(sum, 'DuePayableAmount'), currency, d, sum, 'DuePayableAmount'),
      }),
    };
  }
  return {
    ok: false,
    errors: [{ code: 'xml_unknown_root', message: `Not a UBL or CII e-invoice (root element ${rootName})` }],
  };
}

/** Attachment names that carry the e-invoice inside a Factur-X / ZUGFeRD / XRechnung PDF. */
export const EINVOICE_ATTACHMENT = /^(factur-x|zugferd-invoice|xrechnung|zugferd_invoice|ZUGFeRD-invoice)\.xml$/i;
