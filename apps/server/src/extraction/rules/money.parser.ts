import { parseAmount } from '@invoicebox/core/money';
import { findDates } from './date.parser';

/**
 * Amounts and currencies as printed on invoices, parsed straight to integer minor units (no floats on the way).
 * Number styles: 1,234.56 / 1.234,56 / 1 234,56 / 1'234.56 (and 1234.56, 1234,56, -12.00, (12.00), 12.00-).
 */

/** Decimal places per ISO 4217 currency where they differ from 2. */
const DECIMALS: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  HUF: 2,
  BHD: 3,
  KWD: 3,
  JOD: 3,
  OMR: 3,
  TND: 3,
  IQD: 3,
  LYD: 3,
  PYG: 0,
  UGX: 0,
  XOF: 0,
  XAF: 0,
};

export const KNOWN_CURRENCIES = new Set([
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'RON',
  'PLN',
  'CZK',
  'HUF',
  'SEK',
  'NOK',
  'DKK',
  'JPY',
  'CNY',
  'INR',
  'CAD',
  'AUD',
  'NZD',
  'BGN',
  'MKD',
  'TRY',
  'RUB',
  'UAH',
  'BYN',
  'BRL',
  'MXN',
  'ZAR',
  'SGD',
  'HKD',
  'KRW',
  'AED',
  'SAR',
  'ILS',
  'ISK',
  'HRK',
  'RSD',
  'MDL',
  'BHD',
  'KWD',
  'JOD',
  'OMR',
  'TND',
  'VND',
  'CLP',
  'THB',
  'MYR',
  'IDR',
  'PHP',
  // Latin America, South Asia, Africa and the Middle East (not codes that are common words in capitals: ALL, PEN,
  // BOB, CUP, CRC, MAD).
  'COP',
  'ARS',
  'UYU',
  'PYG',
  'DOP',
  'GTQ',
  'NPR',
  'PKR',
  'LKR',
  'BDT',
  'EGP',
  'QAR',
  'TWD',
  'NGN',
  'KES',
  'GHS',
  'UGX',
  'XOF',
  'XAF',
  'KZT',
  'GEL',
  'AZN',
  'IQD',
  'LYD',
]);

export function currencyDecimals(currency: string | null | undefined): number {
  if (!currency) return 2;
  return DECIMALS[currency] ?? 2;
}

/** Symbols and local abbreviations → ISO code. `$` alone is taken as USD (the common case in our mail). */
const SYMBOLS: Array<[RegExp, string]> = [
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/₹/, 'INR'],
  [/[¥￥円]/, 'JPY'],
  [/₩/, 'KRW'],
  [/₺/, 'TRY'],
  // "руб", and as a Cyrillic OCR model reads it in Latin look-alikes after a figure, "0,05py6".
  [/₽|(?<![\p{L}])(?:руб|рублей)(?![\p{L}])\.?|(?<=\d\s?)py6(?![\p{L}])/u, 'RUB'],
  [/(?<![\p{L}])грн(?![\p{L}])\.?/u, 'UAH'],
  // The Macedonian denar ("413.000ден", "МКД"), the Serbian dinar ("дин.", "РСД") and the Bulgarian lev ("лв.").
  [/(?<=\d\s?)ден(?![\p{L}])\.?|(?<![\p{L}])МКД(?![\p{L}])/u, 'MKD'],
  [/(?<=\d\s?)дин(?![\p{L}])\.?|(?<![\p{L}])РСД(?![\p{L}])/u, 'RSD'],
  [/(?<=\d\s?)лв(?![\p{L}])\.?/u, 'BGN'],
  [/₴/, 'UAH'],
  [/₪/, 'ILS'],
  [/zł/i, 'PLN'],
  [/Kč/, 'CZK'],
  // Written without its háček where a font or a system lacks it: "43 805,00 Kc", "Celkem v Kc".
  [/(?<=\d\s?|\sv\s)Kc(?![\p{L}])/u, 'CZK'],
  [/(?<![A-Za-z])(?:US\$|USD\$)/, 'USD'],
  [/(?<![A-Za-z])(?:C\$|CA\$)/, 'CAD'],
  [/(?<![A-Za-z])(?:A\$|AU\$)/, 'AUD'],
  [/(?<![A-Za-z])R\$/, 'BRL'],
  [/\$/, 'USD'],
  [/(?<![A-Za-z])(?:lei|Lei|LEI)(?![A-Za-z])/, 'RON'],
  [/(?<![A-Za-z])(?:Rs\.?|INR)(?![A-Za-z])/, 'INR'],
  [/(?<![A-Za-z])(?:Fr\.|SFr\.?|CHF)(?![A-Za-z])/, 'CHF'],
  [/(?<![A-Za-z])(?:Euro|EURO|Euros|euros)(?![A-Za-z])/, 'EUR'],
  [/(?<![A-Za-z])(?:Ft)(?![A-Za-z])/, 'HUF'],
  // The Turkish lira as Turkish invoices print it, after the figure: "18.757,04 TL", "100 TL".
  [/(?<=\d\s?)TL(?![A-Za-z])/, 'TRY'],
  // Malaysian ringgit: "RM 33.92", "RM33.92", and a column's unit "Amount(RM)".
  [/(?<![A-Za-z])RM(?=\s?\d)|\(RM(?:\)|$)/, 'MYR'],
];

