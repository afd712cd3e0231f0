import { parse } from 'csv-parse/sync';
import { fold } from '../extraction/rules/date.parser';
import { findCurrencies, parseAmount } from '../extraction/rules/money.parser';
import type {
  ParsedStatement,
  StatementReader,
  StatementReadResult,
  StatementTransaction,
  TransactionType,
} from './statement.types';
import {
  closerReading,
  currencyCode,
  daySpan,
  decimalsOf,
  decodeText,
  emptyStatement,
  fail,
  isoDate,
  issue,
  joinText,
  transaction,
} from './statement.util';

/**
 * Bank CSV exports: delimiter, encoding (UTF-8 with or without BOM, Windows-1252, a mix line by line), decimal style,
 * columns found by header words in English, German, French, Spanish, Italian, Dutch and Romanian, one signed amount or
 * debit + credit columns, date order inferred over all rows. Records come from csv-parse; a file past `CSV_MAX_ROWS`
 * is refused after a cheap newline count, before anything is decoded or parsed.
 */

export const CSV_MAX_ROWS = 200_000;

type Role =
  | 'valueDate'
  | 'date'
  | 'balance'
  | 'debit'
  | 'credit'
  | 'amount'
  | 'currency'
  | 'iban'
  | 'name'
  | 'direction'
  | 'reference'
  | 'account'
  | 'state'
  | 'description';

/** Header words per role (folded: lower case, no diacritics); checked in this order, so 'value date' beats 'date'. */
const HEADERS: Array<[Role, string[]]> = [
  [
    'valueDate',
    [
      'value date',
      'valuedate',
      'wertstellung',
      'valuta',
      'valutadatum',
      'wertstellungsdatum',
      'date de valeur',
      'date valeur',
      'fecha valor',
      'f valor',
      'data valuta',
      'rentedatum',
      'data valutei',
      'valutadag',
      'arvopaiva',
      'data waluty',
      'datum valuty',
      'data valor',
      'valiutavimo data',
      'erteknap',
      'valor tarihi',
      'дата валютирования',
      'data valuta',
    ],
  ],
  [
    'date',
    [
      'booking date',
      'date',
      'transaction date',
      'posting date',
      'posted date',
      'trans date',
      'created',
      'journaldate',
      'buchungstag',
      'buchungsdatum',
      'datum',
      'buchung',
      'date operation',
      'date de l operation',
      'date comptable',
      'date de comptabilisation',
      'ecriture',
      'date d ecriture',
      'date d achat',
      'purchase date',
      'kaufdatum',
      'fecha',
      'fecha operacion',
      'fecha contable',
      'data',
      'data operazione',
      'data contabile',
      'data registrazione',
      'boekdatum',
      'transactiedatum',
      'data inregistrare',
      'data tranzactiei',
      'data operatiunii',
      'data tranzactie',
      'completed date',
      'date completed',
      'post date',
      'posted',
      'booked',
      'bokforingsdag',
      'bokforingsdatum',
      'bokford',
      'transaktionsdag',
      'transaktionsdatum',
      'dato',
      'bogfort',
      'bogforingsdato',
      'bokfort',
      'bokfort dato',
      'kirjauspaiva',
      'tapahtumapaiva',
      'paivamaara',
      'pvm',
      'data operacji',
      'data ksiegowania',
      'data transakcji',
      'datum zauctovani',
      'datum transakce',
      'datum provedeni',
      'data movimento',
      'data mov',
      'data lancamento',
      'data operacao',
      'konyveles datuma',
      'konyvelesi datum',
      'tarih',
      'islem tarihi',
      'started date',
      '利用日',
      '取引日',
      '日付',
      '年月日',
      '入出金日',
      '取扱日',
      'お取引日',
      'дата операции',
      'дата обработки операции',
      'дата совершения операции',
      'дата',
      'дата проводки',
      'дата транзакции',
      'дата платежа',
      'תאריך עסקה',
      'תאריך',
      'תאריך חיוב',
    ],
  ],
  [
    'balance',
    [
      'balance',
      'running balance',
      'runningbalance',
      'saldo',
      'kontostand',
      'solde',
      'sold',
      'saldo dopo',
      'saldo na',
      'new balance',
      'sold final',
      'behallning',
      'saldo po operacji',
      'zustatek',
      'likutis',
      'egyenleg',
      'bakiye',
      'balance after',
      '残高',
      '差引残高',
      'остаток',
      'баланс',
    ],
  ],
  [
    'debit',
    [
      'debit',
      'debit amount',
      'withdrawal',
      'withdrawals',
      'paid out',
      'money out',
      'soll',
      'lastschrift',
      'ausgang',
      'belastung',
      'debit eur',
      'debe',
      'cargo',
      'cargos',
      'addebiti',
      'addebito',
      'uscite',
      'dare',
      'af',
      'debet',
      'uitgaven',
      'sume debit',
      'retrageri',
      'debits',
      'outflow',
      'out',
      'spent',
      'uttag',
      'udbetaling',
      'ut',
      'uttak',
      'veloitus',
      'obciazenia',
      'obciazenie',
      'wyplata',
      'vydaj',
      'debito',
      'debitos',
      'saida',
      'debetas',
      'terheles',
      'borc',
      '出金',
      '出金金額',
      '引出額',
      'お引出し',
      '支払金額',
      'お支払金額',
      'расход',
      'списание',
      'дебет',
    ],
  ],
  [
    'credit',
    [
      'credit',
      'credit amount',
      'deposit',
      'deposits',
      'paid in',
      'money in',
      'haben',
      'gutschrift',
      'eingang',
      'haber',
      'abono',
      'abonos',
      'accrediti',
      'accredito',
      'entrate',
      'avere',
      'bij',
      'inkomsten',
      'sume credit',
      'incasari',
      'credits',
      'inflow',
      'received',
      'in',
      'insattning',
      'indbetaling',
      'inn',
      'innskudd',
      'hyvitys',
      'uznania',
      'uznanie',
      'wplata',
      'prijem',
      'kredit',
      'credito',
      'creditos',
      'entrada',
      'kreditas',
      'jovairas',
      'alacak',
      '入金',
      '入金金額',
      '預入額',
      'お預入れ',
      'お預り金額',
      'приход',
      'поступление',
      'зачисление',
      'кредит',
    ],
  ],
  [
    'amount',
    [
      'amount',
      'betrag',
      'umsatz',
      'montant',
      'importe',
      'importo',
      'bedrag',
      'suma',
      'valoare',
      'netamount',
      'net amount',
      // A payment service's export (PayPal): the gross, its fee, and the net that moves the balance.
      'net',
      'netto',
      'neto',
      'montant net',
      'gross',
      'gross amount',
      'brut',
      'montant brut',
      'brutto',
      'bruto',
      'lordo',
      'transaction amount',
      'amount eur',
      'total',
      'sum',
      'summe',
      'gesamtbetrag',
      'totale',
      'totaal',
      'betrag eur',
      'montant eur',
      'importe eur',
      'suma tranzactiei',
      'belopp',
      'summa',
      'belob',
      'beloeb',
      'belop',
      'maara',
      'kwota',
      'kwota operacji',
      'kwota transakcji',
      'castka',
      'valor',
      'montante',
      'quantia',
      'osszeg',
      'tutar',
      '利用金額',
      '金額',
      '取引金額',
      'сумма',
      'сумма операции',
      'сумма в валюте счета',
      'סכום עסקה',
      'סכום',
      'סכום חיוב',
    ],
  ],
  [
    'currency',
    [
      'currency',
      'ccy',
      'wahrung',
      'waehrung',
      'valutacode',
      'currency code',
      'muntsoort',
      'devise',
      'monnaie',
      'moneda',
      'divisa',
      'valuta rekening',
      'munt',
      'moneda contului',
      'valuutta',
      'waluta',
      'mena',
      'moeda',
      'valiuta',
      'deviza',
      'penznem',
      'para birimi',
      'doviz',
      '通貨',
      'валюта',
      'מטבע חיוב',
      'מטבע',
    ],
  ],
  [
    // The statement's own account (a column repeating it on every row), not the counterparty's.
    'account',
    [
      'account',
      'account number',
      'account no',
      'own account',
      'kontonummer',
      'konto',
      'kontonr',
      'konto nr',
      'auftragskonto',
      'numero de compte',
      'compte',
      'numero de cuenta',
      'cuenta',
      'numero conto',
      'conto',
      'rekening',
      'rekeningnummer',
      'saskaitos nr',
      'номер счета',
      '口座番号',
    ],
  ],
  [
    // A booking's state: pending, declined or reverted rows are not on the statement yet.
    'state',
    // German savings banks' "Info" column says "Umsatz gebucht" or "Umsatz vorgemerkt".
    ['state', 'status', 'estado', 'stato', 'statut', 'zustand', 'info'],
  ],
  [
    'iban',
    [
      'iban',
      'partner iban',
      'counterparty iban',
      'counterparty account',
      'tegenrekening',
      'iban auftraggeber',
      'iban empfanger',
      'contul partenerului',
      'cont beneficiar',
    ],
  ],
  [
    'name',
    [
      'payee',
      'payer',
      'beneficiary',
      'partner name',
      'merchant name',
      'counterparty',
      'name',
      'auftraggeber empfanger',
      'empfanger',
      'auftraggeber',
      'zahlungsempfanger',
      'beguenstigter',
      'begunstigter zahlungspflichtiger',
      'tiers',
      'beneficiaire',
      'beneficiario',
      'ordenante',
      'naam',
      'tegenpartij',
      'naam tegenpartij',
      'tegenrekeninghouder',
      'naam tegenrekening',
      'beneficiar',
      'nume beneficiar',
      'namn',
      'navn',
      'saaja maksaja',
      'saaja',
      'maksaja',
      'nadawca odbiorca',
      'odbiorca',
      'nadawca',
      'kontrahent',
      'nazev protiuctu',
      'protistrana',
      'gavejas',
      'moketojas',
      'partner neve',
      'kedvezmenyezett',
      'to',
    ],
  ],
  [
    'direction',
    [
      'transaction type',
      'debit credit',
      'credit debit',
      'soll haben',
      'af bij',
      'cr dr',
      'dr cr',
      'd c',
      'sens',
      'tip tranzactie',
      'd k',
      'k d',
      'creditdebet',
      'credit debet',
      'debetcredit',
      'debet credit',
      'creditdebit',
      'bij af',
      'c d',
      'debet kredit',
      'db cr',
      'cr db',
      // Italian, Spanish and Portuguese: "Debito/Credito", "Dare/Avere", "Debe/Haber", "Débito/Crédito".
      'debito credito',
      'credito debito',
      'dare avere',
      'avere dare',
      'debe haber',
      'haber debe',
      'cargo abono',
      'abono cargo',
      'debit kredit',
      'kredit debit',
      'tipo movimento',
      'tipo de movimiento',
      'tipo movimiento',
    ],
  ],
  [
    'reference',
    [
      'reference',
      'ref',
      'referenz',
      'reference id',
      'transaction id',
      'kundenreferenz',
      'referencia',
      'riferimento',
      'referentie',
      'referinta',
    ],
  ],
  [
    'description',
    [
      'description',
      'purpose',
      'details',
      'memo',
      'narrative',
      'narration',
      'particulars',
      'remarks',
      'transaction remarks',
      'transaction details',
      'payment reference',
      'text',
      'desc',
      'texte',
      'texte comptable',
      'verwendungszweck',
      'buchungstext',
      'vorgang',
      'libelle',
      'libelle operation',
      'detail',
      'concepto',
      'descripcion',
      'descrizione',
      'causale',
      'omschrijving',
      'mededelingen',
      'descriere',
      'detalii',
      'explicatii',
      'vwz',
      'items',
      'seller message',
      'description1',
      'rubrik',
      'meddelande',
      'beskrivning',
      'specifikation',
      'tekst',
      'beskrivelse',
      'forklaring',
      'selite',
      'viesti',
      'kuvaus',
      'opis',
      'tytul',
      'tytuł',
      'opis operacji',
      'tytul operacji',
      'popis',
      'zprava',
      'poznamka',
      'descricao',
      'historico',
      'descritivo',
      'paaiskinimai',
      'mokejimo paskirtis',
      'kozlemeny',
      'megjegyzes',
      'leiras',
      'aciklama',
      '利用店名・商品名',
      '摘要',
      '内容',
      'お取引内容',
      '取引内容',
      '備考',
      'описание операции',
      'описание',
      'назначение платежа',
      'שם בית העסק',
      'הערות',
      'תיאור',
    ],
  ],
];

