import {
  type Currency,
  formatMoney,
  type GeneratedInvoice,
  mulberry32,
  type NumberStyle,
  type TextRun,
} from './invoice.generator';
import { type GenLang, VOCAB } from './vocabulary';

/**
 * A second, held-out family of generated invoices: label wordings, layouts and value formats that the first
 * generator never uses (boxed totals with the label above the value, labels on their own line, the vendor only in the
 * footer, the currency stated once for the whole document, two-digit years, "05-Mar-2024"). It was written to measure
 * how the rules do on layouts they were not developed against; failures here are fixed only by general rules.
 */

interface HoldoutVocab {
  number: string[];
  date: string[];
  total: string[];
  net: string;
  vat: string;
  due: string;
  inAmounts: string;
  holder: string;
  customer: string;
}

const H: Record<GenLang, HoldoutVocab> = {
  en: {
    number: ['Document no.', 'Inv. No.', 'Invoice ref.', 'Bill number'],
    date: ['Bill date', 'Invoice issued', 'Dated', 'Date issued'],
    total: ['Amount payable', 'TOTAL', 'Total amount', 'Invoice amount'],
    net: 'Net',
    vat: 'VAT',
    due: 'Payment due',
    inAmounts: 'All amounts in',
    holder: 'Account holder',
    customer: 'Customer',
  },
  de: {
    number: ['Belegnummer', 'Beleg-Nr.', 'Rechnungs-Nr', 'Nr. der Rechnung'],
    date: ['Datum der Rechnung', 'Rechnungs-Datum', 'Belegdatum', 'Datum'],
    total: ['Summe brutto', 'Gesamt (brutto)', 'Zahlbetrag', 'Rechnungsendbetrag'],
    net: 'Netto',
    vat: 'MwSt.',
    due: 'Zahlungsziel',
    inAmounts: 'Beträge in',
    holder: 'Kontoinhaber',
    customer: 'Kunde',
  },
  fr: {
    number: ['N° facture', 'Réf. facture', 'Facture numéro', 'N° de pièce'],
    date: ['Date facture', 'Émise le', 'Date', 'Date de la facture'],
    total: ['Montant total TTC', 'TOTAL À RÉGLER', 'Net à régler', 'Total TTC'],
    net: 'HT',
    vat: 'TVA',
    due: 'Échéance',
    inAmounts: 'Montants en',
    holder: 'Titulaire du compte',
    customer: 'Client',
  },
  it: {
    number: ['Documento n.', 'Nr. documento', 'Fattura numero', 'N. doc.'],
    date: ['Data doc.', 'Data documento', 'Emessa il', 'Data'],
    total: ['Totale fattura', 'Importo totale', 'TOTALE A PAGARE', 'Totale complessivo'],
    net: 'Imponibile',
    vat: 'IVA',
    due: 'Scadenza pagamento',
    inAmounts: 'Importi in',
    holder: 'Intestatario conto',
    customer: 'Cliente',
  },
  es: {
    number: ['Nº de factura', 'Num. factura', 'Factura número', 'Nº documento'],
    date: ['Fecha expedición', 'Fecha', 'Fecha factura', 'Emitida el'],
    total: ['TOTAL', 'Total (IVA incluido)', 'Importe total a pagar', 'Total a pagar'],
    net: 'Base',
    vat: 'IVA',
    due: 'Vencimiento',
    inAmounts: 'Importes en',
    holder: 'Titular de la cuenta',
    customer: 'Cliente',
  },
  ro: {
    number: ['Nr. factura', 'Numar document', 'Factura seria FV nr.', 'Nr. document'],
    date: ['Data emiterii', 'Data', 'Data documentului', 'Emisa la'],
    total: ['TOTAL GENERAL', 'Total de plata', 'Total factura', 'Total cu TVA'],
    net: 'Valoare fara TVA',
    vat: 'TVA',
    due: 'Termen de plata',
    inAmounts: 'Sume in',
    holder: 'Titular cont',
    customer: 'Client',
  },
  nl: {
    number: ['Factuur no.', 'Notanummer', 'Factuur nummer', 'Documentnr.'],
    date: ['Datum factuur', 'Factuurdatum', 'Datum', 'Gefactureerd op'],
    total: ['Eindtotaal', 'Totaal te betalen', 'Te betalen', 'Totaal incl. BTW'],
    net: 'Excl. BTW',
    vat: 'BTW',
    due: 'Betalen voor',
    inAmounts: 'Bedragen in',
    holder: 'Rekeninghouder',
    customer: 'Klant',
  },
};

const MON3: Record<GenLang, string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  de: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  it: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'],
  ro: ['ian', 'feb', 'mar', 'apr', 'mai', 'iun', 'iul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  nl: ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
};

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

