import {
  addDays,
  type Currency,
  formatMoney,
  type GeneratedInvoice,
  mulberry32,
  type NumberStyle,
  type TextRun,
} from './invoice.generator';
import type { GenLang } from './vocabulary';
import { VOCAB } from './vocabulary';

/**
 * Family C (development set, written after families A and B): layouts the other sets print rarely.
 * - Meta fields as a header row (labels in one row, values in the row below, left- or right-aligned columns, labels
 *   wrapped over two lines), as label-over-value stacks in a side column, as two label/value pairs on one line, or
 *   inline "Label: value".
 * - The issuer at the top right in small type while the customer's name is the larger bold text at the top left,
 *   the issuer named only in the footer (with VAT id and IBAN), or "From / To" columns; customers are companies with
 *   legal forms too.
 * - Credit notes with negative totals, discounts, shipping, two VAT rates, deposits with a balance, Swiss number style.
 * Its own synonyms per language, chosen from real invoices, not from the rules' label lists.
 */

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const winAnsi = (s: string) =>
  s.replace(
    /[ăĂșşȘŞțţȚŢ]/g,
    (c) => ({ ă: 'a', Ă: 'A', ș: 's', ş: 's', Ș: 'S', Ş: 'S', ț: 't', ţ: 't', Ț: 'T', Ţ: 'T' })[c] ?? c,
  );

interface CVocab {
  title: string[];
  credit: string;
  number: string[];
  date: string[];
  due: string[];
  order: string[];
  customerNo: string[];
  delivery: string[];
  billTo: string[];
  from: string[];
  subtotal: string[];
  vat: (rate: number) => string;
  total: string[];
  paid: string;
  balance: string;
  discount: string;
  shipping: string;
  vatId: string;
  reg: string;
  page: string;
  items: string[];
  companies: string[];
  forms: string[];
  customers: string[];
  streets: string[];
  cities: string[];
  styles: NumberStyle[];
  currencies: Currency[];
  rates: [number, number];
}

