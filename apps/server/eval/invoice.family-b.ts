import {
  type Currency,
  formatMoney,
  type GeneratedInvoice,
  mulberry32,
  type NumberStyle,
  type TextRun,
} from './invoice.generator';
import type { GenLang } from './vocabulary';

/**
 * Family B (held out: run it before and after rule work, never debug its single failures). Two-column party header
 * (seller left under "From", customer right under "Bill to", or the customer block first), a meta strip with labels
 * ABOVE their values, VAT ids for both parties, a boxed totals area with the label on one line and the value below,
 * currency codes after the amount, credit notes, long tables spilling onto a second page ("Balance carried forward"),
 * and distractor amounts, dates and reference numbers. Independent of invoice.family-a.ts and of the rules.
 */

type Rng = () => number;

/** The standard PDF fonts (WinAnsi) lack ă, ș, ț: print them without the diacritic, as many Romanian PDFs do. */
const winAnsi = (s: string) =>
  s.replace(
    /[ăĂșşȘŞțţȚŢ]/g,
    (c) => ({ ă: 'a', Ă: 'A', ș: 's', ş: 's', Ș: 'S', Ş: 'S', ț: 't', ţ: 't', Ț: 'T', Ţ: 'T' })[c] ?? c,
  );
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

interface BVocab {
  title: [string, string];
  from: string;
  billTo: string;
  number: string[];
  date: string[];
  other: Array<[string, 'date' | 'ref']>;
  cols: string[];
  net: string;
  vat: string;
  total: string[];
  cf: string;
  vatId: string;
  style: NumberStyle;
  currency: Currency;
  names: string[];
  forms: string[];
  months: string[];
}

