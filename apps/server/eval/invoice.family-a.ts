import { MONTH_NAMES } from '@invoicebox/core';
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
 * Family A (development set): table invoices as accounting software prints them. A letterhead (vendor as the largest
 * text) or a vendor named only in the legal footer line, the customer's window address first, a meta block with
 * labels left and values right, an item table with column headers (Description | Qty | Unit price | VAT | Amount), a
 * right-aligned totals block whose labels sit far left of the values, distractor numbers and dates (order, customer,
 * PO, VAT id, IBAN, due and delivery dates), credit notes with negative totals and multi-page tables with
 * "carried forward" subtotals. Written independently of the rules; see invoice.family-b.ts for the held-out twin.
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

interface AVocab {
  title: string;
  credit: string;
  number: string[];
  date: string[];
  due: string;
  delivery: string;
  order: string;
  customerNo: string;
  po: string;
  head: [string, string, string, string, string];
  subtotal: string;
  net: string;
  vat: string;
  total: string[];
  carried: string;
  prevBalance: string;
  paid: string;
  vatId: string;
  register: (city: string) => string;
  months: readonly string[];
  style: NumberStyle;
  currency: Currency;
  items: string[];
  companies: string[];
  forms: string[];
  cities: string[];
  customers: string[];
}

const V: Record<GenLang, AVocab> = {
  en: {
    title: 'INVOICE',
    credit: 'CREDIT NOTE',
    number: ['Invoice no.', 'Invoice #', 'Invoice number'],
    date: ['Invoice date', 'Date of issue', 'Tax point date'],
    due: 'Due date',
    delivery: 'Delivery date',
    order: 'Order number',
    customerNo: 'Customer no.',
    po: 'PO number',
    head: ['Description', 'Qty', 'Unit price', 'VAT', 'Amount'],
    subtotal: 'Subtotal',
    net: 'Total excl. VAT',
    vat: 'VAT 20%',
    total: ['Amount payable', 'Balance due', 'Total incl. VAT', 'Invoice total'],
    carried: 'Carried forward',
    prevBalance: 'Previous balance',
    paid: 'Amount paid',
    vatId: 'VAT Reg. No.',
    register: (c) => `Registered in England and Wales · Company no. 0${int(mulberry32(c.length), 1000000, 9999999)}`,
    months: MONTH_NAMES,
    style: 'en',
    currency: 'GBP',
    items: [
      'Consulting hours',
      'Cloud hosting (monthly)',
      'Support plan',
      'Laptop stand',
      'Printer toner',
      'Design workshop',
    ],
    companies: ['Brightwater', 'Kestrel Analytics', 'Northgate Supplies', 'Harbour & Finch', 'Oakridge Digital'],
    forms: ['Ltd', 'Limited', 'LLP', 'plc'],
    cities: ['Leeds LS1 4AP', 'Bristol BS1 5TR', 'Manchester M2 3WQ'],
    customers: ['Pendle Books Ltd', 'Marlow Dental Practice', 'Tillbury Estates'],
  },
  de: {
    title: 'RECHNUNG',
    credit: 'GUTSCHRIFT',
    number: ['Rechnungsnummer', 'Rechnung Nr.', 'Rechnungs-Nr.'],
    date: ['Rechnungsdatum', 'Datum', 'Ausstellungsdatum'],
    due: 'Fällig am',
    delivery: 'Lieferdatum',
    order: 'Auftragsnummer',
    customerNo: 'Kundennummer',
    po: 'Ihre Bestellung',
    head: ['Bezeichnung', 'Menge', 'Einzelpreis', 'USt.', 'Gesamt'],
    subtotal: 'Zwischensumme',
    net: 'Nettobetrag',
    vat: 'zzgl. 19% USt.',
    total: ['Zu zahlender Betrag', 'Gesamtbetrag', 'Endbetrag', 'Rechnungsbetrag'],
    carried: 'Übertrag',
    prevBalance: 'Vorheriger Saldo',
    paid: 'Bereits bezahlt',
    vatId: 'USt-IdNr.',
    register: (c) =>
      `Registergericht Amtsgericht ${c.replace(/^\d+\s*/, '')} · HRB ${int(mulberry32(c.length), 10000, 99999)}`,
    months: [
      'Januar',
      'Februar',
      'März',
      'April',
      'Mai',
      'Juni',
      'Juli',
      'August',
      'September',
      'Oktober',
      'November',
      'Dezember',
    ],
    style: 'de',
    currency: 'EUR',
    items: ['Wartungsvertrag', 'Montage vor Ort', 'Softwarelizenz', 'Büromaterial', 'Reisekosten pauschal'],
    companies: [
      'Bergmann Haustechnik',
      'Lindner & Söhne',
      'Alpenblick Software',
      'Nordlicht Medien',
      'Kraus Metallbau',
    ],
    forms: ['GmbH', 'GmbH & Co. KG', 'AG', 'e.K.'],
    cities: ['80331 München', '50667 Köln', '20095 Hamburg'],
    customers: ['Weber Logistik GmbH', 'Praxis Dr. Schulz', 'Stadtwerke Eichenau'],
  },
  fr: {
    title: 'FACTURE',
    credit: 'AVOIR',
    number: ['Facture n°', 'N° de facture', 'Numéro de facture'],
    date: ['Date de facture', 'Date d’émission', 'Date'],
    due: 'Date d’échéance',
    delivery: 'Date de livraison',
    order: 'N° de commande',
    customerNo: 'N° client',
    po: 'Bon de commande',
    head: ['Désignation', 'Qté', 'P.U. HT', 'TVA', 'Montant HT'],
    subtotal: 'Sous-total',
    net: 'Total HT',
    vat: 'TVA 20 %',
    total: ['Net à payer', 'Total TTC', 'Montant TTC', 'Reste à payer'],
    carried: 'Report',
    prevBalance: 'Solde précédent',
    paid: 'Acompte versé',
    vatId: 'N° TVA intracom.',
    register: () => `SIRET 412 345 678 000${int(mulberry32(3), 10, 99)} · RCS Lyon`,
    months: [
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ],
    style: 'fr',
    currency: 'EUR',
    items: ['Prestation de conseil', 'Maintenance annuelle', 'Formation sur site', 'Fournitures de bureau'],
    companies: ['Atelier Durand', 'Boulangerie Martin', 'Cabinet Lefèvre', 'Transports Girard', 'Éditions du Rhône'],
    forms: ['SARL', 'SAS', 'SA', 'EURL'],
    cities: ['69002 Lyon', '33000 Bordeaux', '75011 Paris'],
    customers: ['Mairie de Villeurbanne', 'Garage Petit SARL', 'Hôtel des Alpes'],
  },
  it: {
    title: 'FATTURA',
    credit: 'NOTA DI CREDITO',
    number: ['Fattura n.', 'Numero fattura', 'N. documento'],
    date: ['Data fattura', 'Data emissione', 'Data'],
    due: 'Data scadenza',
    delivery: 'Data consegna',
    order: 'N. ordine',
    customerNo: 'Codice cliente',
    po: 'Rif. ordine',
    head: ['Descrizione', 'Q.tà', 'Prezzo unit.', 'IVA', 'Importo'],
    subtotal: 'Subtotale',
    net: 'Imponibile',
    vat: 'IVA 22%',
    total: ['Totale documento', 'Totale da pagare', 'Netto a pagare', 'Totale fattura'],
    carried: 'Riporto',
    prevBalance: 'Saldo precedente',
    paid: 'Acconto versato',
    vatId: 'P.IVA',
    register: () => `P.IVA IT0${int(mulberry32(5), 1000000000, 9999999999)} · REA MI-1234567`,
    months: [
      'gennaio',
      'febbraio',
      'marzo',
      'aprile',
      'maggio',
      'giugno',
      'luglio',
      'agosto',
      'settembre',
      'ottobre',
      'novembre',
      'dicembre',
    ],
    style: 'de',
    currency: 'EUR',
    items: ['Consulenza tecnica', 'Canone assistenza', 'Materiale elettrico', 'Trasporto merci'],
    companies: ['Rossi Impianti', 'Ferramenta Bianchi', 'Studio Galli', 'Tessitura Conti', 'Officine Moretti'],
    forms: ['S.r.l.', 'S.p.A.', 'S.n.c.'],
    cities: ['20121 Milano', '10121 Torino', '40121 Bologna'],
    customers: ['Comune di Lecco', 'Bar Centrale S.n.c.', 'Farmacia Riva'],
  },
  es: {
    title: 'FACTURA',
    credit: 'FACTURA RECTIFICATIVA',
    number: ['Factura nº', 'Número de factura', 'Nº factura'],
    date: ['Fecha de factura', 'Fecha de emisión', 'Fecha'],
    due: 'Fecha de vencimiento',
    delivery: 'Fecha de entrega',
    order: 'Nº de pedido',
    customerNo: 'Nº cliente',
    po: 'Su pedido',
    head: ['Concepto', 'Cant.', 'Precio unit.', 'IVA', 'Importe'],
    subtotal: 'Subtotal',
    net: 'Base imponible',
    vat: 'IVA 21%',
    total: ['Importe total', 'Total factura', 'Total a pagar', 'Importe a pagar'],
    carried: 'Suma y sigue',
    prevBalance: 'Saldo anterior',
    paid: 'Importe pagado',
    vatId: 'CIF',
    register: () => `Inscrita en el Registro Mercantil de Madrid, Tomo ${int(mulberry32(7), 1000, 9999)}, Folio 12`,
    months: [
      'enero',
      'febrero',
      'marzo',
      'abril',
      'mayo',
      'junio',
      'julio',
      'agosto',
      'septiembre',
      'octubre',
      'noviembre',
      'diciembre',
    ],
    style: 'de',
    currency: 'EUR',
    items: ['Servicio de limpieza', 'Mantenimiento mensual', 'Material de oficina', 'Asesoría fiscal'],
    companies: ['Construcciones Navarro', 'Distribuciones Ortega', 'Talleres Ruiz', 'Grupo Sierra', 'Vinos Castillo'],
    forms: ['S.L.', 'S.A.', 'S.L.U.'],
    cities: ['28001 Madrid', '08002 Barcelona', '41001 Sevilla'],
    customers: ['Ayuntamiento de Getafe', 'Clínica Dental Sol', 'Hostal La Plaza'],
  },
  ro: {
    title: 'FACTURĂ',
    credit: 'FACTURĂ STORNO',
    number: ['Factura nr.', 'Număr factură', 'Nr. factură'],
    date: ['Data facturii', 'Data emiterii', 'Data'],
    due: 'Data scadenței',
    delivery: 'Data livrării',
    order: 'Nr. comandă',
    customerNo: 'Cod client',
    po: 'Comanda dvs.',
    head: ['Denumire', 'Cant.', 'Preț unitar', 'TVA', 'Valoare'],
    subtotal: 'Subtotal',
    net: 'Total fără TVA',
    vat: 'TVA 19%',
    total: ['Total de plată', 'Total factură', 'Total general', 'Sumă de plată'],
    carried: 'Report',
    prevBalance: 'Sold anterior',
    paid: 'Sumă achitată',
    vatId: 'CUI/CIF',
    register: () =>
      `CUI/CIF RO${int(mulberry32(9), 1000000, 99999999)} · Nr. Reg. Com. J40/${int(mulberry32(11), 100, 9999)}/2015`,
    months: [
      'ianuarie',
      'februarie',
      'martie',
      'aprilie',
      'mai',
      'iunie',
      'iulie',
      'august',
      'septembrie',
      'octombrie',
      'noiembrie',
      'decembrie',
    ],
    style: 'de',
    currency: 'RON',
    items: ['Servicii consultanță', 'Abonament mentenanță', 'Materiale construcții', 'Transport marfă'],
    companies: ['Carpați Trans', 'Delta Soft', 'Agro Mureș', 'Construct Ilie', 'Tipografia Dunărea'],
    forms: ['SRL', 'S.R.L.', 'S.A.'],
    cities: ['010011 București', '400001 Cluj-Napoca', '300001 Timișoara'],
    customers: ['Primăria Sector 3', 'Farmacia Verde SRL', 'Hotel Central'],
  },
  nl: {
    title: 'FACTUUR',
    credit: 'CREDITNOTA',
    number: ['Factuurnummer', 'Factuur nr.', 'Factuurnr.'],
    date: ['Factuurdatum', 'Datum', 'Datum factuur'],
    due: 'Vervaldatum',
    delivery: 'Leverdatum',
    order: 'Ordernummer',
    customerNo: 'Klantnummer',
    po: 'Uw referentie',
    head: ['Omschrijving', 'Aantal', 'Prijs', 'BTW', 'Bedrag'],
    subtotal: 'Subtotaal',
    net: 'Totaal excl. BTW',
    vat: 'BTW 21%',
    total: ['Te betalen', 'Totaal incl. BTW', 'Totaalbedrag', 'Factuurbedrag'],
    carried: 'Transport',
    prevBalance: 'Vorig saldo',
    paid: 'Reeds betaald',
    vatId: 'BTW-nr.',
    register: () =>
      `KvK ${int(mulberry32(13), 10000000, 99999999)} · BTW NL${int(mulberry32(17), 100000000, 999999999)}B01`,
    months: [
      'januari',
      'februari',
      'maart',
      'april',
      'mei',
      'juni',
      'juli',
      'augustus',
      'september',
      'oktober',
      'november',
      'december',
    ],
    style: 'de',
    currency: 'EUR',
    items: ['Adviesuren', 'Onderhoudscontract', 'Kantoorartikelen', 'Installatiewerk'],
    companies: ['Van Dijk Installaties', 'De Vries Bouw', 'Bakkerij Jansen', 'Smit Transport', 'Groen Hoveniers'],
    forms: ['B.V.', 'BV', 'N.V.'],
    cities: ['1012 AB Amsterdam', '3011 CD Rotterdam', '3511 EF Utrecht'],
    customers: ['Gemeente Zeist', 'Tandartspraktijk Bos', 'Café De Hoek'],
  },
};