const V: Record<GenLang, CVocab> = {
  en: {
    title: ['INVOICE', 'Invoice', 'TAX INVOICE'],
    credit: 'CREDIT NOTE',
    number: ['Invoice No.', 'Invoice number', 'Inv. No.', 'Invoice #', 'Document No.'],
    date: ['Invoice date', 'Date', 'Issue date', 'Date issued', 'Invoice Date'],
    due: ['Due date', 'Payment due', 'Pay by'],
    order: ['Order no.', 'PO number', 'Your order'],
    customerNo: ['Customer no.', 'Account no.', 'Client ID'],
    delivery: ['Delivery date', 'Date of supply', 'Shipped'],
    billTo: ['Bill to', 'Invoice to', 'Customer', 'Billed to'],
    from: ['From', 'Supplier', 'Seller'],
    subtotal: ['Subtotal', 'Net total', 'Total excl. VAT'],
    vat: (r) => `VAT ${r}%`,
    total: ['Total', 'Total due', 'Grand total', 'Amount due', 'Total (incl. VAT)', 'Invoice total'],
    paid: 'Amount paid',
    balance: 'Balance due',
    discount: 'Discount',
    shipping: 'Shipping',
    vatId: 'VAT No.',
    reg: 'Company No.',
    page: 'Page',
    items: ['Consulting hours', 'Website maintenance', 'Printer toner', 'Annual licence', 'Travel expenses'],
    companies: ['Northwind Traders', 'Bluebell Design', 'Harper & Lowe', 'Kestrel Logistics', 'Oakfield Software'],
    forms: ['Ltd', 'Limited', 'LLC', 'Inc.', 'Ltd.'],
    customers: ['Riverside Dental Practice', 'Greenway Foods Ltd', 'City of Bath Council', 'Morgan Estates LLP'],
    streets: ['14 Baker Street', '221 King’s Road', '5 Harbour Way', '88 Mill Lane'],
    cities: ['London SW1A 1AA', 'Manchester M1 2AB', 'Leeds LS1 4DT', 'Bristol BS1 5TR'],
    styles: ['en', 'en', 'ch'],
    currencies: ['GBP', 'USD', 'EUR'],
    rates: [20, 5],
  },
  de: {
    title: ['RECHNUNG', 'Rechnung'],
    credit: 'GUTSCHRIFT',
    number: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.', 'Beleg-Nr.', 'Re.-Nr.'],
    date: ['Rechnungsdatum', 'Datum', 'Belegdatum', 'Ausstellungsdatum'],
    due: ['Fällig am', 'Zahlbar bis', 'Fälligkeitsdatum'],
    order: ['Bestellnummer', 'Auftrags-Nr.', 'Ihre Bestellung'],
    customerNo: ['Kundennummer', 'Kunden-Nr.', 'Debitor'],
    delivery: ['Lieferdatum', 'Leistungsdatum', 'Liefertermin'],
    billTo: ['Rechnungsempfänger', 'Kunde', 'Rechnungsadresse'],
    from: ['Absender', 'Lieferant', 'Verkäufer'],
    subtotal: ['Zwischensumme', 'Nettobetrag', 'Summe netto'],
    vat: (r) => `MwSt. ${r} %`,
    total: ['Gesamtbetrag', 'Rechnungsbetrag', 'Endbetrag', 'Gesamt brutto', 'Zu zahlen', 'Summe brutto'],
    paid: 'Bereits bezahlt',
    balance: 'Offener Betrag',
    discount: 'Rabatt',
    shipping: 'Versandkosten',
    vatId: 'USt-IdNr.',
    reg: 'HRB',
    page: 'Seite',
    items: ['Wartungsvertrag', 'Montagearbeiten', 'Beratungsstunden', 'Büromaterial', 'Softwarelizenz'],
    companies: ['Brandt Elektrotechnik', 'Hofmann & Söhne', 'Alpenblick Medien', 'Kraus Metallbau', 'Weber Logistik'],
    forms: ['GmbH', 'AG', 'KG', 'GmbH & Co. KG', 'e.K.'],
    customers: ['Stadtwerke Lindau GmbH', 'Praxis Dr. Lenz', 'Bäckerei Vogt KG', 'Gemeinde Uhldingen'],
    streets: ['Industriestraße 7', 'Am Markt 3', 'Lindenallee 45', 'Bahnhofplatz 2'],
    cities: ['80331 München', '70173 Stuttgart', '8001 Zürich', '50667 Köln'],
    styles: ['de', 'de', 'ch'],
    currencies: ['EUR', 'EUR', 'CHF'],
    rates: [19, 7],
  },
  fr: {
    title: ['FACTURE', 'Facture'],
    credit: 'AVOIR',
    number: ['N° de facture', 'Facture n°', 'Numéro de facture', 'Réf. facture'],
    date: ['Date de facture', 'Date', "Date d'émission", 'Date facture'],
    due: ["Date d'échéance", 'Échéance', 'À payer avant le'],
    order: ['N° de commande', 'Bon de commande', 'Votre commande'],
    customerNo: ['N° client', 'Code client', 'Réf. client'],
    delivery: ['Date de livraison', 'Livré le'],
    billTo: ['Facturé à', 'Client', 'Adresse de facturation', 'Destinataire'],
    from: ['Émetteur', 'Fournisseur', 'Vendeur'],
    subtotal: ['Total HT', 'Montant HT', 'Sous-total HT'],
    vat: (r) => `TVA ${r} %`,
    total: ['Total TTC', 'Net à payer', 'Montant TTC', 'Total à payer', 'Montant total TTC'],
    paid: 'Acompte versé',
    balance: 'Reste à payer',
    discount: 'Remise',
    shipping: 'Frais de port',
    vatId: 'N° TVA',
    reg: 'SIRET',
    page: 'Page',
    items: ['Prestation de conseil', 'Maintenance annuelle', 'Fournitures', 'Main-d’œuvre', 'Déplacement'],
    companies: ['Lefèvre Bâtiment', 'Atelier Moreau', 'Garnier Informatique', 'Boulangerie Petit', 'Roux Transports'],
    forms: ['SARL', 'SAS', 'SA', 'EURL'],
    customers: ['Mairie de Lyon', 'Cabinet Dupuis SARL', 'Hôtel du Parc SA', 'Lycée Jean Moulin'],
    streets: ['12 rue des Lilas', '3 avenue Foch', '27 boulevard Carnot', '9 place du Marché'],
    cities: ['75011 Paris', '69002 Lyon', '13001 Marseille', '1204 Genève'],
    styles: ['fr', 'fr', 'de'],
    currencies: ['EUR', 'EUR', 'CHF'],
    rates: [20, 10],
  },
  it: {
    title: ['FATTURA', 'Fattura'],
    credit: 'NOTA DI CREDITO',
    number: ['Fattura n.', 'Numero fattura', 'N. fattura', 'Documento n.'],
    date: ['Data fattura', 'Data', 'Data documento', 'Data emissione'],
    due: ['Scadenza', 'Data scadenza', 'Pagamento entro'],
    order: ['N. ordine', 'Vs. ordine', 'Rif. ordine'],
    customerNo: ['Cod. cliente', 'Codice cliente', 'N. cliente'],
    delivery: ['Data consegna', 'Data DDT'],
    billTo: ['Destinatario', 'Cliente', 'Spett.le', 'Intestatario'],
    from: ['Cedente', 'Fornitore', 'Mittente'],
    subtotal: ['Imponibile', 'Totale imponibile', 'Subtotale'],
    vat: (r) => `IVA ${r}%`,
    total: ['Totale fattura', 'Totale documento', 'Totale da pagare', 'Netto a pagare', 'Totale'],
    paid: 'Acconto',
    balance: 'Saldo da pagare',
    discount: 'Sconto',
    shipping: 'Spese di spedizione',
    vatId: 'P.IVA',
    reg: 'REA',
    page: 'Pagina',
    items: ['Consulenza tecnica', 'Manutenzione impianto', 'Materiale di consumo', 'Canone annuale', 'Trasferta'],
    companies: ['Ferrari Impianti', 'Colombo Arredamenti', 'Ricci Informatica', 'Marino Costruzioni', 'Greco Servizi'],
    forms: ['S.r.l.', 'S.p.A.', 'S.n.c.', 'Srl'],
    customers: ['Comune di Bergamo', 'Studio Bianchi S.r.l.', 'Hotel Belvedere S.p.A.', 'Farmacia Centrale'],
    streets: ['Via Garibaldi 21', 'Corso Vittorio Emanuele 5', 'Piazza Duomo 2', 'Viale Europa 118'],
    cities: ['20121 Milano', '00184 Roma', '10121 Torino', '6900 Lugano'],
    styles: ['de', 'de', 'ch'],
    currencies: ['EUR', 'EUR', 'CHF'],
    rates: [22, 10],
  },
  es: {
    title: ['FACTURA', 'Factura'],
    credit: 'FACTURA RECTIFICATIVA',
    number: ['Nº factura', 'Número de factura', 'Factura nº', 'N.º de factura'],
    date: ['Fecha factura', 'Fecha', 'Fecha de emisión', 'Fecha de expedición'],
    due: ['Vencimiento', 'Fecha de vencimiento', 'Fecha de pago'],
    order: ['Nº pedido', 'Su pedido', 'Pedido'],
    customerNo: ['Nº cliente', 'Código cliente', 'Cliente nº'],
    delivery: ['Fecha de entrega', 'Fecha albarán'],
    billTo: ['Cliente', 'Facturar a', 'Datos del cliente', 'Destinatario'],
    from: ['Emisor', 'Proveedor', 'Vendedor'],
    subtotal: ['Base imponible', 'Subtotal', 'Importe neto'],
    vat: (r) => `IVA ${r}%`,
    total: ['Total factura', 'Total', 'Importe total', 'Total a pagar', 'Total (IVA incl.)'],
    paid: 'Pagado a cuenta',
    balance: 'Pendiente de pago',
    discount: 'Descuento',
    shipping: 'Gastos de envío',
    vatId: 'NIF',
    reg: 'CIF',
    page: 'Página',
    items: ['Servicios de consultoría', 'Mantenimiento', 'Material de oficina', 'Licencia anual', 'Desplazamiento'],
    companies: ['Construcciones Navarro', 'García y Martín', 'Talleres Ruiz', 'Diseño Ortega', 'Transportes Molina'],
    forms: ['S.L.', 'S.A.', 'S.L.U.', 'SL'],
    customers: ['Ayuntamiento de Toledo', 'Clínica Dental Sol S.L.', 'Hotel Mirador S.A.', 'Colegio San José'],
    streets: ['Calle Mayor 14', 'Avenida de la Constitución 8', 'Plaza España 3', 'Calle Alcalá 120'],
    cities: ['28013 Madrid', '08002 Barcelona', '41001 Sevilla', '46002 Valencia'],
    styles: ['de', 'de', 'fr'],
    currencies: ['EUR', 'EUR', 'USD'],
    rates: [21, 10],
  },
  ro: {
    title: ['FACTURA', 'Factura fiscala'],
    credit: 'FACTURA STORNO',
    number: ['Nr. factura', 'Factura nr.', 'Numar factura', 'Seria FCT nr.'],
    date: ['Data facturii', 'Data', 'Data emiterii'],
    due: ['Data scadentei', 'Scadenta', 'Termen de plata'],
    order: ['Nr. comanda', 'Comanda', 'Contract nr.'],
    customerNo: ['Cod client', 'Client nr.'],
    delivery: ['Data livrarii', 'Livrat la'],
    billTo: ['Cumparator', 'Client', 'Beneficiar'],
    from: ['Furnizor', 'Vanzator', 'Emitent'],
    subtotal: ['Total fara TVA', 'Valoare fara TVA', 'Subtotal'],
    vat: (r) => `TVA ${r}%`,
    total: ['Total de plata', 'Total factura', 'Total cu TVA', 'Total general', 'De plata'],
    paid: 'Avans achitat',
    balance: 'Rest de plata',
    discount: 'Reducere',
    shipping: 'Transport',
    vatId: 'CUI',
    reg: 'Reg. Com.',
    page: 'Pagina',
    items: ['Servicii consultanta', 'Mentenanta lunara', 'Materiale consumabile', 'Licenta software', 'Manopera'],
    companies: ['Popescu Instal', 'Ionescu Construct', 'Dumitru Trans', 'Carpati Soft', 'Stanciu Design'],
    forms: ['SRL', 'S.R.L.', 'SA'],
    customers: ['Primaria Brasov', 'Clinica Medis SRL', 'Hotel Central SA', 'Scoala Gimnaziala nr. 5'],
    streets: ['Str. Victoriei 12', 'Bd. Unirii 45', 'Calea Dorobantilor 7', 'Str. Lipscani 3'],
    cities: ['010011 Bucuresti', '400001 Cluj-Napoca', '700001 Iasi', '300001 Timisoara'],
    styles: ['de', 'de', 'en'],
    currencies: ['RON', 'RON', 'EUR'],
    rates: [19, 9],
  },
  nl: {
    title: ['FACTUUR', 'Factuur'],
    credit: 'CREDITNOTA',
    number: ['Factuurnummer', 'Factuurnr.', 'Factuur nr.', 'Nummer'],
    date: ['Factuurdatum', 'Datum', 'Datum factuur'],
    due: ['Vervaldatum', 'Te betalen voor', 'Betaaltermijn'],
    order: ['Ordernummer', 'Uw referentie', 'Bestelnummer'],
    customerNo: ['Klantnummer', 'Debiteurnummer', 'Klantnr.'],
    delivery: ['Leverdatum', 'Afleverdatum'],
    billTo: ['Factuuradres', 'Klant', 'Factuur aan'],
    from: ['Leverancier', 'Afzender', 'Van'],
    subtotal: ['Subtotaal', 'Totaal excl. BTW', 'Netto bedrag'],
    vat: (r) => `BTW ${r}%`,
    total: ['Totaal', 'Te betalen', 'Totaal incl. BTW', 'Totaalbedrag', 'Factuurbedrag'],
    paid: 'Reeds betaald',
    balance: 'Openstaand bedrag',
    discount: 'Korting',
    shipping: 'Verzendkosten',
    vatId: 'BTW-nr.',
    reg: 'KvK',
    page: 'Pagina',
    items: ['Advieswerkzaamheden', 'Onderhoud installatie', 'Kantoorbenodigdheden', 'Jaarlicentie', 'Reiskosten'],
    companies: ['Bakker Techniek', 'Visser & Meijer', 'De Boer Media', 'Mulder Bouw', 'Hendriks Logistiek'],
    forms: ['B.V.', 'BV', 'V.O.F.'],
    customers: ['Gemeente Haarlem', 'Tandartsenpraktijk Noord B.V.', 'Hotel De Gouden Leeuw', 'Stichting Welzijn'],
    streets: ['Keizersgracht 120', 'Stationsplein 4', 'Dorpsstraat 18', 'Marktweg 33'],
    cities: ['1015 CS Amsterdam', '3511 AX Utrecht', '2511 BT Den Haag', '5611 AB Eindhoven'],
    styles: ['de', 'de', 'en'],
    currencies: ['EUR', 'EUR', 'GBP'],
    rates: [21, 9],
  },
};