const B: Record<GenLang, BVocab> = {
  en: {
    title: ['Tax Invoice', 'Credit Memo'],
    from: 'From:',
    billTo: 'Bill to:',
    number: ['Invoice No', 'Invoice ID', 'Inv #'],
    date: ['Issue date', 'Invoice date', 'Date'],
    other: [
      ['Due date', 'date'],
      ['Ship date', 'date'],
      ['Customer ID', 'ref'],
      ['Your PO', 'ref'],
      ['Account no.', 'ref'],
    ],
    cols: ['Item', 'Quantity', 'Rate', 'Tax', 'Line total'],
    net: 'Net amount',
    vat: 'Tax (VAT)',
    total: ['Total due', 'Grand total', 'Amount due', 'TOTAL'],
    cf: 'Balance carried forward',
    vatId: 'VAT no.',
    style: 'en',
    currency: 'USD',
    names: ['Silverline Freight', 'Cobalt Labs', 'Redwood Printing', 'Summit Office Supply'],
    forms: ['Inc.', 'LLC', 'Corp.', 'Ltd'],
    months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  },
  de: {
    title: ['Rechnung', 'Rechnungskorrektur'],
    from: 'Absender:',
    billTo: 'Rechnungsempfänger:',
    number: ['Rechnungsnr.', 'Re.-Nr.', 'Beleg-Nr.'],
    date: ['Rechnungsdatum', 'Belegdatum', 'Datum'],
    other: [
      ['Leistungsdatum', 'date'],
      ['Zahlbar bis', 'date'],
      ['Kunden-Nr.', 'ref'],
      ['Bestell-Nr.', 'ref'],
      ['Lieferschein', 'ref'],
    ],
    cols: ['Artikel', 'Anz.', 'Preis', 'MwSt', 'Summe'],
    net: 'Summe netto',
    vat: 'MwSt. 19 %',
    total: ['Gesamtsumme', 'Summe brutto', 'Zahlbetrag', 'Endsumme'],
    cf: 'Zwischensumme Übertrag',
    vatId: 'USt-ID',
    style: 'de',
    currency: 'EUR',
    names: ['Hofmann Elektro', 'Schäfer Druck', 'Vogel IT-Service', 'Brandt Bürobedarf'],
    forms: ['GmbH', 'KG', 'UG'],
    months: ['Jan.', 'Feb.', 'März', 'Apr.', 'Mai', 'Juni', 'Juli', 'Aug.', 'Sep.', 'Okt.', 'Nov.', 'Dez.'],
  },
  fr: {
    title: ['Facture', 'Facture d’avoir'],
    from: 'Émetteur :',
    billTo: 'Facturé à :',
    number: ['Facture N°', 'N° facture', 'Référence facture'],
    date: ['Date de facturation', 'Émise le', 'Date'],
    other: [
      ['Échéance', 'date'],
      ['Livraison', 'date'],
      ['Code client', 'ref'],
      ['Commande', 'ref'],
      ['SIRET', 'ref'],
    ],
    cols: ['Article', 'Quantité', 'Prix HT', 'TVA', 'Total HT'],
    net: 'Montant HT',
    vat: 'Montant TVA',
    total: ['Total TTC', 'Net à payer', 'Montant à régler', 'TOTAL TTC'],
    cf: 'À reporter',
    vatId: 'TVA',
    style: 'fr',
    currency: 'EUR',
    names: ['Menuiserie Blanc', 'Imprimerie Faure', 'Informatique Roux', 'Pépinières Morel'],
    forms: ['SARL', 'SAS', 'SA'],
    months: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  },
  it: {
    title: ['Fattura', 'Nota di credito'],
    from: 'Cedente:',
    billTo: 'Cessionario:',
    number: ['Fattura nr.', 'Numero documento', 'Doc. n.'],
    date: ['Data documento', 'Data fattura', 'Del'],
    other: [
      ['Scadenza', 'date'],
      ['Data DDT', 'date'],
      ['Cod. cliente', 'ref'],
      ['Ordine n.', 'ref'],
      ['C.F.', 'ref'],
    ],
    cols: ['Articolo', 'Qtà', 'Prezzo', 'IVA', 'Totale riga'],
    net: 'Totale imponibile',
    vat: 'Totale IVA',
    total: ['Totale documento', 'Totale a pagare', 'Netto a pagare', 'TOTALE'],
    cf: 'A riportare',
    vatId: 'P.IVA',
    style: 'de',
    currency: 'EUR',
    names: ['Lombardi Arredi', 'Greco Elettronica', 'Marini Trasporti', 'Costa Ceramiche'],
    forms: ['S.r.l.', 'S.p.A.', 'S.a.s.'],
    months: ['gen', 'feb', 'mar', 'apr', 'mag', 'giu', 'lug', 'ago', 'set', 'ott', 'nov', 'dic'],
  },
  es: {
    title: ['Factura', 'Factura rectificativa'],
    from: 'Emisor:',
    billTo: 'Cliente:',
    number: ['Nº Factura', 'Factura núm.', 'Número'],
    date: ['Fecha de expedición', 'Fecha factura', 'Fecha'],
    other: [
      ['Vencimiento', 'date'],
      ['Fecha entrega', 'date'],
      ['Cód. cliente', 'ref'],
      ['Pedido', 'ref'],
      ['NIF', 'ref'],
    ],
    cols: ['Artículo', 'Uds.', 'Precio', 'IVA', 'Total'],
    net: 'Base imponible',
    vat: 'Cuota IVA',
    total: ['Total factura', 'Importe total', 'TOTAL A PAGAR', 'Total (EUR)'],
    cf: 'Suma anterior',
    vatId: 'NIF',
    style: 'de',
    currency: 'EUR',
    names: ['Muebles Herrera', 'Gráficas Delgado', 'Frutas Molina', 'Electricidad Prieto'],
    forms: ['S.L.', 'S.A.'],
    months: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'],
  },
  ro: {
    title: ['Factură fiscală', 'Factură de stornare'],
    from: 'Furnizor:',
    billTo: 'Cumpărător:',
    number: ['Nr. factură', 'Seria FX nr.', 'Număr'],
    date: ['Data emiterii', 'Data facturii', 'Data'],
    other: [
      ['Termen de plată', 'date'],
      ['Data livrării', 'date'],
      ['Cod client', 'ref'],
      ['Comandă nr.', 'ref'],
      ['Nr. Reg. Com.', 'ref'],
    ],
    cols: ['Produs', 'Cant.', 'Preț', 'TVA', 'Valoare'],
    net: 'Valoare fără TVA',
    vat: 'Valoare TVA',
    total: ['Total de plată', 'Total factură', 'TOTAL', 'Total general'],
    cf: 'Total de reportat',
    vatId: 'CIF',
    style: 'de',
    currency: 'RON',
    names: ['Transilvania Logistic', 'Moldova Print', 'Bucovina Lemn', 'Olt Agro'],
    forms: ['SRL', 'S.A.'],
    months: ['ian.', 'feb.', 'mar.', 'apr.', 'mai', 'iun.', 'iul.', 'aug.', 'sept.', 'oct.', 'nov.', 'dec.'],
  },
  nl: {
    title: ['Factuur', 'Creditfactuur'],
    from: 'Van:',
    billTo: 'Factuur aan:',
    number: ['Factuurnummer', 'Nummer', 'Factuur'],
    date: ['Factuurdatum', 'Datum', 'Datum factuur'],
    other: [
      ['Vervaldatum', 'date'],
      ['Leverdatum', 'date'],
      ['Klantnr.', 'ref'],
      ['Ordernr.', 'ref'],
      ['KvK', 'ref'],
    ],
    cols: ['Artikel', 'Aantal', 'Stukprijs', 'BTW', 'Totaal'],
    net: 'Totaal excl. btw',
    vat: 'Btw 21%',
    total: ['Totaal te betalen', 'Totaal incl. btw', 'Te betalen', 'TOTAAL'],
    cf: 'Transport naar volgende pagina',
    vatId: 'Btw-nr.',
    style: 'de',
    currency: 'EUR',
    names: ['Bakker Techniek', 'Visser Drukwerk', 'Mulder Kozijnen', 'Peters Catering'],
    forms: ['B.V.', 'V.O.F.'],
    months: ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'],
  },
};

