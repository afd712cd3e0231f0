import { type GenLang, VOCAB } from './vocabulary';

/**
 * Seeded generator of invoice layouts for the evaluation set: seven languages, four number styles, five currencies,
 * four layouts, distractor numbers/dates/amounts and multi-page item lists. It produces a list of positioned text
 * runs (A4 points, top-left origin) that both the PDF writer and the scan renderer draw, plus the truth.
 */

export type NumberStyle = 'en' | 'de' | 'fr' | 'ch';
export type Currency = 'EUR' | 'USD' | 'GBP' | 'CHF' | 'RON';

export interface TextRun {
  page: number;
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  align?: 'left' | 'right';
}

export interface GeneratedInvoice {
  id: string;
  lang: GenLang;
  style: NumberStyle;
  currency: Currency;
  layout: string;
  pages: number;
  runs: TextRun[];
  truth: { vendor: string; amount: number; currency: string; invoice_date: string; invoice_number: string };
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

/** Formats integer cents in one of the four number styles. */
export function formatMoney(cents: number, style: NumberStyle): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const int = Math.floor(abs / 100).toString();
  const frac = (abs % 100).toString().padStart(2, '0');
  const group = { en: ',', de: '.', fr: '\u00a0', ch: "'" }[style];
  const dec = { en: '.', de: ',', fr: ',', ch: '.' }[style];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${neg ? '-' : ''}${grouped}${dec}${frac}`;
}

function withCurrency(amount: string, currency: Currency, r: Rng, lang: GenLang): string {
  const symbol = { EUR: '€', USD: '$', GBP: '£', CHF: 'CHF', RON: 'lei' }[currency];
  const v = r();
  if (v < 0.35)
    return currency === 'EUR' && lang !== 'en' && lang !== 'nl'
      ? `${amount} ${symbol}`
      : `${symbol} ${amount}`.replace(/^([$£]) /, '$1');
  if (v < 0.6) return `${amount} ${currency}`;
  if (v < 0.8) return `${currency} ${amount}`;
  return amount;
}

function formatDate(y: number, m: number, d: number, lang: GenLang, currency: Currency, r: Rng): string {
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  const month = VOCAB[lang].months[m - 1]!;
  const v = r();
  if (v < 0.15) return `${y}-${mm}-${dd}`;
  if (v < 0.45) {
    switch (lang) {
      case 'en':
        return currency === 'USD' ? `${month} ${d}, ${y}` : `${d} ${month} ${y}`;
      case 'de':
        return `${d}. ${month} ${y}`;
      case 'es':
        return `${d} de ${month} de ${y}`;
      default:
        return `${d} ${month} ${y}`;
    }
  }
  if (lang === 'en' && currency === 'USD') return `${mm}/${dd}/${y}`;
  const sep = { en: '/', de: '.', fr: '/', it: '/', es: '/', ro: '.', nl: '-' }[lang];
  return `${dd}${sep}${mm}${sep}${y}`;
}

export function addDays(y: number, m: number, d: number, days: number): [number, number, number] {
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
}

function invoiceNumber(r: Rng, y: number): string {
  const n = int(r, 1, 99999);
  const forms = [
    `${y}-${String(n).padStart(4, '0')}`,
    `INV-${int(r, 10000, 99999)}`,
    `RE-${y}/${int(r, 100, 999)}`,
    `F${y}${String(n).padStart(5, '0')}`,
    `${int(r, 1000000, 9999999)}`,
    `A-${int(r, 10, 999)}/${y}`,
    `FA${int(r, 100000, 999999)}`,
  ];
  return pick(r, forms);
}

const STYLE_BY_LANG: Record<GenLang, NumberStyle[]> = {
  en: ['en', 'en', 'ch'],
  de: ['de', 'de', 'ch', 'fr'],
  fr: ['fr', 'fr', 'de'],
  it: ['de', 'de', 'fr'],
  es: ['de', 'fr', 'en'],
  ro: ['de', 'en', 'fr'],
  nl: ['de', 'de', 'en'],
};
const CURRENCY_BY_LANG: Record<GenLang, Currency[]> = {
  en: ['USD', 'GBP', 'EUR', 'USD'],
  de: ['EUR', 'EUR', 'CHF'],
  fr: ['EUR', 'EUR', 'CHF'],
  it: ['EUR', 'EUR', 'CHF'],
  es: ['EUR', 'EUR', 'USD'],
  ro: ['RON', 'RON', 'EUR'],
  nl: ['EUR', 'EUR', 'GBP'],
};

export function generateInvoice(seed: number, lang: GenLang, forceLayout?: string): GeneratedInvoice {
  const r = mulberry32(seed);
  const V = VOCAB[lang];
  const style = pick(r, STYLE_BY_LANG[lang]);
  const currency = pick(r, CURRENCY_BY_LANG[lang]);
  const layout = forceLayout ?? pick(r, ['classic', 'header-row', 'window', 'compact']);
  const useLegal = r() < 0.8;
  const vendor = useLegal ? `${pick(r, V.trades)} ${pick(r, V.legal)}` : pick(r, V.trades);
  const customer =
    r() < 0.5
      ? `${pick(r, V.names)} ${pick(r, V.surnames)}`
      : `${pick(r, V.surnames)} & ${pick(r, V.surnames)} ${pick(r, V.legal)}`;
  const y = int(r, 2019, 2026);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const number = invoiceNumber(r, y);
  const fmtD = (yy: number, mm: number, dd: number) => formatDate(yy, mm, dd, lang, currency, r);
  const money = (c: number) => withCurrency(formatMoney(c, style), currency, r, lang);
  const plain = (c: number) => formatMoney(c, style);

  // Items and totals (integer cents).
  const nItems = r() < 0.2 ? int(r, 22, 40) : int(r, 1, 9);
  const items = Array.from({ length: nItems }, () => {
    const qty = int(r, 1, 12);
    const unit = int(r, 150, r() < 0.2 ? 250000 : 40000);
    return { desc: pick(r, V.items), qty, unit, total: qty * unit };
  });
  const net0 = items.reduce((s, it) => s + it.total, 0);
  const discount = r() < 0.2 ? Math.round(net0 * 0.05) : 0;
  const shipping = r() < 0.3 ? int(r, 490, 2500) : 0;
  const net = net0 - discount + shipping;
  const rate = { en: 20, de: 19, fr: 20, it: 22, es: 21, ro: 19, nl: 21 }[lang];
  const vat = Math.round((net * rate) / 100);
  const total = net + vat;
  const deposit = r() < 0.2 ? Math.round(total * 0.3) : 0;
  const previous = r() < 0.15 ? int(r, 1000, 90000) : 0;

  const runs: TextRun[] = [];
  let page = 1;
  const T = (x: number, yy: number, text: string, size = 9, extra: Partial<TextRun> = {}) =>
    runs.push({ page, x, y: yy, text, size, ...extra });

  const due = addDays(y, m, d, pick(r, [14, 30, 10]));
  const ord = addDays(y, m, d, -int(r, 1, 20));
  const meta: Array<[string, string]> = [
    [pick(r, V.number), number],
    [pick(r, V.date), fmtD(y, m, d)],
  ];
  const extras: Array<[string, string]> = [
    [pick(r, V.customerNo), String(int(r, 10000, 999999))],
    [pick(r, V.due), fmtD(...due)],
    [pick(r, V.order), `${pick(r, ['PO', 'B', ''])}${int(r, 100000, 9999999)}`],
    [pick(r, V.orderDate), fmtD(...ord)],
    [pick(r, V.delivery), fmtD(...addDays(y, m, d, -int(r, 0, 5)))],
  ].filter(() => r() < 0.6) as Array<[string, string]>;
  const metaAll = [...meta, ...extras].sort(() => r() - 0.5);

  const vendorAddr = [pick(r, V.streets), pick(r, V.cities)];
  const custAddr = [pick(r, V.streets), pick(r, V.cities)];
  const title = pick(r, V.title);
  let yy = 60;

  if (layout === 'window') {
    T(50, 40, `${vendor} · ${vendorAddr[0]} · ${vendorAddr[1]}`.replace(/·/g, '-'), 7);
    T(50, 62, customer, 10);
    T(50, 75, custAddr[0]!, 10);
    T(50, 88, custAddr[1]!, 10);
    T(50, 150, title, 16, { bold: true });
    yy = 175;
    for (const [k, v] of metaAll) {
      T(50, yy, `${k}:`, 9);
      T(160, yy, v, 9);
      yy += 13;
    }
  } else {
    T(50, 50, vendor, layout === 'compact' ? 13 : 18, { bold: true });
    T(50, 70, vendorAddr[0]!, 9);
    T(50, 82, vendorAddr[1]!, 9);
    T(50, 94, `${V.phone} +${int(r, 30, 49)} ${int(r, 100, 999)} ${int(r, 100000, 999999)}`, 9);
    if (layout === 'compact') {
      T(50, 130, `${title} ${meta[0]![1]} - ${meta[1]![1]}`, 12, { bold: true });
      T(50, 150, `${pick(r, V.billTo)}: ${customer}, ${custAddr[0]}, ${custAddr[1]}`, 9);
      yy = 175;
      for (const [k, v] of extras) {
        T(50, yy, `${k}: ${v}`, 9);
        yy += 13;
      }
      // The number and date were in the title line; repeat them as a labelled pair half of the time.
      if (r() < 0.5) {
        T(50, yy, `${meta[0]![0]}: ${meta[0]![1]}`, 9);
        yy += 13;
      }
    } else {
      T(545, 50, title, 20, { bold: true, align: 'right' });
      T(50, 130, `${pick(r, V.billTo)}:`, 9, { bold: true });
      T(50, 143, customer, 10);
      T(50, 156, custAddr[0]!, 9);
      T(50, 169, custAddr[1]!, 9);
      if (layout === 'header-row') {
        const cols = [...meta, ...extras.slice(0, 3)].sort(() => r() - 0.5);
        cols.forEach(([k, v], i) => {
          T(50 + i * 100, 200, k, 8, { bold: true });
          T(50 + i * 100, 213, v, 9);
        });
        yy = 235;
      } else {
        let my = 120;
        for (const [k, v] of metaAll) {
          T(330, my, `${k}:`, 9);
          T(545, my, v, 9, { align: 'right' });
          my += 13;
        }
        yy = Math.max(195, my + 15);
      }
    }
  }
  if (r() < 0.5) {
    T(
      50,
      yy,
      `${pick(r, V.vatId)}: ${pick(r, ['DE', 'FR', 'IT', 'ES', 'RO', 'NL', 'GB'])}${int(r, 100000000, 999999999)}`,
      8,
    );
    yy += 16;
  }

  // Items table, continued on the next page when long.
  const header = () => {
    T(50, yy, V.desc, 9, { bold: true });
    T(330, yy, V.qty, 9, { bold: true, align: 'right' });
    T(430, yy, V.unit, 9, { bold: true, align: 'right' });
    T(545, yy, V.lineTotal, 9, { bold: true, align: 'right' });
    yy += 16;
  };
  header();
  for (const it of items) {
    if (yy > 700) {
      T(545, 800, `${V.page} ${page}`, 8, { align: 'right' });
      page++;
      yy = 60;
      T(50, yy, `${vendor} - ${title} ${number}`, 9);
      yy += 25;
      header();
    }
    T(50, yy, it.desc, 9);
    T(330, yy, String(it.qty), 9, { align: 'right' });
    T(430, yy, plain(it.unit), 9, { align: 'right' });
    T(545, yy, plain(it.total), 9, { align: 'right' });
    yy += 14;
  }
  if (yy > 600) {
    page++;
    yy = 60;
    T(50, yy, `${vendor} - ${title} ${number}`, 9);
    yy += 30;
  }
  yy += 10;
  const sumRow = (label: string, value: string, bold = false) => {
    T(330, yy, label, bold ? 11 : 9, { bold });
    T(545, yy, value, bold ? 11 : 9, { align: 'right', bold });
    yy += bold ? 18 : 14;
  };
  if (discount) sumRow(pick(r, V.discount), `-${plain(discount)}`);
  if (shipping) sumRow(pick(r, V.shipping), plain(shipping));
  sumRow(pick(r, V.subtotal), money(net));
  sumRow(pick(r, V.vat), money(vat));
  sumRow(pick(r, V.total), money(total), true);
  if (deposit) {
    sumRow(pick(r, V.deposit), `-${plain(deposit)}`);
    sumRow(pick(r, V.amountDue), money(total - deposit));
  }
  if (previous) {
    yy += 6;
    T(50, yy, `${pick(r, V.previous)}: ${money(previous)}`, 8);
    yy += 14;
  }
  yy += 20;
  T(50, yy, pick(r, V.thanks), 9);
  yy += 13;
  T(
    50,
    yy,
    `IBAN ${pick(r, ['DE', 'FR', 'NL', 'RO', 'IT', 'ES'])}${int(r, 10, 99)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 10, 99)}`,
    8,
  );
  // Footer: the vendor's details again (as real invoices do).
  T(50, 800, `${vendor} - ${vendorAddr[0]} - ${vendorAddr[1]}`, 7);
  if (page > 1) T(545, 800, `${V.page} ${page}`, 8, { align: 'right' });

  return {
    id: `gen-${lang}-${seed}`,
    lang,
    style,
    currency,
    layout,
    pages: page,
    runs,
    truth: {
      vendor,
      amount: total / 100,
      currency,
      invoice_date: `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
      invoice_number: number,
    },
  };
}