function fmtDate(r: Rng, lang: GenLang, currency: Currency, y: number, m: number, d: number): string {
  const dd = String(d).padStart(2, '0');
  const mm = String(m).padStart(2, '0');
  const month = VOCAB[lang].months[m - 1]!;
  const k = r();
  if (k < 0.2) return `${y}-${mm}-${dd}`;
  if (k < 0.45) {
    if (lang === 'en') return currency === 'USD' ? `${month} ${d}, ${y}` : `${d} ${month} ${y}`;
    if (lang === 'de') return `${d}. ${month} ${y}`;
    if (lang === 'es') return `${d} de ${month} de ${y}`;
    return `${d} ${month} ${y}`;
  }
  if (k < 0.55) return `${dd}.${mm}.${String(y).slice(2)}`;
  if (lang === 'en' && currency === 'USD') return `${mm}/${dd}/${y}`;
  const sep = { en: '/', de: '.', fr: '/', it: '/', es: '/', ro: '.', nl: '-' }[lang];
  return `${dd}${sep}${mm}${sep}${y}`;
}

function invNumber(r: Rng, y: number): string {
  const n = int(r, 1, 99999);
  return pick(r, [
    `${y}${String(n).padStart(5, '0')}`,
    `R${int(r, 100000, 999999)}`,
    `${y}-${String(n).padStart(5, '0')}`,
    `FC-${int(r, 1000, 9999)}`,
    `${int(r, 10, 99)}/${y}`,
    `INV${y % 100}${String(n).padStart(4, '0')}`,
    `${int(r, 100000, 999999)}`,
  ]);
}