/** Folded, with anything but letters and digits (of any script: Cyrillic, kana, kanji) as single spaces. */
function norm(h: string): string {
  return fold(h)
    .replace(/\(([a-z]{3})\)/g, ' $1')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The header words as norm() leaves them ("利用店名・商品名", "Valuta (EUR)"). */
const NORM_HEADERS: Array<[Role, string[]]> = HEADERS.map(([role, words]) => [role, words.map(norm)]);

/** Role of one header cell: an exact word list match, else a prefix match (e.g. 'vwz1'), else null. */
function roleOf(header: string): { role: Role; exact: boolean } | null {
  const h = norm(header);
  if (!h) return null;
  for (const [role, words] of NORM_HEADERS) if (words.includes(h)) return { role, exact: true };
  for (const [role, words] of NORM_HEADERS) {
    if (
      words.some(
        (w) =>
          w.length >= 3 &&
          (h.startsWith(`${w} `) || h.endsWith(` ${w}`) || (/^\D+\d+$/.test(h) && h.replace(/\d+$/, '') === w)),
      )
    ) {
      return { role, exact: false };
    }
  }
  return null;
}

interface Columns {
  date?: number;
  valueDate?: number;
  amount?: number;
  debit?: number;
  credit?: number;
  balance?: number;
  currency?: number;
  iban?: number;
  name?: number;
  direction?: number;
  reference?: number;
  account?: number;
  state?: number;
  description: number[];
  headerCurrency: string | null;
}

/** A gross amount before a fee: second to a net amount in the same file (the net is what the balance moves by). */
const GROSS_AMOUNTS = new Set(['gross', 'gross amount', 'brut', 'montant brut', 'brutto', 'bruto', 'lordo']);

/** Dates of the operation itself (a card used, a transfer ordered): second to a booking date in the same file. */
const SECONDARY_DATES = new Set([
  'transaction date',
  'purchase date',
  'date d achat',
  'kaufdatum',
  'trans date',
  'started date',
  'created',
  'date operation',
  'date de l operation',
  'fecha operacion',
  'data operazione',
  'data operacji',
  'data transakcji',
  'datum transakce',
  'transaktionsdag',
  'transaktionsdatum',
  'tapahtumapaiva',
  'data operacao',
  'islem tarihi',
  'data tranzactiei',
  'data operatiunii',
  'data tranzactie',
  'transactiedatum',
  'дата совершения операции',
]);

function columnsOf(row: string[]): Columns {
  const cols: Columns = { description: [], headerCurrency: null };
  const exactness: Partial<Record<Role, boolean>> = {};
  row.forEach((cell, i) => {
    const r = roleOf(cell);
    if (!r) return;
    if (r.role === 'description') {
      cols.description.push(i);
      return;
    }
    const key = r.role as Exclude<Role, 'description'>;
    // Of two date columns, the booking (posting, completed) date is the transaction's date, not when a card was used.
    const booking =
      key === 'date' &&
      cols.date !== undefined &&
      SECONDARY_DATES.has(norm(row[cols.date]!)) &&
      !SECONDARY_DATES.has(norm(cell));
    const net = key === 'amount' && cols.amount !== undefined && GROSS_AMOUNTS.has(norm(row[cols.amount]!)) && r.exact;
    if (cols[key] === undefined || (r.exact && !exactness[key]) || booking || net) {
      cols[key] = i;
      exactness[key] = r.exact;
      const inHeader = /\(([A-Za-z]{3})\)/.exec(cell)?.[1];
      if ((key === 'amount' || key === 'debit' || key === 'credit') && inHeader)
        cols.headerCurrency = currencyCode(inHeader);
    }
  });
  return cols;
}

function headerScore(row: string[]): number {
  const c = columnsOf(row);
  const hasDate = c.date !== undefined || c.valueDate !== undefined;
  const hasAmount = c.amount !== undefined || c.debit !== undefined || c.credit !== undefined;
  return hasDate && hasAmount ? 2 + c.description.length + (c.balance !== undefined ? 1 : 0) : 0;
}

const DELIMITERS = [',', ';', '\t', '|'];

/**
 * The delimiter: the one whose split of the first lines holds a header row naming a date and an amount, the best
 * such header winning; otherwise the one that splits the first lines most consistently. Consistency alone fails on
 * exports whose rows run past the header (a free text spilling over into extra fields) while every amount carries
 * one decimal comma.
 */
function chooseDelimiter(text: string): string {
  const head = text
    .slice(0, 20_000)
    .split(/\r\n|\r|\n/)
    .slice(0, 40)
    .join('\n');
  let best: string | null = null;
  let bestScore = 0;
  for (const d of DELIMITERS) {
    let rows: string[][] = [];
    try {
      rows = parse(head, { delimiter: d, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
    } catch {
      continue; // a quoted field cut off at the sample's end, or quotes this delimiter cannot make sense of
    }
    const score = Math.max(0, ...rows.slice(0, 30).map(headerScore));
    if (score > bestScore) [best, bestScore] = [d, score];
  }
  return best ?? detectDelimiter(text);
}

/** The delimiter that splits the first lines into the same number (>0) of fields most consistently. */
function detectDelimiter(text: string): string {
  const lines = text
    .slice(0, 20_000)
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim())
    .slice(0, 30);
  let best = ',';
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => {
      let n = 0;
      let quoted = false;
      for (const ch of l) {
        if (ch === '"') quoted = !quoted;
        else if (ch === d && !quoted) n += 1;
      }
      return n;
    });
    const freq = new Map<number, number>();
    for (const c of counts) if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1);
    const [mode, times] = [...freq.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0] ?? [0, 0];
    const score = times * 1000 + mode;
    if (mode > 0 && score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

type DateOrder = 'ymd' | 'dmy' | 'mdy';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
  mrz: 3,
  mai: 5,
  okt: 10,
  dez: 12,
  janv: 1,
  fevr: 2,
  mars: 3,
  avr: 4,
  juin: 6,
  juil: 7,
  aout: 8,
  sept: 9,
  ene: 1,
  abr: 4,
  ago: 8,
  dic: 12,
  gen: 1,
  mag: 5,
  giu: 6,
  lug: 7,
  set: 9,
  ott: 10,
  mei: 5,
  maa: 3,
  okt_: 10,
};

function year(y: string): number {
  const n = Number(y);
  return y.length === 2 ? (n >= 70 ? 1900 + n : 2000 + n) : n;
}

// A time after a date with a month word ("22 May 2025 21:27", "May 22, 2025 9:05 PM") is left out.
const TIME = String.raw`(?:[ T,]+\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?)?$`;
const DAY_MONTH_WORD = new RegExp(String.raw`^(\d{1,2})[-. ]([A-Za-zÀ-ÿ]{3,9})\.?[-. ,]+(\d{4}|\d{2})${TIME}`);
const MONTH_WORD_DAY = new RegExp(String.raw`^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})${TIME}`);

/** Numeric parts of a date cell: [a, b, y] for a/b/y, or a resolved date for unambiguous shapes. */
function dateParts(raw: string): { ymd: string | null } | { a: number; b: number; y: number } | null {
  const s = raw.trim();
  let m = /^(\d{4})[-./:]?(\d{1,2})[-./:]?(\d{1,2})(?:[ T].*)?$/.exec(s);
  if (m && (s.length === 8 || /[-./:]/.test(s.slice(4, 5)) || /^\d{8}[ T]/.test(s)))
    return { ymd: isoDate(Number(m[1]), Number(m[2]), Number(m[3])) };
  m = /^(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2})(?:[ T,].*)?$/.exec(s);
  if (m) return { a: Number(m[1]), b: Number(m[2]), y: year(m[3]!) };
  m = DAY_MONTH_WORD.exec(s);
  if (m) {
    const mon = MONTHS[fold(m[2]!)] ?? MONTHS[fold(m[2]!).slice(0, 3)];
    return { ymd: mon ? isoDate(year(m[3]!), mon, Number(m[1])) : null };
  }
  m = MONTH_WORD_DAY.exec(s);
  if (m) {
    const mon = MONTHS[fold(m[1]!)] ?? MONTHS[fold(m[1]!).slice(0, 3)];
    return { ymd: mon ? isoDate(Number(m[3]), mon, Number(m[2])) : null };
  }
  return null;
}