/** ISO-shaped words that are part of a firm's legal form ("… SDN BHD": Malaysia's, not Bahrain's dinar). */
const LEGAL_FORM_CODES = /(?:SDN\.?|Sdn\.?)\s*$/;

const ISO_RE = /(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])/g;

/** Every currency mentioned in a piece of text, ISO codes first, then symbols. */
export function findCurrencies(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(ISO_RE)) {
    const code = m[1]!;
    if (KNOWN_CURRENCIES.has(code) && !LEGAL_FORM_CODES.test(text.slice(Math.max(0, (m.index ?? 0) - 6), m.index)))
      found.push(code);
  }
  for (const [re, code] of SYMBOLS) {
    if (re.test(text)) found.push(code);
  }
  return found;
}

export interface ParsedAmount {
  /** Value scaled by 10^decimals. */
  minor: number;
  decimals: number;
  /** Number of digits printed after the decimal separator (0 when none). */
  printedDecimals: number;
  negative: boolean;
  /** The text matched, as printed. */
  raw: string;
  /** Index of the match in the searched string. */
  index: number;
  currency: string | null;
}

// The number parser itself lives in @invoicebox/core so that the web app reads a stored amount the same way.
export { parseAmount };

// A number in any of the four styles (and Indian lakh grouping), optionally signed; currency symbols/codes around it are read separately.
// Whole amounts are also printed with a dash for the cents: "1.234,-" and "1 250,--" (German, Czech, Nordic),
// "Fr. 120.–" (Swiss), "1 250:-" (Swedish); ZERO_CENTS marks that ending.
const ZERO_CENTS_SRC = String.raw`(?:[.,][-–—]{1,2}|:-)(?![\d-])`;
const ZERO_CENTS = /(?:[.,][-–—]{1,2}|:-)$/;
const NUMBER_SRC = String.raw`[-−]?\(?\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?\)?(?:[-−](?=\s|$))?|[-−]?\d{1,3}(?:[ \u00a0\u202f\u2009'’.]\d{3})*${ZERO_CENTS_SRC}|[-−]?\(?\d{1,3}(?:[ \u00a0\u202f\u2009'’.,]\d{3})*(?:[.,]\d{1,3})?\)?(?:[-−](?=\s|$))?|[-−]?\d+(?:[.,]\d{1,3})?(?:-(?=\s|$))?`;
// kr (the Nordic kroner and kronor, told apart by the page: nordicKrone) and Ft (forint) are read after a number.
/** Cyrillic abbreviations of currencies, money only next to a figure (alone they are words: "ден" is a day). */
const CYRILLIC_CURRENCY: Record<string, string> = { руб: 'RUB', грн: 'UAH', ден: 'MKD', дин: 'RSD', лв: 'BGN' };
const CUR_SRC = String.raw`€|£|\$|₹|¥|￥|円|zł|Kč|lei|Lei|LEI|Rs\.?|Fr\.|CHF|RM|Ft|kr\.?|Kr\.?|${Object.keys(
  CYRILLIC_CURRENCY,
)
  .map((k) => `${k}\\.?`)
  .join('|')}|₽|₴|[A-Z]{3}`;
const AMOUNT_RE = new RegExp(
  String.raw`(?<![\w./:-])(?:(${CUR_SRC})\s?)?(${NUMBER_SRC})(?:\s?(${CUR_SRC}))?(?![\w/:%]|[.,]\d|\.\w|\s%)`,
  'g',
);