export function generateHoldoutInvoice(seed: number, lang: GenLang): GeneratedInvoice {
  const r = mulberry32(seed ^ 0x5bd1e995);
  const V = VOCAB[lang];
  const X = H[lang];
  const style: NumberStyle = pick(r, ['en', 'de', 'fr', 'ch'] as const);
  const currency: Currency = pick(r, ['EUR', 'USD', 'GBP', 'CHF', 'RON'] as const);
  const layout = pick(r, ['boxed-totals', 'stacked-labels', 'footer-vendor']);
  const vendor = `${pick(r, V.trades)} ${pick(r, V.legal)}`;
  const y = int(r, 2018, 2026);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  const dateText = pick(r, [
    `${dd}.${mm}.${String(y).slice(2)}`,
    `${dd}-${MON3[lang][m - 1]}-${y}`,
    `${d} ${MON3[lang][m - 1]} ${y}`,
    `${y}/${mm}/${dd}`,
  ]);
  const dueText = `${String(Math.min(28, d + 2)).padStart(2, '0')}.${String((m % 12) + 1).padStart(2, '0')}.${y + (m === 12 ? 1 : 0)}`;
  const number = pick(r, [
    `${int(r, 10, 99)}/${y}`,
    `${String.fromCharCode(65 + int(r, 0, 25))}${int(r, 10000, 99999)}`,
    `${y}${int(r, 1000, 9999)}`,
  ]);
  const items = Array.from({ length: int(r, 1, 6) }, () => ({ desc: pick(r, V.items), total: int(r, 500, 90000) }));
  const net = items.reduce((s, it) => s + it.total, 0);
  const vat = Math.round(net * 0.2);
  const total = net + vat;
  const amt = (c: number) => formatMoney(c, style);

  const runs: TextRun[] = [];
  const T = (x: number, yy: number, text: string, size = 9, extra: Partial<TextRun> = {}) =>
    runs.push({ page: 1, x, y: yy, text, size, ...extra });

  if (layout !== 'footer-vendor') T(50, 50, vendor, 15, { bold: true });
  T(50, 70, `${pick(r, V.streets)}, ${pick(r, V.cities)}`, 8);
  T(330, 100, `${X.customer}:`, 8, { bold: true });
  T(330, 112, `${pick(r, V.surnames)} ${pick(r, ['Consulting', 'Group', 'Partners'])} ${pick(r, V.legal)}`, 9);
  T(330, 124, pick(r, V.streets), 9);
  T(330, 136, pick(r, V.cities), 9);
  let yy = 180;
  if (layout === 'stacked-labels') {
    // Label on one line, its value on the next.
    for (const [k, v] of [
      [pick(r, X.number), number],
      [pick(r, X.date), dateText],
      [X.due, dueText],
    ] as const) {
      T(50, yy, k, 7, { bold: true });
      T(50, yy + 10, v, 10);
      yy += 28;
    }
  } else {
    T(50, yy, `${pick(r, X.number)}: ${number}`, 10);
    T(250, yy, `${pick(r, X.date)}: ${dateText}`, 10);
    T(420, yy, `${X.due}: ${dueText}`, 8);
    yy += 20;
  }
  T(50, yy, `${X.inAmounts} ${currency}`, 8);
  yy += 20;
  for (const it of items) {
    T(50, yy, it.desc, 9);
    T(545, yy, amt(it.total), 9, { align: 'right' });
    yy += 13;
  }
  yy += 15;
  if (layout === 'boxed-totals') {
    // Header row of labels, values right below each label.
    const cols: Array<[string, number]> = [
      [X.net, net],
      [X.vat, vat],
      [pick(r, X.total), total],
    ];
    cols.forEach(([k, v], i) => {
      T(300 + i * 85, yy, k, 8, { bold: true });
      T(300 + i * 85, yy + 12, amt(v), 10, { bold: i === 2 });
    });
    yy += 40;
  } else {
    T(330, yy, X.net, 9);
    T(545, yy, amt(net), 9, { align: 'right' });
    T(330, yy + 13, X.vat, 9);
    T(545, yy + 13, amt(vat), 9, { align: 'right' });
    T(330, yy + 30, pick(r, X.total), 11, { bold: true });
    T(545, yy + 30, amt(total), 11, { bold: true, align: 'right' });
    yy += 60;
  }
  T(50, 760, `${X.holder}: ${vendor}`, 7);
  T(50, 772, `IBAN DE${int(r, 10, 99)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}`, 7);
  if (layout === 'footer-vendor') T(50, 790, `${vendor} · ${pick(r, V.streets)}`.replace('·', '|'), 7);

  return {
    id: `holdout-${lang}-${seed}`,
    lang,
    style,
    currency,
    layout,
    pages: 1,
    runs,
    truth: {
      vendor,
      amount: total / 100,
      currency,
      invoice_date: `${y}-${mm}-${dd}`,
      invoice_number: number,
    },
  };
}