function toDate(raw: string, order: DateOrder): string | null {
  const p = dateParts(raw);
  if (!p) return null;
  if ('ymd' in p) return p.ymd;
  return order === 'mdy' ? isoDate(p.y, p.a, p.b) : isoDate(p.y, p.b, p.a);
}

/** Day-month order over every row: a part > 12 decides; else the order whose dates run monotonic; else '.' → dmy. */
function inferOrder(values: string[], decimal: '.' | ',', american = true): DateOrder {
  let dmy = 0;
  let mdy = 0;
  let dotted = false;
  let slashed = false;
  const numeric: Array<{ a: number; b: number; y: number }> = [];
  for (const v of values) {
    const p = dateParts(v);
    if (!p || 'ymd' in p) continue;
    numeric.push(p);
    if (p.a > 12 && p.b <= 12) dmy += 1;
    else if (p.b > 12 && p.a <= 12) mdy += 1;
    if (v.includes('.')) dotted = true;
    if (v.includes('/')) slashed = true;
  }
  if (dmy !== mdy) return dmy > mdy ? 'dmy' : 'mdy';
  const breaks = (order: DateOrder) => {
    const ds = numeric
      .map((p) => (order === 'mdy' ? isoDate(p.y, p.a, p.b) : isoDate(p.y, p.b, p.a)))
      .filter((d): d is string => d !== null);
    let up = 0;
    let down = 0;
    for (let i = 1; i < ds.length; i += 1) {
      if (ds[i]! > ds[i - 1]!) up += 1;
      else if (ds[i]! < ds[i - 1]!) down += 1;
    }
    return Math.min(up, down) - ds.length;
  };
  const [bd, bm] = [breaks('dmy'), breaks('mdy')];
  if (bd !== bm) return bd < bm ? 'dmy' : 'mdy';
  // Else the order that keeps the bookings close together (closerReading).
  const span = (order: DateOrder) =>
    daySpan(
      numeric
        .map((p) => (order === 'mdy' ? isoDate(p.y, p.a, p.b) : isoDate(p.y, p.b, p.a)))
        .filter((d): d is string => d !== null),
    );
  const [sd, sm] = [span('dmy'), span('mdy')];
  if (sd !== null && sm !== null) {
    if (closerReading(sd, sm)) return 'dmy';
    if (closerReading(sm, sd)) return 'mdy';
  }
  if (dotted) return 'dmy';
  return slashed && decimal === '.' && american ? 'mdy' : 'dmy';
}