function currencyOf(token: string | undefined): string | null {
  if (!token) return null;
  if (/^[A-Z]{3}$/.test(token)) return KNOWN_CURRENCIES.has(token) ? token : null;
  if (token === 'RM') return 'MYR';
  const cyrillic = CYRILLIC_CURRENCY[token.replace(/\.$/, '')];
  if (cyrillic) return cyrillic;
  return findCurrencies(token)[0] ?? null;
}

/**
 * Every amount-looking number in a text. Plain integers count only when `allowIntegers` (a cell holding nothing but
 * the number) or a currency sits next to them, so years, quantities and house numbers stay out.
 */
export function findAmounts(text: string, options: { allowIntegers?: boolean; decimalHint?: '.' | ',' } = {}) {
  const out: ParsedAmount[] = [];
  // Digits inside dates ("01-11-2022", "5. März 2024") are never amounts.
  const dates = /\d[./-]\d|\d\.? \p{L}/u.test(text) ? findDates(text) : [];
  for (const m of text.matchAll(AMOUNT_RE)) {
    const start = m.index ?? 0;
    if (dates.some((d) => start < d.index + d.length && start + m[0].length > d.index)) continue;
    const before = m[1];
    const num = m[2]!.trim();
    const after = m[3];
    const curBefore = currencyOf(before);
    const curAfter = currencyOf(after);
    if ((before && !curBefore) || (after && !curAfter && !before)) {
      // A three-letter word that is not a currency (e.g. "PCS 12"): ignore the word, keep the number.
    }
    // "$5,270.00 AUD", "$ 120 CAD": the code names which dollar (or other sign) the symbol stands for.
    const currency = curBefore && curAfter && /^[A-Z]{3}$/.test(after ?? '') ? curAfter : (curBefore ?? curAfter);
    const zeroCents = ZERO_CENTS.test(num);
    const hasDecimals = zeroCents || /[.,]\d{1,2}\)?-?$/.test(num);
    // "150 kr": a krone, whichever; the page decides which (nordicKrone).
    const krone = /^[kK]r\.?$/.test(after ?? before ?? '');
    if (!hasDecimals && !currency && !krone && !options.allowIntegers) continue;
    // A currency without minor units printed with two decimals ("¥52.70": a yuan read as "¥") keeps them; the fields
    // rules settle the currency and round only then.
    const dec = currencyDecimals(currency) === 0 && /\d[.,]\d{2}\)?$/.test(num) ? 2 : currencyDecimals(currency);
    // "1.234,-": every separator left before the dash groups thousands.
    const parsed = zeroCents
      ? parseAmount(num.replace(ZERO_CENTS, '').replace(/[^\d-−]/g, ''), dec)
      : parseAmount(num, dec, options.decimalHint);
    if (!parsed) continue;
    out.push({
      ...parsed,
      decimals: dec,
      raw: m[0],
      index: m.index ?? 0,
      currency,
    });
  }
  return out;
}

/** Minor units → a JS number for the public `amount` field (display only; computation stays in minor units). */
export function minorToNumber(minor: number, decimals: number): number {
  return Number((minor / 10 ** decimals).toFixed(decimals));
}

/** Decimal string from XML ("1234.50") → minor units. */
export function parseXmlDecimal(value: string, decimals: number): number | null {
  const s = value.trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(s)) return null;
  const p = parseAmount(s.replace(/^\+/, ''), decimals, '.');
  return p ? p.minor : null;
}

const US_STATES = [
  'Alabama',
  'Alaska',
  'Arizona',
  'Arkansas',
  'California',
  'Colorado',
  'Connecticut',
  'Delaware',
  'Florida',
  'Georgia',
  'Hawaii',
  'Idaho',
  'Illinois',
  'Indiana',
  'Iowa',
  'Kansas',
  'Kentucky',
  'Louisiana',
  'Maine',
  'Maryland',
  'Massachusetts',
  'Michigan',
  'Minnesota',
  'Mississippi',
  'Missouri',
  'Montana',
  'Nebraska',
  'Nevada',
  'New Hampshire',
  'New Jersey',
  'New Mexico',
  'New York',
  'North Carolina',
  'North Dakota',
  'Ohio',
  'Oklahoma',
  'Oregon',
  'Pennsylvania',
  'Rhode Island',
  'South Carolina',
  'South Dakota',
  'Tennessee',
  'Texas',
  'Utah',
  'Vermont',
  'Virginia',
  'Washington',
  'West Virginia',
  'Wisconsin',
  'Wyoming',
];