/** One family-C invoice; deterministic for a seed. */
export function generateFamilyC(seed: number, lang: GenLang): GeneratedInvoice {
  const r = mulberry32(seed);
  const v = V[lang];
  const runs: TextRun[] = [];
  const page = 1;
  const text = (x: number, y: number, t: string, size = 9, bold = false, align: 'left' | 'right' = 'left') =>
    runs.push({ page, x, y, text: winAnsi(t), size, bold, align });
  const style = pick(r, v.styles);
  const currency = style === 'ch' ? 'CHF' : pick(r, v.currencies);
  const vendor = `${pick(r, v.companies)} ${pick(r, v.forms)}`;
  const customer = pick(r, v.customers);
  const street = pick(r, v.streets);
  const city = pick(r, v.cities);
  const credit = r() < 0.12;
  const sign = credit ? -1 : 1;
  const y = int(r, 2020, 2026);
  const m = int(r, 1, 12);
  const d = int(r, 1, 28);
  const number = invNumber(r, y);
  const date = (yy: number, mm: number, dd: number) => fmtDate(r, lang, currency, yy, mm, dd);
  const money = (c: number) => formatMoney(c, style);
  const symbol = { EUR: '€', USD: '$', GBP: '£', CHF: 'CHF', RON: 'lei' }[currency];
  const vatNo = `${lang === 'en' ? 'GB' : lang.toUpperCase()}${int(r, 100000000, 999999999)}`;
  const custVat = `${lang === 'en' ? 'GB' : lang.toUpperCase()}${int(r, 100000000, 999999999)}`;
  const iban = `${lang === 'en' ? 'GB' : lang.toUpperCase()}${int(r, 10, 99)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 10, 99)}`;

  // Amounts (integer cents).
  const items = Array.from({ length: int(r, 1, 6) }, () => {
    const qty = int(r, 1, 10);
    const unit = int(r, 900, r() < 0.3 ? 180000 : 30000);
    return { desc: pick(r, v.items), qty, unit, total: qty * unit, reduced: r() < 0.25 };
  });
  const net0 = items.reduce((s, it) => s + it.total, 0);
  const discount = r() < 0.2 ? Math.round(net0 * 0.1) : 0;
  const shipping = r() < 0.25 ? int(r, 590, 2990) : 0;
  const twoRates = items.some((it) => it.reduced) && items.some((it) => !it.reduced);
  const baseHigh = items.filter((it) => !it.reduced || !twoRates).reduce((s, it) => s + it.total, 0);
  const baseLow = twoRates ? items.filter((it) => it.reduced).reduce((s, it) => s + it.total, 0) : 0;
  const net = net0 - discount + shipping;
  const vatHigh = Math.round(((baseHigh - discount + shipping) * v.rates[0]) / 100);
  const vatLow = Math.round((baseLow * v.rates[1]) / 100);
  const gross = net + vatHigh + vatLow;
  const deposit = !credit && r() < 0.15 ? Math.round(gross * 0.3) : 0;

  // 1. Parties.
  const vendorLayout = pick(r, ['letter-left', 'letter-right', 'footer-only', 'from-to'] as const);
  let top = 150;
  if (vendorLayout === 'letter-left') {
    text(40, 55, vendor, int(r, 15, 20), true);
    text(40, 72, `${street} · ${city}`, 8);
    text(40, 130, pick(r, v.billTo), 8, true);
    text(40, 143, customer, 10, true);
    text(40, 156, pick(r, v.streets), 10);
    text(40, 169, pick(r, v.cities), 10);
    top = 200;
  } else if (vendorLayout === 'letter-right') {
    // The customer's name is the big bold text; the issuer sits small at the top right.
    text(40, 60, pick(r, v.title), 22, true);
    text(360, 50, vendor, 11, true);
    text(360, 63, street, 8);
    text(360, 74, city, 8);
    text(360, 85, `${v.vatId} ${vatNo}`, 8);
    text(360, 96, `IBAN ${iban}`, 8);
    // Half of them without a "Bill to" label: a window envelope's address only.
    if (r() < 0.5) text(40, 120, pick(r, v.billTo), 8);
    text(40, 135, customer, 13, true);
    text(40, 151, pick(r, v.streets), 9);
    text(40, 163, pick(r, v.cities), 9);
    text(40, 175, `${v.vatId} ${custVat}`, 8);
    top = 205;
  } else if (vendorLayout === 'footer-only') {
    text(40, 60, credit ? v.credit : pick(r, v.title), 20, true);
    text(330, 110, pick(r, v.billTo), 8);
    text(330, 124, customer, 11, true);
    text(330, 138, pick(r, v.streets), 10);
    text(330, 151, pick(r, v.cities), 10);
    top = 185;
  } else {
    text(40, 55, credit ? v.credit : pick(r, v.title), 18, true);
    text(40, 100, `${pick(r, v.from)}:`, 8, true);
    text(40, 114, vendor, 10, true);
    text(40, 127, street, 9);
    text(40, 139, city, 9);
    text(40, 151, `${v.vatId} ${vatNo}`, 8);
    text(310, 100, `${pick(r, v.billTo)}:`, 8, true);
    text(310, 114, customer, 10, true);
    text(310, 127, pick(r, v.streets), 9);
    text(310, 139, pick(r, v.cities), 9);
    text(310, 151, `${v.vatId} ${custVat}`, 8);
    top = 185;
  }
  const showTitle = vendorLayout === 'letter-left';
  if (showTitle) text(40, top, credit ? v.credit : pick(r, v.title), 16, true);
  else if (credit && vendorLayout === 'letter-right') text(40, 80, v.credit, 12, true);

  // 2. Meta fields.
  const [dy, dm, dd] = addDays(y, m, d, pick(r, [14, 30, 10, 21]));
  const [ly, lm, ld] = addDays(y, m, d, -int(r, 1, 6));
  // Letter style: "München, den 12. März 2024" at the top right instead of a labelled invoice date.
  const cityDate = r() < 0.2;
  const fields: Array<[string, string, string]> = [
    ['number', pick(r, v.number), number],
    ...(cityDate ? [] : ([['date', pick(r, v.date), date(y, m, d)]] as Array<[string, string, string]>)),
    ['customer', pick(r, v.customerNo), `${int(r, 10000, 99999)}`],
    ['due', pick(r, v.due), date(dy, dm, dd)],
  ];
  if (r() < 0.5) fields.push(['order', pick(r, v.order), `${pick(r, ['', 'PO-', 'B'])}${int(r, 100000, 999999)}`]);
  if (r() < 0.4) fields.push(['delivery', pick(r, v.delivery), date(ly, lm, ld)]);
  // Shuffle, but keep the customer number before the invoice number half of the time (a common distractor).
  for (let i = fields.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [fields[i], fields[j]] = [fields[j]!, fields[i]!];
  }
  // At most five fields in a header row or a stack: the number and the date always among them.
  const shown = fields.filter((f) => f[0] === 'number' || f[0] === 'date' || fields.indexOf(f) < 3).slice(0, 5);
  const metaLayout = pick(r, ['row', 'row', 'stack', 'pairs', 'inline'] as const);
  let yy = top + (showTitle ? 30 : 20);
  if (cityDate) {
    const place = city.replace(/^[\d\s]+/, '').replace(/\s+[A-Z]{1,2}\d.*$/, '');
    const joiner = { en: '', de: 'den ', fr: 'le ', it: '', es: '', ro: '', nl: '' }[lang];
    text(metaLayout === 'stack' ? 40 : 360, top - 22, `${place}, ${joiner}${date(y, m, d)}`, 9);
  }
  if (metaLayout === 'row') {
    const cols = shown;
    const step = cols.length >= 5 ? 104 : 125;
    const right = r() < 0.3;
    const wrap = r() < 0.3;
    const gap = wrap ? 24 : pick(r, [12, 14, 20]);
    cols.forEach(([, label, value], i) => {
      const x = right ? 40 + (i + 1) * step - 12 : 40 + i * step;
      const align = right ? 'right' : 'left';
      const words = label.split(' ');
      if (wrap && words.length > 1) {
        text(x, yy, words.slice(0, Math.ceil(words.length / 2)).join(' '), 8, true, align);
        text(x, yy + 10, words.slice(Math.ceil(words.length / 2)).join(' '), 8, true, align);
      } else text(x, yy, label, 8, true, align);
      text(x, yy + gap, value, 9, false, align);
    });
    yy += gap + 35;
  } else if (metaLayout === 'stack') {
    let sy = top - 10;
    for (const [, label, value] of shown) {
      text(400, sy, label, 7, true);
      text(400, sy + 11, value, 10);
      sy += 28;
    }
    yy = Math.max(yy, sy + 10);
  } else if (metaLayout === 'pairs') {
    for (let i = 0; i < fields.length; i += 2) {
      const a = fields[i]!;
      text(40, yy, a[1], 9);
      text(135, yy, a[2], 9);
      const b = fields[i + 1];
      if (b) {
        text(310, yy, b[1], 9);
        text(420, yy, b[2], 9);
      }
      yy += 14;
    }
    yy += 20;
  } else {
    const x = r() < 0.5 ? 40 : 330;
    for (const [, label, value] of fields) {
      text(x, yy, `${label}: ${value}`, 9);
      yy += 13;
    }
    yy += 20;
  }

  // A credit note names the invoice it corrects, with that invoice's number and date.
  if (credit && r() < 0.7) {
    const on = invNumber(r, y);
    const [oy, om, od] = addDays(y, m, d, -int(r, 15, 90));
    const odate = date(oy, om, od);
    const ref = {
      en: [`Relates to invoice ${on} of ${odate}`, `Credit for invoice no. ${on} dated ${odate}`],
      de: [`Gutschrift zu Rechnung Nr. ${on} vom ${odate}`, `Bezug: Rechnung ${on} vom ${odate}`],
      fr: [`Avoir sur facture n° ${on} du ${odate}`, `Facture d'origine ${on} du ${odate}`],
      it: [`Rif. fattura n. ${on} del ${odate}`, `Storno della fattura n. ${on} del ${odate}`],
      es: [`Rectifica la factura nº ${on} de ${odate}`, `Factura rectificada: ${on} de fecha ${odate}`],
      ro: [`Storno factura nr. ${on} din ${odate}`, `Stornare la factura ${on} din ${odate}`],
      nl: [`Creditering van factuur ${on} van ${odate}`, `Betreft factuur ${on} d.d. ${odate}`],
    }[lang];
    text(40, yy - 8, pick(r, ref), 9);
    yy += 18;
  }

  // 3. Items.
  const dateColumn = r() < 0.25;
  const dateHead = { en: 'Date', de: 'Datum', fr: 'Date', it: 'Data', es: 'Fecha', ro: 'Data', nl: 'Datum' }[lang];
  const cols = [dateColumn ? 100 : 40, 330, 400, 470, 555];
  const head = {
    en: ['Description', 'Qty', 'Unit price', 'VAT', 'Amount'],
    de: ['Bezeichnung', 'Menge', 'Einzelpreis', 'USt.', 'Betrag'],
    fr: ['Désignation', 'Qté', 'Prix unit.', 'TVA', 'Montant'],
    it: ['Descrizione', 'Q.tà', 'Prezzo', 'IVA', 'Importo'],
    es: ['Concepto', 'Cant.', 'Precio', 'IVA', 'Importe'],
    ro: ['Denumire', 'Cant.', 'Pret unitar', 'TVA', 'Valoare'],
    nl: ['Omschrijving', 'Aantal', 'Prijs', 'BTW', 'Bedrag'],
  }[lang];
  text(cols[0]!, yy, head[0]!, 8, true);
  if (dateColumn) text(40, yy, dateHead, 8, true);
  for (let i = 1; i < 5; i++) text(cols[i]!, yy, head[i]!, 8, true, 'right');
  yy += 16;
  for (const it of items) {
    if (dateColumn) {
      const [sy, sm, sd] = addDays(y, m, d, -int(r, 2, 40));
      const dd2 = String(sd).padStart(2, '0');
      const mm2 = String(sm).padStart(2, '0');
      text(40, yy, lang === 'en' && currency === 'USD' ? `${mm2}/${dd2}/${sy}` : `${dd2}.${mm2}.${sy}`, 9);
    }
    text(cols[0]!, yy, it.desc, 9);
    text(cols[1]!, yy, String(it.qty), 9, false, 'right');
    text(cols[2]!, yy, money(sign * it.unit), 9, false, 'right');
    text(cols[3]!, yy, `${twoRates && it.reduced ? v.rates[1] : v.rates[0]}%`, 9, false, 'right');
    text(cols[4]!, yy, money(sign * it.total), 9, false, 'right');
    yy += 14;
  }
  yy += 16;

  // 4. Totals.
  const curStyle = pick(r, ['code-after', 'symbol', 'header', 'none'] as const);
  const withCur = (c: number) =>
    curStyle === 'code-after'
      ? `${money(c)} ${currency}`
      : curStyle === 'symbol'
        ? currency === 'EUR' && lang !== 'en' && lang !== 'nl'
          ? `${money(c)} ${symbol}`
          : `${symbol} ${money(c)}`.replace(/^([$£]) /, '$1')
        : money(c);
  const lx = pick(r, [330, 360, 390]);
  const rows: Array<[string, number, boolean]> = [[pick(r, v.subtotal), sign * (net0 + shipping - discount), false]];
  if (discount) rows.unshift([v.discount, -sign * discount, false]);
  if (shipping) rows.unshift([v.shipping, sign * shipping, false]);
  if (discount || shipping) rows.unshift([pick(r, v.subtotal.slice(0, 1)), sign * net0, false]);
  rows.push([v.vat(v.rates[0]), sign * vatHigh, false]);
  if (vatLow) rows.push([v.vat(v.rates[1]), sign * vatLow, false]);
  rows.push([pick(r, v.total), sign * gross, true]);
  if (deposit) {
    rows.push([v.paid, -deposit, false]);
    rows.push([v.balance, gross - deposit, false]);
  }
  for (const [label, c, bold] of rows) {
    text(lx, yy, label, bold ? 10 : 9, bold);
    text(555, yy, bold ? withCur(c) : money(c), bold ? 10 : 9, bold, 'right');
    yy += bold ? 17 : 13;
  }
  if (curStyle === 'header' || curStyle === 'none')
    text(40, yy + 10, `${pick(r, ['Currency', 'Währung', 'Devise', 'Valuta', 'Moneda'])}: ${currency}`, 8);

  // 5. Footer: the issuer's legal line (always in footer-only, often elsewhere), bank details, page number.
  const legal = vendorLayout === 'footer-only' || r() < 0.5;
  if (legal)
    text(40, 790, `${vendor} · ${street} · ${city} · ${v.vatId} ${vatNo} · ${v.reg} ${int(r, 10000, 99999)}`, 7);
  text(40, 801, `IBAN ${iban} · BIC ${pick(r, ['DEUTDEFF', 'BNPAFRPP', 'UNCRITMM', 'INGBNL2A', 'BRDEROBU'])}`, 7);
  text(555, 812, `${v.page} 1/1`, 7, false, 'right');
  return {
    id: `famC-${lang}-${seed}`,
    lang,
    style,
    currency,
    layout: `${vendorLayout}/${metaLayout}`,
    pages: 1,
    runs,
    truth: {
      vendor: winAnsi(vendor),
      // Credit notes are answered positive (EN 16931 type 381); corrections (rectificativa, storno) keep the sign.
      amount: (credit && !/RECTIFICATIVA|STORNO/.test(v.credit) ? Math.abs(sign * gross) : sign * gross) / 100,
      currency,
      invoice_date: `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
      invoice_number: number,
    },
  };
}