function dateText(r: Rng, v: BVocab, y: number, m: number, d: number): string {
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  const k = r();
  if (k < 0.3) return `${d} ${v.months[m - 1]} ${y}`;
  if (k < 0.5) return `${dd}.${mm}.${y}`;
  if (k < 0.65) return `${dd}/${mm}/${String(y).slice(2)}`;
  if (k < 0.8) return `${y}-${mm}-${dd}`;
  return `${dd}-${v.months[m - 1]}-${y}`;
}

/** One family-B invoice; deterministic for a seed. */
export function generateFamilyB(seed: number, lang: GenLang): GeneratedInvoice {
  const r = mulberry32(seed);
  const v = B[lang];
  const style = v.style;
  const currency = v.currency;
  const vendor = `${pick(r, v.names)} ${pick(r, v.forms)}`;
  const customer = `${pick(r, ['Orion', 'Helix', 'Vega', 'Lumen', 'Atlas'])} ${pick(r, ['Holding', 'Services', 'Group', 'Studio'])} ${pick(r, v.forms)}`;
  const credit = r() < 0.12;
  const y = int(r, 2020, 2025);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const number = pick(r, [
    `${int(r, 100, 9999)}/${y}`,
    `INV-${y}-${String(int(r, 1, 999)).padStart(5, '0')}`,
    `Nr. ${int(r, 10, 999)}/${String(y).slice(2)}`.replace(/^Nr\. /, ''),
    `${String.fromCharCode(65 + int(r, 0, 25))}${String.fromCharCode(65 + int(r, 0, 25))}-${int(r, 10000, 99999)}`,
    `${y}.${String(int(r, 1, 9999)).padStart(4, '0')}`,
  ]);
  const n = r() < 0.2 ? int(r, 35, 50) : int(r, 1, 6);
  const sign = credit ? -1 : 1;
  const items = Array.from({ length: n }, () => ({ q: int(r, 1, 20), p: int(r, 99, 25000) }));
  const net = sign * items.reduce((s, it) => s + it.q * it.p, 0);
  const vat = Math.round(net * 0.2);
  const gross = net + vat;
  const fm = (c: number) => formatMoney(c, style);
  const runs: TextRun[] = [];
  let page = 1;
  const t = (x: number, yy: number, text: string, size = 9, bold = false, align: 'left' | 'right' = 'left') =>
    runs.push({ page, x, y: yy, text: winAnsi(text), size, bold, align });
  const customerFirst = r() < 0.4;
  const [sx, cx] = customerFirst ? [330, 40] : [40, 330];
  // Title top right, big.
  t(555, 50, credit ? v.title[1] : v.title[0], 18, true, 'right');
  t(sx, 100, v.from, 8);
  t(sx, 113, vendor, 10, true);
  t(
    sx,
    126,
    `${int(r, 1, 200)} ${pick(r, ['Industrieweg', 'Main St', 'Rue Neuve', 'Via Dante', 'Calle Luna', 'Str. Florilor'])}`,
    9,
  );
  t(sx, 139, `${v.vatId} ${lang.toUpperCase()}${int(r, 10000000, 99999999)}`, 9);
  t(cx, 100, v.billTo, 8);
  t(cx, 113, customer, 10, true);
  t(
    cx,
    126,
    `${int(r, 1, 200)} ${pick(r, ['Park Lane', 'Marktplatz', 'Place du Marché', 'Piazza Duomo', 'Plaza Mayor', 'Piața Mare'])}`,
    9,
  );
  t(cx, 139, `${v.vatId} ${lang.toUpperCase()}${int(r, 10000000, 99999999)}`, 9);
  // Meta strip: label row, value row below.
  const cells: Array<[string, string]> = [
    [pick(r, v.number), number],
    [pick(r, v.date), dateText(r, v, y, m, d)],
  ];
  for (const [l, kind] of v.other) {
    if (r() < 0.6)
      cells.push([
        l,
        kind === 'date' ? dateText(r, v, y + (m === 12 ? 1 : 0), (m % 12) + 1, d) : `${int(r, 10000, 999999)}`,
      ]);
  }
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [cells[i], cells[j]] = [cells[j]!, cells[i]!];
  }
  cells.splice(5);
  if (!cells.some((c) => c[1] === number)) cells[0] = [pick(r, v.number), number];
  cells.forEach(([l, val], i) => {
    t(40 + i * 105, 180, l, 7, true);
    t(40 + i * 105, 192, val, 9);
  });
  let yy = 230;
  const head = () => {
    v.cols.forEach((c, i) => {
      if (i === 0) t(40, yy, c, 8, true);
      else t([0, 320, 400, 470, 555][i]!, yy, c, 8, true, 'right');
    });
    yy += 14;
  };
  head();
  let run = 0;
  for (const it of items) {
    if (yy > 740) {
      t(400, yy + 4, v.cf, 8, false, 'right');
      t(555, yy + 4, fm(sign * run), 8, false, 'right');
      page++;
      yy = 60;
      t(40, yy, `${v.title[credit ? 1 : 0]} ${number} – ${vendor}`, 8);
      yy += 24;
      head();
    }
    t(40, yy, `${pick(r, ['Service', 'Widget', 'Licence', 'Freight', 'Support'])} ${int(r, 1, 99)}`, 9);
    t(320, yy, String(it.q), 9, false, 'right');
    t(400, yy, fm(it.p * sign), 9, false, 'right');
    t(470, yy, '20%', 9, false, 'right');
    t(555, yy, fm(it.q * it.p * sign), 9, false, 'right');
    run += it.q * it.p;
    yy += 13;
  }
  if (yy > 700) {
    page++;
    yy = 80;
  }
  yy += 20;
  // Totals box: label line, value line below, right-aligned.
  const label = pick(r, v.total);
  const rows: Array<[string, string, boolean]> = [
    [v.net, fm(net), false],
    [v.vat, fm(vat), false],
    [label, `${fm(gross)} ${currency}`, true],
  ];
  if (r() < 0.5) {
    for (const [l, val, b] of rows) {
      t(555, yy, l, 8, b, 'right');
      t(555, yy + 11, val, b ? 12 : 9, b, 'right');
      yy += b ? 30 : 26;
    }
  } else {
    for (const [l, val, b] of rows) {
      t(360, yy, l, b ? 11 : 9, b);
      t(555, yy, val, b ? 11 : 9, b, 'right');
      yy += 15;
    }
  }
  t(
    40,
    800,
    `${vendor} · ${v.vatId} ${lang.toUpperCase()}${int(r, 10000000, 99999999)} · IBAN XX${int(r, 10, 99)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}`,
    7,
  );
  return {
    id: `famB-${lang}-${seed}`,
    lang,
    style,
    currency,
    layout: customerFirst ? 'customer-first' : 'seller-left',
    pages: page,
    runs,
    truth: {
      vendor: winAnsi(vendor),
      // The product's convention: credit notes answered positive (EN 16931 type 381), corrections keep their sign.
      amount: (credit && !/korrektur|rectificativa|stornare/i.test(v.title[1]) ? Math.abs(gross) : gross) / 100,
      currency,
      invoice_date: `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
      invoice_number: number,
    },
  };
}