/** Decimal separator over the amount cells: a separator followed by 1-2 digits at the end decides. */
function inferDecimal(values: string[]): '.' | ',' {
  let dot = 0;
  let comma = 0;
  for (const v of values) {
    if (/\d,\d{1,2}(?!\d)\s*\D*$/.test(v) || /\d\.\d{3},/.test(v)) comma += 1;
    else if (/\d\.\d{1,2}(?!\d)\s*\D*$/.test(v) || /\d,\d{3}\./.test(v)) dot += 1;
  }
  return comma > dot ? ',' : '.';
}

/** A money cell: '-1.234,56', '$20.00', '(5.00)', '12.00 CR', '1 234,56 EUR' → signed minor units. */
function money(raw: string, decimals: number, hint: '.' | ','): number | null {
  let s = raw.trim();
  if (!s) return null;
  let negative = false;
  if (/\b(DR|D|S|debit)$/i.test(s)) {
    negative = true;
    s = s.replace(/\s*\b(DR|D|S|debit)$/i, '');
  } else s = s.replace(/\s*\b(CR|C|H|credit)$/i, '');
  s = s.replace(/[A-Za-z€£$¥₹₺₽₴₪]+\.?/g, '').trim();
  if (/^-\s*\(.*\)$/.test(s)) s = s.replace(/^-\s*/, '');
  // ".46": no leading zero.
  s = s.replace(/^([-+]?)([.,]\d{1,2})$/, '$10$2');
  const p = parseAmount(s, decimals, hint);
  if (!p) return null;
  return negative ? -Math.abs(p.minor) : p.minor;
}

function directionOf(raw: string | undefined): TransactionType | null {
  const v = fold(raw ?? '').trim();
  // K is credit (kredit) in the Baltic, Nordic, Polish and Czech exports that mark D/K.
  if (
    /^(debit|dr|d|s|soll|af|debet|debetas|withdrawal|cargo|addebito|debito|dare|debe|uscita|obciazenie|uttag|belastung|lastschrift|charge)$/.test(
      v,
    )
  )
    return 'debit';
  if (
    /^(credit|cr|c|h|k|haben|bij|deposit|abono|accredito|credito|avere|haber|entrata|kredit|kreditas|uznanie|insattning|gutschrift)$/.test(
      v,
    )
  )
    return 'credit';
  return null;
}

/** Counts line breaks in the raw bytes (cheap, no decoding) so a huge file is refused before any work. */
function lineCount(bytes: Uint8Array, stopAt: number): number {
  let n = 0;
  let i = bytes.indexOf(0x0a);
  while (i !== -1 && n <= stopAt) {
    n += 1;
    i = bytes.indexOf(0x0a, i + 1);
  }
  return n;
}

const IBAN_RE = /\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b/;

/** Records kept before the columns, decimal style and currency are settled; every later one is mapped and dropped. */
const SAMPLE_ROWS = 5000;

/**
 * Rows that state a balance instead of moving money: the opening and closing balance a bank prints as the first and
 * last row (a row type of their own in some exports), in the languages the reader knows. Folded text.
 */
const OPENING_ROW =
  /^(?:opening balance|balance brought forward|brought forward|previous balance|starting balance|beginning balance|anfangssaldo|alter saldo|alter kontostand|saldovortrag|solde initial|ancien solde|solde precedent|saldo inicial|saldo anterior|saldo iniziale|saldo precedente|beginsaldo|vorig saldo|sold initial|sold anterior|ingaende saldo|ingaende behallning|primo saldo|alkusaldo|saldo poczatkowe|pocatecni zustatek|likutis pradziai|nyito egyenleg|acilis bakiyesi)\b/;
const CLOSING_ROW =
  /^(?:closing balance|balance carried forward|carried forward|new balance|ending balance|final balance|endsaldo|neuer saldo|neuer kontostand|solde final|nouveau solde|saldo final|saldo actual|saldo atual|saldo finale|saldo contabile finale|eindsaldo|nieuw saldo|sold final|utgaende saldo|utgaende behallning|ultimo saldo|loppusaldo|saldo koncowe|konecny zustatek|konecny zustatok|likutis pabaigai|zaro egyenleg|kapanis bakiyesi)\b/;
/** Turnover rows (sums of the period's debits or credits), printed with a date like a booking. */
const TURNOVER_ROW = /^(?:turnover|apyvarta|umsatzsumme|summe soll|summe haben|total debits|total credits|obroty)\b/;
/** A booking's state that keeps it off the statement. */
const NOT_BOOKED =
  /^(?:pending|declined|reverted|failed|cancelled|canceled|rejected|in progress|authori[sz]ed|ausstehend|abgelehnt|en attente|rejete|annule|pendiente|rechazado|in sospeso|rifiutato|in behandeling|geweigerd)\b|(?<![a-z])(?:vorgemerkt|vorgemerkter umsatz|umsatz vorgemerkt)(?![a-z])/;

