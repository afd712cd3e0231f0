/**
 * Text evidence for reconciliation: does a bank transaction's description, reference or counterparty name the
 * invoice's vendor, its invoice number or its IBAN? Everything is compared after folding case, diacritics and
 * punctuation, and vendor names lose their legal form (GmbH, Ltd, SARL …) and filler words first.
 */

/** Legal forms and filler words that say nothing about which company it is. Compared after folding. */
const VENDOR_NOISE = new Set([
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'ek',
  'gbr',
  'co',
  'cokg',
  'sa',
  'sas',
  'sarl',
  'eurl',
  'snc',
  'srl',
  'spa',
  'sl',
  'slu',
  'bv',
  'nv',
  'vof',
  'ltd',
  'limited',
  'llc',
  'llp',
  'inc',
  'corp',
  'corporation',
  'plc',
  'pvt',
  'company',
  'se',
  'pfa',
  'the',
  'and',
  'und',
  'et',
  'de',
  'der',
  'die',
  'la',
  'le',
  'les',
  'van',
  'von',
  'of',
  'group',
  'gruppe',
  'international',
  'services',
  'service',
]);

/**
 * Words bank statements add around the counterparty (payment kinds, "card", "ref", months): not a merchant's name, so
 * a description made only of them names nobody. English, German, French, Italian, Spanish, Dutch and Romanian.
 */
const BANK_WORDS = new Set([
  ...VENDOR_NOISE,
  'sepa',
  'ct',
  'dd',
  'credit',
  'debit',
  'transfer',
  'payment',
  'pmt',
  'card',
  'pos',
  'purchase',
  'direct',
  'standing',
  'order',
  'ref',
  'reference',
  'invoice',
  'inv',
  'no',
  'nr',
  'num',
  'number',
  'to',
  'from',
  'for',
  'via',
  'online',
  'www',
  'com',
  'net',
  'org',
  'eu',
  'visa',
  'mastercard',
  'maestro',
  'debitcard',
  'contactless',
  'ueberweisung',
  'uberweisung',
  'lastschrift',
  'kartenzahlung',
  'dauerauftrag',
  'rechnung',
  'zahlung',
  'verwendungszweck',
  'kunde',
  'kundennr',
  'mandat',
  'glaeubiger',
  'prlv',
  'vir',
  'virement',
  'prelevement',
  'carte',
  'paiement',
  'facture',
  'cb',
  'bonifico',
  'addebito',
  'pagamento',
  'fattura',
  'carta',
  'transferencia',
  'recibo',
  'pago',
  'factura',
  'tarjeta',
  'compra',
  'overboeking',
  'incasso',
  'betaling',
  'factuur',
  'pas',
  'plata',
  'transfer',
  'comision',
  'eref',
  'mref',
  'cred',
  'end',
  'id',
  'e2e',
  'svwz',
  'abwa',
  'kref',
  'iban',
  'bic',
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
]);

/** Lower case, no diacritics (ß → ss, æ → ae), every run of anything but letters and digits one space. */
export function foldText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Letters and digits only, folded: 'INV-2026/001' → 'inv2026001'. */
export function compactText(value: string): string {
  return foldText(value).replace(/ /g, '');
}

/** The tokens that name a vendor: folded, legal forms and filler words removed ('ACME Software GmbH' → acme, software). */
export function vendorTokens(vendor: string): string[] {
  // "S.A.R.L." and "B.V." fold to letter runs; join single letters back so they are recognised as one legal form.
  const folded = foldText(vendor.replace(/\b([A-Za-z])\.(?=[A-Za-z]\.)/g, '$1').replace(/\b([A-Za-z])\.\s?/g, '$1'));
  const tokens = folded.split(' ').filter((t) => t.length > 0 && !VENDOR_NOISE.has(t));
  return tokens.length > 0 ? tokens : folded.split(' ').filter((t) => t.length > 0);
}

/** What one transaction says, prepared once for every invoice it is compared with. */
export interface TransactionText {
  /** Folded description + reference + counterparty name. */
  folded: string;
  /** The same without spaces, for names and numbers the bank ran together or split. */
  compact: string;
  tokens: string[];
  /** Tokens of the counterparty name alone (empty when the file names none). */
  counterpartyTokens: string[];
  /** Words that could be a merchant's name: letters, three or more, no bank words. */
  nameLikeTokens: string[];
  ibans: Set<string>;
  /** vendorEvidence per vendor name: a statement line is compared with many invoices of the same vendor. */
  vendorCache: Map<string, VendorEvidence>;
}

const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;

export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

export function transactionText(t: {
  description: string;
  reference: string | null;
  counterpartyName: string | null;
  counterpartyIban: string | null;
}): TransactionText {
  const raw = [t.description, t.reference ?? '', t.counterpartyName ?? ''].join(' ');
  const folded = foldText(raw);
  const tokens = folded.split(' ').filter((x) => x.length > 0);
  const ibans = new Set<string>();
  if (t.counterpartyIban) ibans.add(normalizeIban(t.counterpartyIban));
  for (const m of raw.toUpperCase().matchAll(IBAN)) ibans.add(normalizeIban(m[0]));
  return {
    folded,
    compact: tokens.join(''),
    tokens,
    counterpartyTokens: t.counterpartyName ? foldText(t.counterpartyName).split(' ').filter(Boolean) : [],
    nameLikeTokens: tokens.filter((x) => x.length >= 3 && /^\p{L}+$/u.test(x) && !BANK_WORDS.has(x)),
    ibans,
    vendorCache: new Map(),
  };
}

