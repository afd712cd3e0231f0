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
  currencyCode,
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
    ],
  ],
  [
    'currency',
    [
      'currency',
      'ccy',
      'wahrung',
      'devise',
      'monnaie',
      'moneda',
      'divisa',
      'valuta rekening',
      'munt',
      'moneda contului',
    ],
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
      'beneficiar',
      'nume beneficiar',
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
      'payment reference',
      'text',
      'desc',
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
    ],
  ],
];

function norm(h: string): string {
  return fold(h)
    .replace(/\(([a-z]{3})\)/g, ' $1')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Role of one header cell: an exact word list match, else a prefix match (e.g. 'vwz1'), else null. */
function roleOf(header: string): { role: Role; exact: boolean } | null {
  const h = norm(header);
  if (!h) return null;
  for (const [role, words] of HEADERS) if (words.includes(h)) return { role, exact: true };
  for (const [role, words] of HEADERS) {
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
  description: number[];
  headerCurrency: string | null;
}

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
    if (cols[key] === undefined || (r.exact && !exactness[key])) {
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

/** Numeric parts of a date cell: [a, b, y] for a/b/y, or a resolved date for unambiguous shapes. */
function dateParts(raw: string): { ymd: string | null } | { a: number; b: number; y: number } | null {
  const s = raw.trim();
  let m = /^(\d{4})[-./]?(\d{1,2})[-./]?(\d{1,2})(?:[ T].*)?$/.exec(s);
  if (m && (s.length === 8 || /[-./]/.test(s.slice(4, 5)) || /^\d{8}[ T]/.test(s)))
    return { ymd: isoDate(Number(m[1]), Number(m[2]), Number(m[3])) };
  m = /^(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2})(?:[ T,].*)?$/.exec(s);
  if (m) return { a: Number(m[1]), b: Number(m[2]), y: year(m[3]!) };
  m = /^(\d{1,2})[-. ]([A-Za-zÀ-ÿ]{3,9})\.?[-. ,]+(\d{4}|\d{2})$/.exec(s);
  if (m) {
    const mon = MONTHS[fold(m[2]!)] ?? MONTHS[fold(m[2]!).slice(0, 3)];
    return { ymd: mon ? isoDate(year(m[3]!), mon, Number(m[1])) : null };
  }
  m = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(s);
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
function inferOrder(values: string[], decimal: '.' | ','): DateOrder {
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
  if (dotted) return 'dmy';
  return slashed && decimal === '.' ? 'mdy' : 'dmy';
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
  const p = parseAmount(s, decimals, hint);
  if (!p) return null;
  return negative ? -Math.abs(p.minor) : p.minor;
}

function directionOf(raw: string | undefined): TransactionType | null {
  const v = fold(raw ?? '').trim();
  if (/^(debit|dr|d|s|soll|af|debet|withdrawal|cargo|addebito|uscita)$/.test(v)) return 'debit';
  if (/^(credit|cr|c|h|haben|bij|deposit|abono|accredito|entrata)$/.test(v)) return 'credit';
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

export function parseCsvStatement(bytes: Uint8Array, maxRows = CSV_MAX_ROWS): StatementReadResult {
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
  if (decoded.mixed) {
    st.warnings.push(
      issue('mixed_encoding', 'Some lines are UTF-8 and others Windows-1252; each was decoded on its own.'),
    );
  }
  const cell = (r: string[], i: number | undefined) => (i === undefined ? '' : (r[i] ?? '').trim());
  // Settled from the first records: header row, columns, decimal style, the file's currency.
  let setup: { cols: Columns; dateCol: number; decimal: '.' | ','; fileCurrency: string | null } | null = null;
  let headerAt = -1;
  // Header row and the lines above it, for telling a card export (see cardSignsInverted).
  let context = '';
  const pending: string[][] = [];
  // Booking dates stay raw until every row is seen: the day-month order is inferred over all of them.
  const rawDates: string[] = [];
  const rawValueDates: string[] = [];
  const lines: number[] = [];
  const transactions: StatementTransaction[] = [];

  const settle = (): boolean => {
    headerAt = pending.slice(0, 30).findIndex((r) => headerScore(r) > 0);
    if (headerAt === -1) return false;
    const cols = columnsOf(pending[headerAt]!);
    const sample = pending.slice(headerAt + 1);
    const moneyCells = sample
      .flatMap((r) => [cell(r, cols.amount), cell(r, cols.debit), cell(r, cols.credit), cell(r, cols.balance)])
      .filter(Boolean);
    const preamble = pending.slice(0, headerAt).flat().join(' ');
    context = `${preamble} ${pending[headerAt]!.join(' ')}`;
    st.accountNumber = IBAN_RE.exec(preamble)?.[1]?.replace(/\s+/g, '') ?? null;
    const fileCurrency =
      cols.headerCurrency ??
      currencyCode(IBAN_RE.test(preamble) ? (findCurrencies(preamble)[0] ?? null) : null) ??
      (moneyCells.length ? (findCurrencies(moneyCells.slice(0, 50).join(' '))[0] ?? null) : null);
    setup = { cols, dateCol: cols.date ?? cols.valueDate!, decimal: inferDecimal(moneyCells), fileCurrency };
    return true;
  };

  const consume = (r: string[], line: number) => {
    if (!setup || (r.length === 1 && !r[0]!.trim())) return;
    const { cols, dateCol, decimal, fileCurrency } = setup;
    const rawDate = cell(r, dateCol);
    const isDate = dateParts(rawDate) !== null;
    const rowCurrency = currencyCode(cell(r, cols.currency)) ?? fileCurrency;
    const decimals = decimalsOf(rowCurrency);
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
    const name = cell(r, cols.name) || null;
    rawDates.push(rawDate);
    rawValueDates.push(cols.date !== undefined && cols.valueDate !== undefined ? cell(r, cols.valueDate) : '');
    lines.push(line);
    transactions.push(
      transaction({
        date: '',
        description: joinText(name, ...cols.description.map((c) => cell(r, c))),
        amountMinor: Math.abs(signed),
        type,
        currency: rowCurrency ?? 'XXX',
        balanceAfterMinor: cols.balance !== undefined ? money(cell(r, cols.balance), decimals, decimal) : null,
        reference: cell(r, cols.reference) || null,
        counterpartyName: name,
        counterpartyIban: cell(r, cols.iban).replace(/\s+/g, '') || null,
      }),
    );
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
      delimiter: detectDelimiter(text),
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
  const order = inferOrder(rawDates, (setup as unknown as { decimal: '.' | ',' }).decimal);
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
  if (single.cols.amount !== undefined && single.cols.debit === undefined && single.cols.credit === undefined) {
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
  let [first, last] = [kept[0]!.date, kept[0]!.date];
  for (const t of kept) [first, last] = [t.date < first ? t.date : first, t.date > last ? t.date : last];
  st.startDate = first;
  st.endDate = last;
  return { ok: true, format: 'csv', statements: [st] };
}

/** Card exports name themselves: a card (number, holder, used) column or the words credit card, in the seven languages. */
const CARD_WORDS =
  /(?<![a-z_])(card|cards|cardmember|cardholder|creditcard|karte|kartennummer|karteninhaber|kreditkarte|carte|tarjeta|carta|kaart|kaartnummer|kaarthouder|card de credit)(?![a-z_])/;
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
  const card = CARD_WORDS.test(f);
  if (!card && !ORDER_WORDS.test(f)) return null;
  const negatives = txs.filter((t) => t.type === 'debit');
  const positives = txs.length - negatives.length;
  const folded = (t: StatementTransaction) => t.description.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (positives > negatives.length && negatives.every((t) => CARD_CREDIT_WORDS.test(folded(t))))
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
    return first.length > 1 && DELIMITERS.some((d) => first.every((l) => l.split(d).length >= 3));
  },
  async read(bytes) {
    return parseCsvStatement(bytes);
  },
};