const GROSS: Record<GenLang, string> = {
  en: 'Invoice total',
  de: 'Rechnungsbetrag',
  fr: 'Montant TTC',
  it: 'Totale fattura',
  es: 'Total factura',
  ro: 'Total factură',
  nl: 'Totaal incl. BTW',
};

const BALANCE: Record<GenLang, string> = {
  en: 'Balance due',
  de: 'Offener Saldo',
  fr: 'Solde à régler',
  it: 'Saldo da pagare',
  es: 'Saldo pendiente',
  ro: 'Sold de plată',
  nl: 'Openstaand saldo',
};

function fmtDate(r: Rng, v: AVocab, lang: GenLang, y: number, m: number, d: number): string {
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  const k = r();
  if (k < 0.25)
    return lang === 'fr' && r() < 0.5
      ? `le ${d} ${v.months[m - 1]} ${y}`
      : `${d}${lang === 'de' ? '.' : ''} ${v.months[m - 1]} ${y}`;
  if (k < 0.5) return `${dd}.${mm}.${String(y).slice(2)}`;
  if (k < 0.7) return `${y}/${mm}/${dd}`;
  if (k < 0.85) return lang === 'en' ? `${dd}/${mm}/${y}` : `${dd}-${mm}-${y}`;
  return `${y}-${mm}-${dd}`;
}