/** Similarity of two tokens in [0, 1]: equal, one a prefix of the other (banks truncate), or few edits apart. */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const short = a.length <= b.length ? a : b;
  const long = a.length <= b.length ? b : a;
  // "AMAZON WEB SERV": a truncated word still names the vendor when enough of it is left.
  if (short.length >= 4 && long.startsWith(short)) return 0.9;
  // Typos: one edit from five letters on, two from eight ("acme" and "acne" are different words).
  const allowed = short.length >= 8 ? 2 : short.length >= 5 ? 1 : 0;
  if (allowed === 0) return 0;
  const distance = levenshtein(a, b, allowed);
  if (distance > allowed) return 0;
  const ratio = 1 - distance / long.length;
  return ratio >= 0.75 ? ratio * 0.9 : 0;
}

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Edit distance, giving up (returning max + 1) once it exceeds `max`. Reuses two rows: it runs millions of times. */
function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length + 1 > rowA.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[b.length]!;
}

export interface VendorEvidence {
  /** [0, 1]: how much of the vendor's name the transaction carries. */
  score: number;
  /** The vendor's words as found, for the explanation ('ACME'). */
  found: string[];
  /** Whether they were found in the counterparty name rather than the free text. */
  inCounterparty: boolean;
  /** Some vendor word resembles some word of the transaction at all. */
  resembles: boolean;
}

/** How well the transaction names the vendor: the share of the vendor's words (weighted by length) it contains. */
export function vendorEvidence(vendor: string[], text: TransactionText): VendorEvidence {
  const key = vendor.join(' ');
  let evidence = text.vendorCache.get(key);
  if (!evidence) {
    evidence = computeVendorEvidence(vendor, text);
    text.vendorCache.set(key, evidence);
  }
  return evidence;
}

function computeVendorEvidence(vendor: string[], text: TransactionText): VendorEvidence {
  if (vendor.length === 0) return { score: 0, found: [], inCounterparty: false, resembles: false };
  let weight = 0;
  let matched = 0;
  const found: string[] = [];
  let inCounterparty = false;
  let resembles = false;
  for (const v of vendor) {
    const w = Math.min(v.length, 8);
    weight += w;
    let best = 0;
    for (const t of text.tokens) {
      const s = tokenSimilarity(v, t);
      if (s > best) best = s;
      if (best === 1) break;
    }
    // Names the bank ran together ("ACMESOFTWARE") or split ("ACME SOFT WARE").
    if (best < 0.9 && v.length >= 4 && text.compact.includes(v)) best = 0.9;
    if (best > 0) {
      resembles = true;
      matched += w * best;
      found.push(v);
      if (text.counterpartyTokens.some((t) => tokenSimilarity(v, t) > 0)) inCounterparty = true;
    }
  }
  // The whole name run together: "ACMESOFTWARE" for "Acme Software".
  const joined = vendor.join('');
  if (joined.length >= 5 && text.compact.includes(joined)) {
    return { score: 1, found: vendor, inCounterparty, resembles: true };
  }
  let score = matched / weight;
  // The head of a name is what tells companies apart ("Stark Industries" is not "Wonka Industries"); banks truncate
  // the tail, not the head.
  if (vendor.length > 1 && !found.includes(vendor[0]!)) score *= 0.6;
  // One short generic-looking word of a longer name is weak evidence.
  if (found.length === 1 && vendor.length > 1 && found[0]!.length < 4) score *= 0.5;
  return { score, found, inCounterparty, resembles };
}

/** An invoice number the text must contain: compacted, and long enough not to appear by chance. */
export function invoiceNumberKey(invoiceNumber: string | null | undefined): string | null {
  if (!invoiceNumber) return null;
  const key = compactText(invoiceNumber);
  if (key.length < 4 || !/\d/.test(key)) return null;
  // Pure digits need more length: "2026" or "1234" are everywhere in a statement.
  if (/^\d+$/.test(key) && key.length < 5) return null;
  return key;
}

/** The invoice number is in the text, whole and not inside a longer run of digits. */
export function containsInvoiceNumber(key: string, text: TransactionText): boolean {
  let from = 0;
  for (;;) {
    const at = text.compact.indexOf(key, from);
    if (at < 0) return false;
    const before = text.compact[at - 1];
    const after = text.compact[at + key.length];
    const digitEdge = (c: string | undefined, edge: string | undefined) =>
      c !== undefined && edge !== undefined && /\d/.test(c) && /\d/.test(edge);
    if (!digitEdge(before, key[0]) && !digitEdge(after, key[key.length - 1])) return true;
    from = at + 1;
  }
}