/**
 * A US postal address: a state's code or its name, and a ZIP code ("Gaithersburg, MD 20878", "Seattle, Washington
 * 98158").
 */
export const US_ADDRESS = new RegExp(
  `(?<![A-Za-z])(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|${US_STATES.join('|')}|${US_STATES.map((n) => n.toUpperCase()).join('|')}),? \\d{5}(?:-\\d{4})?(?!\\d)`,
);

/**
 * A restaurant bill's tip suggestions ("Suggested tip amounts are provided …", "Tip guide: 18% = 21.12"): tipping at
 * the table is North American. Folded text.
 */
const TIP_SUGGESTION = /(?<![a-z])(?:suggested tip|tip amounts?|tip guide|tip calculation|gratuity guide)(?![a-z])/;

/**
 * A page that is American without printing a currency: a US address, or tip suggestions under the total. Where no
 * currency is printed, its amounts are dollars and its dates put the month first.
 */
export function americanPage(text: string, folded: string): boolean {
  return US_ADDRESS.test(text) || TIP_SUGGESTION.test(folded);
}

const CANADIAN_POSTCODE =
  /(?<![A-Za-z0-9])[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d(?![A-Za-z0-9])/;

/** Dollar countries other than the United States, by what their invoices print: the country, its tax id. */
const OTHER_DOLLARS: Array<[RegExp, string]> = [
  [/(?<![a-z])(?:australia|abn|a\.b\.n\.)(?![a-z])|(?<![a-z])(?:gst inc|incl\.? gst)/, 'AUD'],
  [/(?<![a-z])(?:new zealand|aotearoa|gst no)(?![a-z])/, 'NZD'],
  [/(?<![a-z])(?:singapore|uen)(?![a-z])/, 'SGD'],
  [/(?<![a-z])(?:hong kong|kowloon)(?![a-z])/, 'HKD'],
  // Canada by its provinces and its harmonised sales tax ("HST 816650063 RT0001", "GST/HST").
  [
    /(?<![a-z])(?:ontario|quebec|british columbia|alberta|manitoba|saskatchewan|nova scotia|new brunswick|hst|gst\/hst|qst)(?![a-z])/,
    'CAD',
  ],
  // Peso countries print "$" too: Chile (its RUT, the SII), Mexico (RFC, CFDI), Colombia, Argentina (CUIT).
  [/(?<![a-z])(?:chile|rut|sii\.cl|santiago de chile)(?![a-z])/, 'CLP'],
  [/(?<![a-z])(?:mexico|r\.f\.c\.|rfc|cfdi)(?![a-z])/, 'MXN'],
  [/(?<![a-z])(?:colombia|bogota|medellin)(?![a-z])/, 'COP'],
  [/(?<![a-z])(?:argentina|cuit|c\.u\.i\.t|afip|ingresos brutos|ing\.\s?brutos)(?![a-z])/, 'ARS'],
];

/**
 * The dollar a bare "$" stands for on a page that names nothing American: Canada's (a Canadian postcode or the
 * country), Australia's, New Zealand's, Singapore's or Hong Kong's, when exactly one of them is named; else null.
 * `addresses`: also by the postal address (a statement's, whose holder lives where the account is; on an invoice it
 * may be the customer's).
 */
export function otherDollar(text: string, folded: string, addresses = false): string | null {
  // "USD", "US$", or a US state and ZIP code ("Your City AZ 12345").
  if (/(?<![A-Za-z])(?:USD|US\$|U\.S\.)|(?<![A-Za-z])[A-Z]{2} \d{5}(?:-\d{4})?(?!\d)/.test(text)) return null;
  if (/(?<![a-z])(?:united states|usa)(?![a-z])/.test(folded)) return null;
  const found = new Set<string>();
  if (CANADIAN_POSTCODE.test(text) || /(?<![a-z])canada(?![a-z])/.test(folded)) found.add('CAD');
  for (const [re, code] of OTHER_DOLLARS) if (re.test(folded)) found.add(code);
  // A statement's holder lives where the account is: an Australian state and postcode ("NEWTOWN NSW 2042").
  if (addresses && /(?<![A-Za-z])(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT) \d{4}(?!\d)/.test(text)) found.add('AUD');
  return found.size === 1 ? [...found][0]! : null;
}