function invNumber(r: Rng, lang: GenLang, y: number): string {
  const n = int(r, 1, 9999);
  const p = String(n).padStart(4, '0');
  return pick(r, [
    `INV-${y}/${p}`,
    `RE-${int(r, 10000, 99999)}`,
    `FA ${y}-${String(n).padStart(3, '0')}`,
    `${n}/${y}`,
    `${lang.toUpperCase()}${y % 100}-${p}`,
    `${y}${p}`,
  ]);
}

/** One family-A invoice; deterministic for a seed. */
export function generateFamilyA(seed: number, lang: GenLang): GeneratedInvoice {
  const r = mulberry32(seed);
  const v = V[lang];
  const runs: TextRun[] = [];
  const vendor = `${pick(r, v.companies)} ${pick(r, v.forms)}`;
  const city = pick(r, v.cities);
  const customer = pick(r, v.customers);
  const style = v.style;
  const currency = v.currency;
  const credit = r() < 0.12;
  const y = int(r, 2021, 2025);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const number = invNumber(r, lang, y);
  const nItems = r() < 0.25 ? int(r, 30, 55) : int(r, 2, 8);
  const items = Array.from({ length: nItems }, () => {
    const qty = int(r, 1, 9);
    const unit = int(r, 500, 90000);
    return { desc: pick(r, v.items), qty, unit, total: qty * unit };
  });
  const sign = credit ? -1 : 1;
  const net = sign * items.reduce((s, it) => s + it.total, 0);
  const rate = lang === 'de' ? 19 : lang === 'nl' || lang === 'es' ? 21 : lang === 'it' ? 22 : lang === 'ro' ? 19 : 20;
  const vat = Math.round((net * rate) / 100);
  const gross = net + vat;
  const money = (c: number) => formatMoney(c, style);
  const codeAfter = r() < 0.5;
  const cur = (c: number) => (codeAfter ? `${money(c)} ${currency}` : money(c));
  const footerOnly = r() < 0.35;
  const prev = !credit && r() < 0.2 ? int(r, 1000, 50000) : 0;
  const paidPart = !credit && r() < 0.15 ? int(r, 1000, Math.max(1001, Math.floor(gross / 3))) : 0;
  const payable = gross + prev - paidPart;
  let page = 1;
  const text = (x: number, yy: number, t: string, size = 9, bold = false, align: 'left' | 'right' = 'left') =>
    runs.push({ page, x, y: yy, text: winAnsi(t), size, bold, align });

  // Header: letterhead or customer-first window envelope.
  if (!footerOnly) {
    text(40, 60, vendor, 20, true);
    text(
      40,
      78,
      `${pick(r, ['Hauptstr. 12', '12 High Street', 'Rue de la Paix 4', 'Via Roma 7', 'Calle Mayor 3', 'Str. Unirii 9', 'Kerkstraat 21'])} · ${city}`,
      8,
    );
  } else {
    text(40, 60, `${v.title}${credit ? '' : ''}`, 8);
  }
  const custX = footerOnly ? 40 : 330;
  text(custX, 120, customer, 10, true);
  text(
    custX,
    133,
    `${int(r, 1, 99)} ${pick(r, ['Market Sq.', 'Lindenweg', 'Bd Voltaire', 'Corso Italia', 'Av. del Sol', 'Bd. Eroilor', 'Dorpsweg'])}`,
    10,
  );
  text(custX, 146, pick(r, v.cities), 10);
  text(custX, 159, `${v.vatId} ${lang.toUpperCase()}${int(r, 100000000, 999999999)}`, 8);
  text(40, 210, credit ? v.credit : v.title, 16, true);
  // Meta block: label far left, value at a fixed column; distractors mixed in.
  const metaX = footerOnly ? 330 : 40;
  const valX = metaX + 110;
  const meta: Array<[string, string]> = [
    [pick(r, v.number), number],
    [pick(r, v.date), fmtDate(r, v, lang, y, m, d)],
    [v.customerNo, `K${int(r, 10000, 99999)}`],
    [v.order, `${int(r, 100000, 999999)}`],
    [v.due, fmtDate(r, v, lang, m === 12 ? y + 1 : y, (m % 12) + 1, d)],
  ];
  if (r() < 0.5) meta.push([v.delivery, fmtDate(r, v, lang, y, m, Math.max(1, d - 2))]);
  if (r() < 0.5) meta.push([v.po, `PO-${int(r, 1000, 9999)}`]);
  for (let i = meta.length - 1; i > 1; i--) {
    const j = 2 + Math.floor(r() * (i - 1));
    [meta[i], meta[j]] = [meta[j]!, meta[i]!];
  }
  if (r() < 0.4) [meta[0], meta[2]] = [meta[2]!, meta[0]!];
  let yy = footerOnly ? 110 : 235;
  for (const [l, val] of meta) {
    text(metaX, yy, l, 9);
    text(valX, yy, val, 9);
    yy += 13;
  }
  // Table.
  yy = Math.max(yy, 240) + 25;
  const cols = [40, 300, 380, 450, 555];
  const header = () => {
    text(cols[0]!, yy, v.head[0], 9, true);
    text(cols[1]!, yy, v.head[1], 9, true, 'right');
    text(cols[2]!, yy, v.head[2], 9, true, 'right');
    text(cols[3]!, yy, v.head[3], 9, true, 'right');
    text(cols[4]!, yy, v.head[4], 9, true, 'right');
    yy += 16;
  };
  header();
  let running = 0;
  const footer = () => {
    text(40, 805, `${vendor} · ${v.register(city)}`, 7);
    text(
      40,
      815,
      `IBAN DE${int(r, 10, 99)} 1234 5678 9012 3456 78 · BIC ABCDDEFFXXX · Tel. +${int(r, 30, 49)} ${int(r, 100, 999)} ${int(r, 100000, 999999)}`,
      7,
    );
  };
  for (const it of items) {
    if (yy > 720) {
      text(380, yy + 6, v.carried, 9, true, 'right');
      text(555, yy + 6, money(sign * running), 9, true, 'right');
      footer();
      page++;
      yy = 60;
      text(40, yy, `${credit ? v.credit : v.title} ${number}`, 9);
      yy += 20;
      text(380, yy, v.carried, 9, false, 'right');
      text(555, yy, money(sign * running), 9, false, 'right');
      yy += 18;
      header();
    }
    text(cols[0]!, yy, it.desc, 9);
    text(cols[1]!, yy, String(it.qty), 9, false, 'right');
    text(cols[2]!, yy, money(sign * it.unit), 9, false, 'right');
    text(cols[3]!, yy, `${rate}%`, 9, false, 'right');
    text(cols[4]!, yy, money(sign * it.total), 9, false, 'right');
    running += it.total;
    yy += 14;
  }
  if (yy > 680) {
    footer();
    page++;
    yy = 80;
  }
  yy += 18;
  const totals: Array<[string, string, boolean]> = [
    [v.subtotal, money(net), false],
    [v.net, money(net), false],
    [v.vat, money(vat), false],
  ];
  if (prev || paidPart) {
    // The invoice total comes first; the balance after previous balance and payments is not the invoice's amount.
    totals.push([GROSS[lang], cur(gross), true]);
    if (prev) totals.push([v.prevBalance, money(prev), false]);
    if (paidPart) totals.push([v.paid, money(-paidPart), false]);
    totals.push([BALANCE[lang], money(payable), false]);
  } else totals.push([pick(r, v.total), cur(gross), true]);
  for (const [l, val, b] of totals) {
    text(300, yy, l, b ? 11 : 9, b);
    text(555, yy, val, b ? 11 : 9, b, 'right');
    yy += b ? 18 : 14;
  }
  if (!codeAfter) text(40, yy + 12, `${currency}`, 8);
  footer();
  return {
    id: `famA-${lang}-${seed}`,
    lang,
    style,
    currency,
    layout: footerOnly ? 'footer-vendor' : 'letterhead',
    pages: page,
    runs,
    truth: {
      vendor: winAnsi(vendor),
      // Credit notes print negative totals and are answered positive (EN 16931 type 381); corrections keep the sign.
      amount: (credit && !/RECTIFICATIVA|STORNO/.test(v.credit) ? Math.abs(gross) : gross) / 100,
      currency,
      invoice_date: `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
      invoice_number: number,
    },
  };
}