/** The share of `cells` that satisfy `test` (0 for none). */
const share = (cells: string[], test: (c: string) => boolean) =>
  cells.length ? cells.filter(test).length / cells.length : 0;

/** A money value as exports print it: a sign, digits with grouping, a decimal part; currency letters around it. */
const MONEY_CELL =
  /^[-+−]?\s*\(?[-+]?(?:[A-Z€£$]{1,3}\s?)?(?:\d{1,3}(?:[ .,'’]?\d{3})*)?[.,]\d{1,2}\)?(?:\s?[A-Za-z€£$]{1,3})?$/;

/**
 * Columns of a file without a header row the reader can name (no header at all, or one in a language it does not
 * know), from what the cells hold: the first column of dates is the booking date, a column of signed money the
 * amount (of two, the one with the smaller values is the amount and the other the balance), the longest texts the
 * description, three-letter codes the currency. Null when no date and amount column stand out.
 */
export function inferColumns(rows: string[][]): { cols: Columns; firstRow: number } | null {
  const lengths = new Map<number, number>();
  for (const r of rows) if (r.length >= 3) lengths.set(r.length, (lengths.get(r.length) ?? 0) + 1);
  const width = [...lengths.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!width) return null;
  const firstRow = rows.findIndex((r) => r.length >= width - 1 && r.some((c) => dateParts(c) !== null));
  if (firstRow === -1) return null;
  const body = rows.slice(firstRow).filter((r) => r.length >= 3);
  if (body.length < 1) return null;
  const column = (i: number) => body.map((r) => (r[i] ?? '').trim()).filter(Boolean);
  const cols: Columns = { description: [], headerCurrency: null };
  const moneyCols: Array<{ i: number; negatives: number; median: number }> = [];
  const split = debitCreditPair(body, width);
  if (split) Object.assign(cols, split);
  let longest = { i: -1, len: 0 };
  for (let i = 0; i < width; i += 1) {
    if (i === split?.debit || i === split?.credit) continue;
    const cells = column(i);
    if (cells.length < 0.6 * body.length) continue;
    if (cols.date === undefined && share(cells, (c) => dateParts(c) !== null) >= 0.8) {
      cols.date = i;
      continue;
    }
    // Whole amounts print without their cents in some exports ("-56,9", "500", "-300"): money where most cells are
    // amounts or signed integers and a good part carries cents (a column of counts or ids carries none).
    const moneyLike = (c: string) => MONEY_CELL.test(c) || /^[-+−]?\d{1,9}$/.test(c);
    if (share(cells, moneyLike) >= 0.8 && share(cells, (c) => MONEY_CELL.test(c)) >= 0.4) {
      const values = cells.map((c) => Number(c.replace(/[^\d]/g, '')) || 0).sort((a, b) => a - b);
      moneyCols.push({
        i,
        negatives: cells.filter((c) => /^[-−(]/.test(c)).length,
        median: values[values.length >> 1]!,
      });
      continue;
    }
    if (cols.currency === undefined && share(cells, (c) => /^[A-Z]{3}$/.test(c)) >= 0.9) {
      cols.currency = i;
      continue;
    }
    const len = cells.reduce((n, c) => n + (/\p{L}{3}/u.test(c) ? c.length : 0), 0) / cells.length;
    if (len > longest.len) longest = { i, len };
  }
  if (cols.date === undefined || (!moneyCols.length && !split)) return null;
  if (split) {
    // The one other money column is the running balance (the pair's orientation was told by it).
    if (moneyCols.length === 1 && split.balance === moneyCols[0]!.i) cols.balance = split.balance;
    if (longest.i >= 0) cols.description.push(longest.i);
    return { cols, firstRow };
  }
  const signed = moneyCols.filter((m) => m.negatives > 0);
  const amount = signed.length === 1 ? signed[0]! : [...moneyCols].sort((a, b) => a.median - b.median)[0]!;
  cols.amount = amount.i;
  // Another money column is the running balance only where it moves by each row's amount (a balance printed before
  // the booking, as some exports do, would make every row look broken to the balance check).
  const others = moneyCols.filter((m) => m !== amount);
  if (others.length === 1) {
    const num = (c: string) => {
      const v = money(c, 2, inferDecimal([c]));
      return v ?? Number.NaN;
    };
    const amt = body.map((r) => num(r[amount.i] ?? ''));
    const bal = body.map((r) => num(r[others[0]!.i] ?? ''));
    let chained = 0;
    for (let k = 1; k < body.length; k += 1)
      if (bal[k]! - bal[k - 1]! === amt[k] || bal[k - 1]! - bal[k]! === amt[k - 1]) chained += 1;
    if (body.length > 1 && chained >= 0.8 * (body.length - 1)) cols.balance = others[0]!.i;
  }
  if (longest.i >= 0) cols.description.push(longest.i);
  // One account number or IBAN on every row: the statement's own account.
  for (let i = 0; i < width && cols.account === undefined; i += 1) {
    const cells = body.map((r) => (r[i] ?? '').replace(/\s+/g, ''));
    if (new Set(cells).size === 1 && /^[A-Z]{2}\d{2}[A-Z0-9]{8,}$|^\d{8,}$/.test(cells[0]!)) cols.account = i;
  }
  return { cols, firstRow };
}

/**
 * Separate debit and credit columns in a file without a header (TD Canada's download: date, description, debit,
 * credit, balance): two neighbouring columns of unsigned money of which each row fills exactly one. Which is which
 * is told by a third money column that runs as the balance (either row order); without one, the first is the debit,
 * as banks print them (Debit/Credit, Soll/Haben, Withdrawals/Deposits). Null when no such pair stands out.
 */
function debitCreditPair(body: string[][], width: number): { debit: number; credit: number; balance?: number } | null {
  const moneyOrEmpty = (c: string) => c === '' || (MONEY_CELL.test(c) && !/^[-−(]/.test(c)) || /^\d{1,9}$/.test(c);
  const value = (c: string) => money(c, 2, inferDecimal([c])) ?? 0;
  for (let i = 0; i + 1 < width; i += 1) {
    const a = body.map((r) => (r[i] ?? '').trim());
    const b = body.map((r) => (r[i + 1] ?? '').trim());
    if (!a.every(moneyOrEmpty) || !b.every(moneyOrEmpty)) continue;
    const one = body.filter((_, k) => (a[k] === '') !== (b[k] === '')).length;
    if (one < 0.9 * body.length || !a.some(Boolean) || !b.some(Boolean)) continue;
    if (!a.some((c) => MONEY_CELL.test(c)) && !b.some((c) => MONEY_CELL.test(c))) continue;
    // A balance column: money on (nearly) every row, outside the pair.
    let best: { debit: number; credit: number; balance?: number } = { debit: i, credit: i + 1 };
    let bestFit = 0;
    for (let j = 0; j < width; j += 1) {
      if (j === i || j === i + 1) continue;
      const bal = body.map((r) => (r[j] ?? '').trim());
      if (share(bal, (c) => MONEY_CELL.test(c) || /^[-+−]?\d{1,9}$/.test(c)) < 0.9) continue;
      const balance = bal.map(value);
      for (const [debit, credit] of [
        [i, i + 1],
        [i + 1, i],
      ] as const) {
        const signed = body.map((r) => value((r[credit] ?? '').trim()) - value((r[debit] ?? '').trim()));
        let oldestFirst = 0;
        let newestFirst = 0;
        for (let k = 1; k < body.length; k += 1) {
          if (Math.abs(balance[k]! - balance[k - 1]! - signed[k]!) < 1e-6) oldestFirst += 1;
          if (Math.abs(balance[k - 1]! - balance[k]! - signed[k - 1]!) < 1e-6) newestFirst += 1;
        }
        const fit = Math.max(oldestFirst, newestFirst);
        if (fit > bestFit && fit >= 0.8 * (body.length - 1)) {
          bestFit = fit;
          best = { debit, credit, balance: j };
        }
      }
    }
    return best;
  }
  return null;
}

export function parseCsvStatement(bytes: Uint8Array, maxRows = CSV_MAX_ROWS): StatementReadResult {
  const r = readCsv(bytes, maxRows, false);
  // A header whose names do not line up with the rows (fields packed or missing) gives no row with a date and an
  // amount: the columns are then told from the cells, as for a file without a header.
  if (!r.ok && r.errors[0]?.code === 'no_transactions') {
    const inferred = readCsv(bytes, maxRows, true);
    if (inferred.ok) return inferred;
  }
  return r;
}

function readCsv(bytes: Uint8Array, maxRows: number, inferAlways: boolean): StatementReadResult {
  const tooMany = () =>
    fail(
      'too_many_rows',
      `The CSV has more than ${maxRows.toLocaleString('en-US')} rows; split it into smaller files.`,
    );
  if (lineCount(bytes, maxRows + 1000) > maxRows + 1000) return tooMany();
  const decoded = decodeText(bytes);
  const text = decoded.text.replace(/^\uFEFF/, '');
  if (!text.trim()) return fail('empty_file', 'The CSV file is empty.');
  if (text.slice(0, 4096).includes('\u0000')) return fail('unsupported_format', 'The file is binary, not CSV text.');
  const st: ParsedStatement = emptyStatement();
  const delimiter = chooseDelimiter(text);
  if (decoded.mixed) {
    st.warnings.push(
      issue('mixed_encoding', 'Some lines are UTF-8 and others Windows-1252; each was decoded on its own.'),
    );
  }
  const cell = (r: string[], i: number | undefined) => (i === undefined ? '' : (r[i] ?? '').trim());
  // Settled from the first records: header row, columns, decimal style, the file's currency.
  let setup: { cols: Columns; dateCol: number; decimal: '.' | ','; fileCurrency: string | null } | null = null;
  // Index of the header row; the first data row follows it (-1: no header row, the data starts at the top).
  let headerAt = -1;
  let headerRow: string[] = [];
  // Header row and the lines above it, for telling a card export (see cardSignsInverted).
  let context = '';
  const pending: string[][] = [];
  // Booking dates stay raw until every row is seen: the day-month order is inferred over all of them.
  const rawDates: string[] = [];
  /** The dates of balance rows: printed like the bookings', they help tell the day from the month. */
  const balanceDates: string[] = [];
  const rawValueDates: string[] = [];
  const lines: number[] = [];
  const transactions: StatementTransaction[] = [];
  const accounts = new Set<string>();
  // Rows whose amount is marked as money in ("+ £1,100.00", "1,100.00 CR", a "CR" cell beside it).
  const markedCredit = new Set<StatementTransaction>();
  let negatives = 0;
  // Balance rows, raw until the decimal style is known: [cell, currency].
  const openings: Array<[string, string | null]> = [];
  const closings: Array<[string, string | null]> = [];

  const settle = (): boolean => {
    headerAt = inferAlways ? -1 : pending.slice(0, 30).findIndex((r) => headerScore(r) > 0);
    let cols: Columns;
    if (headerAt !== -1) cols = columnsOf(pending[headerAt]!);
    else {
      const inferred = inferColumns(pending.slice(0, 200));
      if (!inferred) return false;
      cols = inferred.cols;
      headerAt = inferred.firstRow - 1;
      st.warnings.push(
        issue('columns_inferred', 'No header row names the columns; they were told from what the cells hold.'),
      );
    }
    headerRow = headerAt >= 0 ? pending[headerAt]! : [];
    const sample = pending.slice(headerAt + 1);
    // "Valuta" is the value date in German and Dutch exports, the currency in Scandinavian ones: the cells decide.
    if (cols.valueDate !== undefined && cols.currency === undefined) {
      const cells = sample.map((r) => cell(r, cols.valueDate)).filter(Boolean);
      if (cells.length && share(cells, (c) => /^[A-Z]{3}$/.test(c)) >= 0.8) {
        cols.currency = cols.valueDate;
        cols.valueDate = undefined;
      }
    }
    if (cols.date === undefined && cols.valueDate === undefined) return false;
    const moneyCells = sample
      .flatMap((r) => [cell(r, cols.amount), cell(r, cols.debit), cell(r, cols.credit), cell(r, cols.balance)])
      .filter(Boolean);
    const preamble = pending.slice(0, Math.max(headerAt, 0)).flat().join(' ');
    context = `${preamble} ${headerAt >= 0 ? pending[headerAt]!.join(' ') : ''}`;
    st.accountNumber = IBAN_RE.exec(preamble)?.[1]?.replace(/\s+/g, '') ?? null;
    const fileCurrency =
      cols.headerCurrency ??
      currencyCode(IBAN_RE.test(preamble) ? (findCurrencies(preamble)[0] ?? null) : null) ??
      (moneyCells.length ? (findCurrencies(moneyCells.slice(0, 50).join(' '))[0] ?? null) : null);
    setup = { cols, dateCol: cols.date ?? cols.valueDate!, decimal: inferDecimal(moneyCells), fileCurrency };
    return true;
  };

  const consume = (raw: string[], line: number) => {
    if (!setup || (raw.length === 1 && !raw[0]!.trim())) return;
    const { cols, dateCol, decimal, fileCurrency } = setup;
    const r = realign(raw);
    const rawDate = cell(r, dateCol);
    const isDate = dateParts(rawDate) !== null;
    const rowCurrency = currencyCode(cell(r, cols.currency)) ?? fileCurrency;
    const decimals = decimalsOf(rowCurrency);
    // Pending rows: so marked in a state column, or in place of their date ("Pending" until booked).
    if (NOT_BOOKED.test(fold(cell(r, cols.state))) || NOT_BOOKED.test(fold(rawDate))) return;
    // A balance row (opening or closing, in any text cell) or a turnover row is no booking.
    const texts = [...cols.description, cols.name].map((c) => fold(cell(r, c)).replace(/^[^a-z]+/, '')).filter(Boolean);
    // The balance a balance row states: in the balance column, else where its amount stands (minus in a debit one).
    const balanceCell = () => {
      const debit = cell(r, cols.debit);
      const found = [cell(r, cols.balance), cell(r, cols.amount), cell(r, cols.credit)].find((c) => /\d/.test(c));
      return found ?? (/\d/.test(debit) ? `-${debit.replace(/^-/, '')}` : '');
    };
    if (texts.some((t) => OPENING_ROW.test(t))) {
      openings.push([balanceCell(), rowCurrency]);
      balanceDates.push(rawDate);
      return;
    }
    if (texts.some((t) => CLOSING_ROW.test(t))) {
      closings.push([balanceCell(), rowCurrency]);
      balanceDates.push(rawDate);
      return;
    }
    if (texts.some((t) => TURNOVER_ROW.test(t))) return;
    let signed: number | null = null;
    let type: TransactionType | null = null;
    if (cols.debit !== undefined || cols.credit !== undefined) {
      const d = money(cell(r, cols.debit), decimals, decimal);
      const c = money(cell(r, cols.credit), decimals, decimal);
      if (d !== null && d !== 0) [signed, type] = [-Math.abs(d), 'debit'];
      else if (c !== null && c !== 0) [signed, type] = [Math.abs(c), 'credit'];
    }
    if (signed === null && cols.amount !== undefined) {
      signed = money(cell(r, cols.amount), decimals, decimal);
      const dir = directionOf(cell(r, cols.direction));
      if (signed !== null) type = dir ?? (signed < 0 ? 'debit' : 'credit');
    }
    // A zero amount moves no money (a card hold released, a notice of new terms): not a transaction.
    if (signed === 0) return;
    if (!isDate || signed === null || !type) {
      // Totals, notes and blank lines carry no date or no amount; only a dated row with a broken amount is reported.
      const hasAmount = cell(r, cols.amount) || cell(r, cols.debit) || cell(r, cols.credit);
      if (isDate && hasAmount)
        st.warnings.push(issue('row_skipped', `Line ${line}: the amount could not be read.`, line));
      else if (!isDate && rawDate && hasAmount) {
        st.warnings.push(issue('row_skipped', `Line ${line}: "${rawDate.slice(0, 40)}" is not a date.`, line));
      }
      return;
    }
    const account = cell(r, cols.account).replace(/\s+/g, '');
    if (account) accounts.add(account);
    const rawAmount = cell(r, cols.amount);
    const named = new Set(Object.values(cols).filter((v): v is number => typeof v === 'number'));
    const marked =
      /^\+|\bCR$/i.test(rawAmount) || r.some((c, k) => !named.has(k) && /^CR$/i.test(c.trim()) && k !== dateCol);
    if (signed < 0) negatives += 1;
    const name = cell(r, cols.name) || null;
    rawDates.push(rawDate);
    rawValueDates.push(cols.date !== undefined && cols.valueDate !== undefined ? cell(r, cols.valueDate) : '');
    lines.push(line);
    const t = transaction({
      date: '',
      description: joinText(name, ...cols.description.map((c) => cell(r, c))),
      amountMinor: Math.abs(signed),
      type,
      currency: rowCurrency ?? 'XXX',
      balanceAfterMinor: cols.balance !== undefined ? money(cell(r, cols.balance), decimals, decimal) : null,
      reference: cell(r, cols.reference) || null,
      counterpartyName: name,
      counterpartyIban: cell(r, cols.iban).replace(/\s+/g, '') || null,
    });
    if (marked && type === 'credit') markedCredit.add(t);
    transactions.push(t);
  };

  // A row with more fields than its header, from the delimiter written unquoted inside its text ("…-NETBANK, MUM-…"):
  // the text column takes the extra fields back, so the amounts after it stand in their columns again.
  const filled = (r: string[]) => {
    let n = r.length;
    while (n > 0 && !r[n - 1]!.trim()) n -= 1;
    return n;
  };
  const realign = (r: string[]): string[] => {
    if (!setup || headerAt < 0) return r;
    // The header's own empty fields count (a card export's unnamed CR column), the row's trailing empty ones do not.
    const width = headerRow.length;
    const extra = filled(r) - width;
    const text = setup.cols.description[0] ?? setup.cols.name;
    if (extra <= 0 || text === undefined || text >= width - 1) return r;
    return [...r.slice(0, text), r.slice(text, text + extra + 1).join(delimiter), ...r.slice(text + extra + 1)];
  };

  const flush = () => {
    for (let i = headerAt + 1; i < pending.length; i += 1) consume(pending[i]!, i + 1);
    pending.length = 0;
  };

  let count = 0;
  try {
    // Records go through one at a time and are dropped (on_record returns null), so memory holds the transactions
    // and the first SAMPLE_ROWS records only. Empty lines are kept so a record's number is its line.
    parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      to: maxRows + 40,
      on_record: (record: string[]) => {
        count += 1;
        if (setup) consume(record, count);
        else {
          pending.push(record);
          if (pending.length === SAMPLE_ROWS && settle()) flush();
        }
        return null;
      },
    });
  } catch (e) {
    const err = e as Error & { lines?: number };
    return fail('csv_malformed', `The CSV could not be read: ${err.message}`, err.lines);
  }
  if (!setup) {
    if (!settle()) {
      return fail('columns_not_found', 'No header row names a date and an amount (or debit and credit) column.');
    }
    flush();
  }
  if (count - headerAt - 1 > maxRows) return tooMany();
  const { decimal, fileCurrency } = setup as unknown as { decimal: '.' | ','; fileCurrency: string | null };
  // Month first is American: an export with headers in another script or language, or in another currency than the
  // dollar, writes the day first when its dates do not tell.
  const american = headerRow.every((h) => /^\p{ASCII}*$/u.test(h)) && (fileCurrency === null || fileCurrency === 'USD');
  const order = inferOrder([...rawDates, ...balanceDates.filter(Boolean)], decimal, american);
  const kept: StatementTransaction[] = [];
  transactions.forEach((t, i) => {
    const date = toDate(rawDates[i]!, order);
    if (!date) {
      st.warnings.push(
        issue('row_skipped', `Line ${lines[i]}: "${rawDates[i]!.slice(0, 40)}" is not a date.`, lines[i]),
      );
      return;
    }
    t.date = date;
    t.valueDate = rawValueDates[i] ? toDate(rawValueDates[i]!, order) : null;
    kept.push(t);
  });
  if (kept.length === 0) return fail('no_transactions', 'No row has both a date and an amount.');
  const single = setup as unknown as { cols: Columns };
  const signedOnly =
    single.cols.amount !== undefined && single.cols.debit === undefined && single.cols.credit === undefined;
  // No amount is negative, and only some are marked as money in (a card export: "+ £1,100.00" or a CR beside the
  // payment, purchases unsigned): the unmarked ones are charges.
  const plain = kept.filter((t) => !markedCredit.has(t));
  const onlyCreditsMarked =
    signedOnly && single.cols.direction === undefined && negatives === 0 && plain.length && plain.length < kept.length;
  if (onlyCreditsMarked) {
    for (const t of plain) t.type = 'debit';
    st.warnings.push(
      issue(
        'signs_inverted',
        'Only the money coming in is marked (+ or CR); the unmarked amounts were read as debits.',
      ),
    );
  } else if (signedOnly) {
    const why = cardSignsInverted(kept, context);
    if (why) {
      for (const t of kept) t.type = t.type === 'debit' ? 'credit' : 'debit';
      st.warnings.push(issue('signs_inverted', `Positive amounts are charges in this file (${why}); read as debits.`));
    }
  }
  st.transactions = kept;
  const currencies = new Set(kept.map((t) => t.currency));
  st.currency = currencies.size === 1 && !currencies.has('XXX') ? kept[0]!.currency : null;
  if (currencies.has('XXX')) {
    st.warnings.push(issue('currency_unknown', 'The file states no currency; transactions carry XXX.'));
  }
  // One account on every row is the statement's own (an account-number or IBAN shape, not a name).
  const [account] = accounts;
  if (!st.accountNumber && accounts.size === 1 && /\d{6}|^[A-Z]{2}\d{2}[A-Z0-9]{8,}$/.test(account!))
    st.accountNumber = account!;
  // The first opening and the last closing balance row; one of another currency's sub-account (a file listing
  // several) is not this statement's balance.
  const ours = (rows: Array<[string, string | null]>) =>
    rows.filter(([, c]) => !c || !st.currency || c === st.currency);
  const balance = (b: [string, string | null] | undefined) =>
    b ? money(b[0].replace(/[|]/g, ''), decimalsOf(b[1] ?? st.currency), decimal) : null;
  st.openingBalanceMinor = balance(ours(openings)[0]);
  st.closingBalanceMinor = balance(ours(closings).at(-1));
  // A CSV export states no period: its first and last rows are not one (the screen shows their range as such), and
  // a field the file does not state is null, never made up.
  st.startDate = null;
  st.endDate = null;
  return { ok: true, format: 'csv', statements: [st] };
}

/** Card exports name themselves: a card (number, holder, used) column or the words credit card, in the seven languages. */
const CARD_WORDS =
  /(?<![a-z_])(card|cards|cardid|cardmember|cardholder|creditcard|karte|kartennummer|karteninhaber|kreditkarte|carte|tarjeta|carta|kaart|kaartnummer|kaarthouder|card de credit)(?![a-z_])|カード|利用者|ご利用|כרטיס|אשראי/;
/**
 * Order histories (a shop's "Your orders" export: Amazon, eBay, a web shop) name their order column: their totals
 * are purchases, money spent, as positive numbers.
 */
const ORDER_WORDS =
  /(?<![a-z_])(order id|order number|order no|order #|order nr|bestellnummer|bestell-nr|bestellung nr|numero de commande|n° de commande|no de commande|numero de pedido|n° de pedido|numero d'ordine|numero ordine|n° ordine|bestelnummer|ordernummer|numar comanda)(?![a-z_])/;
/** What pays a card or comes back on it: the rows a card export lists as negative. */
const CARD_CREDIT_WORDS =
  /(payment|thank you|refund|credit|return|cashback|zahlung|gutschrift|erstattung|ruckzahlung|paiement|remboursement|avoir|pago|abono|devolucion|reembolso|pagamento|rimborso|storno|betaling|terugbetaling|restitutie|plata|rambursare)/;

/**
 * Card exports that list purchases as positive amounts and payments as negative (the card issuer's view): the
 * running balance proves it where there is one (each balance moves by the amount with the file's sign, in either
 * order, while the signs say the opposite); without one, the file calls itself a card export and every negative row
 * is a payment or refund while purchases are the most rows; a shop's order history likewise. Returns why, or null.
 */
export function cardSignsInverted(txs: StatementTransaction[], context: string): string | null {
  const signed = (t: StatementTransaction) => (t.type === 'debit' ? -t.amountMinor : t.amountMinor);
  const withBalance = txs.filter((t) => t.balanceAfterMinor !== null).length;
  if (withBalance >= 2 && withBalance === txs.length) {
    let asRead = 0;
    let inverted = 0;
    for (let i = 1; i < txs.length; i += 1) {
      const forward = txs[i]!.balanceAfterMinor! - txs[i - 1]!.balanceAfterMinor!;
      const backward = txs[i - 1]!.balanceAfterMinor! - txs[i]!.balanceAfterMinor!;
      if (forward === signed(txs[i]!) || backward === signed(txs[i - 1]!)) asRead += 1;
      else if (forward === -signed(txs[i]!) || backward === -signed(txs[i - 1]!)) inverted += 1;
    }
    if (inverted > 0 && inverted >= 0.8 * (txs.length - 1) && asRead === 0) return 'the running balance says so';
    if (asRead > 0) return null;
  }
  const f = context.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  // A merchant's export of the card payments it received (Stripe: card_id beside customer_id) is no card statement.
  const card = CARD_WORDS.test(f) && !/(?<![a-z])customer/.test(f);
  if (!card && !ORDER_WORDS.test(f)) return null;
  const negatives = txs.filter((t) => t.type === 'debit');
  const positives = txs.length - negatives.length;
  const folded = (t: StatementTransaction) => t.description.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  // A card export with twice as many charges as refunds: its refunds need not say so ("APPLE.COM/BILL -80.00"); a
  // current account's export with a card column lists mostly spending, negative.
  const mostlyCharges = card && positives >= 2 * negatives.length && positives >= 3;
  if (positives > negatives.length && (mostlyCharges || negatives.every((t) => CARD_CREDIT_WORDS.test(folded(t)))))
    return card
      ? 'a card export whose negative rows are payments and refunds'
      : 'an order history, whose totals are purchases';
  return null;
}

export const csvReader: StatementReader = {
  format: 'csv',
  accepts(head, filename) {
    if (/\.(csv|tsv)$/i.test(filename)) return true;
    const t = new TextDecoder('utf-8').decode(head.subarray(0, 2048)).replace(/^\uFEFF/, '');
    if (/^\s*</.test(t) || /^\s*:20:|^%PDF/.test(t) || t.includes('\u0000')) return false;
    const first = t.split(/\r\n|\r|\n/).slice(0, 3);
    if (first.length > 1 && DELIMITERS.some((d) => first.every((l) => l.split(d).length >= 3))) return true;
    // An export with an account line and blank lines above its table (Nordea's .txt, tab-separated): most of the
    // first non-empty lines split into three fields or more.
    const lines = t
      .split(/\r\n|\r|\n/)
      .slice(0, 20)
      .filter((l) => l.trim());
    return DELIMITERS.some((d) => {
      const rows = lines.filter((l) => l.split(d).length >= 3).length;
      return rows >= 2 && rows * 2 >= lines.length;
    });
  },
  async read(bytes) {
    return parseCsvStatement(bytes);
  },
};
