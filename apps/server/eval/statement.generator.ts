import { formatMoney, mulberry32, type NumberStyle, type TextRun } from './invoice.generator';
import type { GenLang } from './vocabulary';

/**
 * Seeded generator of bank statement PDFs (as positioned text runs, drawn by invoice.renderers.ts) in six layouts and
 * the seven languages with their number and date styles. Truth is the generator's own data. The 'holdout' layout is
 * kept out of all tuning of the PDF statement reader: read its score only.
 */

export type StatementLayout =
  | 'signed'
  | 'debit-credit'
  | 'newest-first'
  | 'multipage'
  | 'unsigned-balance'
  | 'holdout'
  /** Second held-out family (added after all tuning): value date before booking date, DR/CR marks on amounts and balances. */
  | 'holdout-drcr';
export const DEV_LAYOUTS: StatementLayout[] = [
  'signed',
  'debit-credit',
  'newest-first',
  'multipage',
  'unsigned-balance',
];

export interface StatementTruthTx {
  date: string;
  amountMinor: number;
  type: 'debit' | 'credit';
  description: string;
}

export interface StatementTruth {
  bankName: string;
  accountNumber: string;
  startDate: string;
  endDate: string;
  currency: string;
  openingBalanceMinor: number;
  closingBalanceMinor: number;
  transactions: StatementTruthTx[];
}

export interface GeneratedStatement {
  id: string;
  lang: GenLang;
  layout: StatementLayout;
  pages: number;
  runs: TextRun[];
  truth: StatementTruth;
}

interface Words {
  title: string;
  account: string;
  period: string;
  to: string;
  currency: string;
  opening: string;
  closing: string;
  date: string;
  value: string;
  text: string;
  amount: string;
  debit: string;
  credit: string;
  balance: string;
  carried: string;
  brought: string;
  total: string;
  interest: string;
  interestLine: string;
  fees: string;
  page: string;
  holder: string;
  purposes: string[];
  banks: string[];
  /** Held-out wordings (synonyms the dev layouts never print). */
  h: { date: string; value: string; text: string; debit: string; credit: string; balance: string; ref: string };
}

const W: Record<GenLang, Words> = {
  en: {
    title: 'Account Statement',
    account: 'Account number',
    period: 'Statement period',
    to: 'to',
    currency: 'Currency',
    opening: 'Opening balance',
    closing: 'Closing balance',
    date: 'Date',
    value: 'Value date',
    text: 'Description',
    amount: 'Amount',
    debit: 'Debit',
    credit: 'Credit',
    balance: 'Balance',
    carried: 'Balance carried forward',
    brought: 'Balance brought forward',
    total: 'Total',
    interest: 'Interest and charges summary',
    interestLine: 'Credit interest',
    fees: 'Account fees',
    page: 'Page',
    holder: 'Account holder',
    purposes: [
      'Card payment',
      'Direct debit',
      'Transfer to',
      'Salary',
      'Standing order',
      'Refund from',
      'Cash withdrawal',
    ],
    banks: ['Northern Rock Bank', 'Thames Savings Bank', 'Albion Building Society', 'Monzo', 'Harbour Trust Bank'],
    h: {
      date: 'Posting date',
      value: 'Value',
      text: 'Details',
      debit: 'Money out',
      credit: 'Money in',
      balance: 'Balance',
      ref: 'Ref.',
    },
  },
  de: {
    title: 'Kontoauszug',
    account: 'Kontonummer',
    period: 'Zeitraum',
    to: 'bis',
    currency: 'Währung',
    opening: 'Anfangssaldo',
    closing: 'Endsaldo',
    date: 'Buchungstag',
    value: 'Valuta',
    text: 'Verwendungszweck',
    amount: 'Betrag',
    debit: 'Soll',
    credit: 'Haben',
    balance: 'Saldo',
    carried: 'Übertrag auf Blatt',
    brought: 'Übertrag von Blatt',
    total: 'Summe',
    interest: 'Zins- und Entgeltübersicht',
    interestLine: 'Habenzinsen',
    fees: 'Kontoführungsentgelt',
    page: 'Seite',
    holder: 'Kontoinhaber',
    purposes: [
      'Kartenzahlung',
      'SEPA-Lastschrift',
      'Überweisung an',
      'Gehalt',
      'Dauerauftrag',
      'Gutschrift von',
      'Bargeldauszahlung',
    ],
    banks: ['Sparkasse Rheintal', 'Volksbank Mittelland eG', 'Nordbank AG', 'Bunq', 'Raiffeisenbank Oberland'],
    h: {
      date: 'Buchung',
      value: 'Wertstellung',
      text: 'Vorgang',
      debit: 'Belastung',
      credit: 'Gutschrift',
      balance: 'Kontostand',
      ref: 'Ref.',
    },
  },
  fr: {
    title: 'Relevé de compte',
    account: 'Numéro de compte',
    period: 'Période',
    to: 'au',
    currency: 'Devise',
    opening: 'Solde initial',
    closing: 'Solde final',
    date: 'Date',
    value: 'Date de valeur',
    text: 'Libellé',
    amount: 'Montant',
    debit: 'Débit',
    credit: 'Crédit',
    balance: 'Solde',
    carried: 'Solde à reporter',
    brought: 'Report',
    total: 'Total des opérations',
    interest: 'Récapitulatif des intérêts et frais',
    interestLine: 'Intérêts créditeurs',
    fees: 'Frais de tenue de compte',
    page: 'Page',
    holder: 'Titulaire',
    purposes: [
      'Paiement carte',
      'Prélèvement',
      'Virement à',
      'Salaire',
      'Virement permanent',
      'Remboursement de',
      'Retrait DAB',
    ],
    banks: ['Banque Populaire du Lac', 'Caisse Régionale Alpes', 'Crédit Maritime', 'Boursorama', 'Banque de Savoie'],
    h: {
      date: 'Date opération',
      value: 'Valeur',
      text: 'Nature',
      debit: 'Débits',
      credit: 'Crédits',
      balance: 'Solde',
      ref: 'Réf.',
    },
  },
  it: {
    title: 'Estratto conto',
    account: 'Numero conto',
    period: 'Periodo',
    to: 'al',
    currency: 'Divisa',
    opening: 'Saldo iniziale',
    closing: 'Saldo finale',
    date: 'Data',
    value: 'Data valuta',
    text: 'Descrizione',
    amount: 'Importo',
    debit: 'Dare',
    credit: 'Avere',
    balance: 'Saldo',
    carried: 'A riportare',
    brought: 'Riporto',
    total: 'Totale movimenti',
    interest: 'Riepilogo interessi e spese',
    interestLine: 'Interessi creditori',
    fees: 'Spese di tenuta conto',
    page: 'Pagina',
    holder: 'Intestatario',
    purposes: [
      'Pagamento carta',
      'Addebito SDD',
      'Bonifico a',
      'Stipendio',
      'Ordine permanente',
      'Rimborso da',
      'Prelievo bancomat',
    ],
    banks: [
      'Banca Popolare del Garda',
      'Cassa di Risparmio di Lucca',
      'Banca Adriatica',
      'Fineco',
      'Credito Valtellinese',
    ],
    h: {
      date: 'Data operazione',
      value: 'Valuta',
      text: 'Causale',
      debit: 'Addebiti',
      credit: 'Accrediti',
      balance: 'Saldo',
      ref: 'Rif.',
    },
  },
  es: {
    title: 'Extracto de cuenta',
    account: 'Número de cuenta',
    period: 'Periodo',
    to: 'al',
    currency: 'Divisa',
    opening: 'Saldo inicial',
    closing: 'Saldo final',
    date: 'Fecha',
    value: 'Fecha valor',
    text: 'Concepto',
    amount: 'Importe',
    debit: 'Cargo',
    credit: 'Abono',
    balance: 'Saldo',
    carried: 'Suma y sigue',
    brought: 'Saldo anterior',
    total: 'Total movimientos',
    interest: 'Resumen de intereses y comisiones',
    interestLine: 'Intereses abonados',
    fees: 'Comisión de mantenimiento',
    page: 'Página',
    holder: 'Titular',
    purposes: [
      'Pago con tarjeta',
      'Recibo domiciliado',
      'Transferencia a',
      'Nómina',
      'Orden permanente',
      'Devolución de',
      'Reintegro cajero',
    ],
    banks: ['Banco del Ebro', 'Caja Rural de Aragón', 'Banco Atlántico', 'Openbank', 'Caja de Ahorros del Sur'],
    h: {
      date: 'F. operación',
      value: 'F. valor',
      text: 'Movimiento',
      debit: 'Cargos',
      credit: 'Abonos',
      balance: 'Saldo',
      ref: 'Ref.',
    },
  },
  ro: {
    title: 'Extras de cont',
    account: 'Numar cont',
    period: 'Perioada',
    to: 'pana la',
    currency: 'Moneda',
    opening: 'Sold initial',
    closing: 'Sold final',
    date: 'Data',
    value: 'Data valutei',
    text: 'Descriere',
    amount: 'Suma',
    debit: 'Debit',
    credit: 'Credit',
    balance: 'Sold',
    carried: 'Sold de reportat',
    brought: 'Sold reportat',
    total: 'Total rulaje',
    interest: 'Sumar dobanzi si comisioane',
    interestLine: 'Dobanda creditoare',
    fees: 'Comision administrare cont',
    page: 'Pagina',
    holder: 'Titular',
    purposes: [
      'Plata card',
      'Debit direct',
      'Transfer catre',
      'Salariu',
      'Ordin de plata programat',
      'Rambursare de la',
      'Retragere numerar',
    ],
    banks: ['Banca Carpatica', 'Banca Transilvania Nord', 'CEC Bank Muntenia', 'Libra Internet Bank', 'Banca Dunarea'],
    h: {
      date: 'Data tranzactiei',
      value: 'Data valorii',
      text: 'Detalii',
      debit: 'Retrageri',
      credit: 'Depuneri',
      balance: 'Sold',
      ref: 'Ref.',
    },
  },
  nl: {
    title: 'Rekeningafschrift',
    account: 'Rekeningnummer',
    period: 'Periode',
    to: 't/m',
    currency: 'Valuta',
    opening: 'Beginsaldo',
    closing: 'Eindsaldo',
    date: 'Datum',
    value: 'Valutadatum',
    text: 'Omschrijving',
    amount: 'Bedrag',
    debit: 'Af',
    credit: 'Bij',
    balance: 'Saldo',
    carried: 'Naar volgende pagina',
    brought: 'Van vorige pagina',
    total: 'Totaal',
    interest: 'Overzicht rente en kosten',
    interestLine: 'Creditrente',
    fees: 'Kosten betaalrekening',
    page: 'Pagina',
    holder: 'Rekeninghouder',
    purposes: [
      'Betaalautomaat',
      'Incasso',
      'Overboeking naar',
      'Salaris',
      'Periodieke overboeking',
      'Terugbetaling van',
      'Geldopname',
    ],
    banks: ['Rabobank Utrecht', 'Zeeuwse Spaarbank', 'Bank Noord NV', 'Knab', 'Friesland Bank'],
    h: {
      date: 'Boekdatum',
      value: 'Rentedatum',
      text: 'Mededelingen',
      debit: 'Afschrijving',
      credit: 'Bijschrijving',
      balance: 'Saldo',
      ref: 'Ref.',
    },
  },
};

const STYLE: Record<GenLang, NumberStyle> = { en: 'en', de: 'de', fr: 'fr', it: 'de', es: 'de', ro: 'de', nl: 'de' };
const CURRENCY: Record<GenLang, string[]> = {
  en: ['GBP', 'EUR', 'USD'],
  de: ['EUR'],
  fr: ['EUR'],
  it: ['EUR'],
  es: ['EUR'],
  ro: ['RON', 'EUR'],
  nl: ['EUR'],
};
const COUNTRY: Record<GenLang, [string, number]> = {
  en: ['GB', 18],
  de: ['DE', 18],
  fr: ['FR', 23],
  it: ['IT', 23],
  es: ['ES', 20],
  ro: ['RO', 20],
  nl: ['NL', 14],
};
const PARTIES = [
  'ACME GmbH',
  'Stadtwerke Nord',
  'Blue Sky Telecom',
  'Mercado Central SL',
  'Librairie du Parc',
  'Ferrari Forniture Srl',
  'De Vries BV',
  'Metro Cash',
  'Amazon EU',
  'Vodafone',
  'Shell Station 42',
  'Landlord Property Ltd',
  'Insurance Mutual',
  'City Tax Office',
];

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function ibanFor(r: Rng, lang: GenLang): string {
  const [cc, len] = COUNTRY[lang];
  let bban = '';
  if (lang === 'en' || lang === 'nl') bban += pick(r, ['NWBK', 'BARC', 'RABO', 'INGB', 'ABNA']);
  while (bban.length < len) bban += String(int(r, 0, 9));
  const numeric = `${bban}${cc}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const d of numeric) rem = (rem * 10 + Number(d)) % 97;
  return `${cc}${String(98 - rem).padStart(2, '0')}${bban}`;
}

const spaced = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

function fmtDate(iso: string, lang: GenLang, short = false): string {
  const [y, m, d] = iso.split('-');
  if (short) return `${d}.${m}.`;
  if (lang === 'de' || lang === 'ro') return `${d}.${m}.${y}`;
  if (lang === 'nl') return `${d}-${m}-${y}`;
  return `${d}/${m}/${y}`;
}

function addDays(iso: string, n: number): string {
  const t = new Date(`${iso}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

const A4 = { w: 595.28, h: 841.89 };

/** `rows` fixes the number of transactions (scans are one page: a dozen rows). */
export function generateStatement(
  seed: number,
  lang: GenLang,
  layout: StatementLayout,
  rows?: number,
): GeneratedStatement {
  const r = mulberry32(seed);
  const w = W[lang];
  const style = STYLE[lang];
  const currency = pick(r, CURRENCY[lang]);
  const money = (c: number) => formatMoney(c, style);
  const bankName = pick(r, w.banks);
  const iban = ibanFor(r, lang);
  const year = int(r, 2022, 2025);
  const month = int(r, 1, 12);
  const start = `${year}-${String(month).padStart(2, '0')}-01`;
  const end = addDays(`${addDays(start, 32).slice(0, 8)}01`, -1);
  const days = Number(end.slice(8));
  const many = layout === 'multipage' || layout === 'holdout';
  const n0 = many ? int(r, 45, 90) : int(r, 6, 14);
  const n = rows ?? n0;
  const multiLine =
    layout === 'debit-credit' || layout === 'multipage' || layout === 'holdout' || layout === 'holdout-drcr';
  // Transactions, oldest first.
  const opening = int(r, -50_000, 900_000);
  let bal = opening;
  const txs: Array<StatementTruthTx & { value: string; lines: string[]; balance: number }> = [];
  const dates = Array.from({ length: n }, () => int(r, 1, days)).sort((a, b) => a - b);
  for (const day of dates) {
    const credit = r() < 0.3;
    const amountMinor = credit ? int(r, 1_000, 350_000) : int(r, 50, 120_000);
    bal += credit ? amountMinor : -amountMinor;
    const date = `${start.slice(0, 8)}${String(day).padStart(2, '0')}`;
    const party = pick(r, PARTIES);
    const lines = [`${pick(r, w.purposes)} ${party}`];
    if (multiLine && r() < 0.6) lines.push(`${w.h.ref} ${int(r, 100000, 999999)}-${int(r, 10, 99)}`);
    if (multiLine && r() < 0.25) lines.push(spaced(ibanFor(r, pick(r, ['de', 'fr', 'nl'] as GenLang[]))));
    const value = day < days && r() < 0.3 ? addDays(date, 1) : date;
    txs.push({
      date,
      amountMinor,
      type: credit ? 'credit' : 'debit',
      description: lines.join(' '),
      value,
      lines,
      balance: bal,
    });
  }
  const closing = bal;
  const runs: TextRun[] = [];
  let page = 1;
  const text = (x: number, y: number, t: string, size = 9, o: Partial<TextRun> = {}) =>
    runs.push({ page, x, y, text: t, size, ...o });

  // Header block.
  const holdout = layout === 'holdout';
  if (holdout) {
    text(A4.w - 40, 50, bankName, 12, { bold: true, align: 'right' });
    text(40, 50, w.title, 16, { bold: true });
    text(40, 78, `${w.holder}: M. Example`, 9);
    text(40, 92, `IBAN ${spaced(iban)}`, 9);
    text(40, 106, `${fmtDate(start, lang)} - ${fmtDate(end, lang)}`, 9);
    text(A4.w - 40, 92, `${w.opening}: ${money(opening)} ${currency}`, 9, { align: 'right' });
    text(A4.w - 40, 106, `${w.closing}: ${money(closing)} ${currency}`, 9, { align: 'right' });
  } else {
    text(40, 50, bankName, 16, { bold: true });
    text(A4.w - 40, 50, w.title, 12, { bold: true, align: 'right' });
    text(40, 80, `${w.holder}: M. Example`, 9);
    text(40, 94, `IBAN: ${layout === 'signed' ? iban : spaced(iban)}`, 9);
    text(40, 108, `${w.period}: ${fmtDate(start, lang)} ${w.to} ${fmtDate(end, lang)}`, 9);
    text(40, 122, `${w.currency}: ${currency}`, 9);
    if (layout !== 'debit-credit') {
      text(360, 94, `${w.opening}:`, 9);
      text(A4.w - 40, 94, money(opening), 9, { align: 'right' });
      text(360, 108, `${w.closing}:`, 9);
      text(A4.w - 40, 108, money(closing), 9, { align: 'right' });
    }
  }

  // Columns: [role, header, x, align].
  type Col = {
    key: 'date' | 'value' | 'ref' | 'text' | 'amount' | 'debit' | 'credit' | 'balance';
    head: string;
    x: number;
    right?: boolean;
  };
  const layouts: Record<StatementLayout, Col[]> = {
    signed: [
      { key: 'date', head: w.date, x: 40 },
      { key: 'text', head: w.text, x: 110 },
      { key: 'amount', head: w.amount, x: 555, right: true },
    ],
    'debit-credit': [
      { key: 'date', head: w.date, x: 40 },
      { key: 'value', head: w.value, x: 100 },
      { key: 'text', head: w.text, x: 165 },
      { key: 'debit', head: w.debit, x: 410, right: true },
      { key: 'credit', head: w.credit, x: 480, right: true },
      { key: 'balance', head: w.balance, x: 555, right: true },
    ],
    'newest-first': [
      { key: 'date', head: w.date, x: 40 },
      { key: 'text', head: w.text, x: 110 },
      { key: 'amount', head: w.amount, x: 470, right: true },
      { key: 'balance', head: w.balance, x: 555, right: true },
    ],
    multipage: [
      { key: 'date', head: w.date, x: 40 },
      { key: 'value', head: w.value, x: 100 },
      { key: 'text', head: w.text, x: 165 },
      { key: 'amount', head: w.amount, x: 470, right: true },
      { key: 'balance', head: w.balance, x: 555, right: true },
    ],
    'unsigned-balance': [
      { key: 'date', head: w.date, x: 40 },
      { key: 'text', head: w.text, x: 110 },
      { key: 'value', head: w.value, x: 340 },
      { key: 'amount', head: w.amount, x: 470, right: true },
      { key: 'balance', head: w.balance, x: 555, right: true },
    ],
    'holdout-drcr': [
      { key: 'value', head: w.value, x: 40 },
      { key: 'date', head: w.date, x: 110 },
      { key: 'text', head: w.text, x: 180 },
      { key: 'amount', head: w.amount, x: 470, right: true },
      { key: 'balance', head: w.balance, x: 555, right: true },
    ],
    holdout: [
      { key: 'date', head: w.h.date, x: 36 },
      { key: 'ref', head: w.h.ref, x: 108 },
      { key: 'text', head: w.h.text, x: 160 },
      { key: 'value', head: w.h.value, x: 330 },
      { key: 'debit', head: w.h.debit, x: 445, right: true },
      { key: 'credit', head: w.h.credit, x: 505, right: true },
      { key: 'balance', head: w.h.balance, x: 565, right: true },
    ],
  };
  const columns = layouts[layout];
  const numericX = Math.min(...columns.filter((c) => c.right).map((c) => c.x)) - 70;
  const textCol = columns.find((c) => c.key === 'text')!;
  const textWidth = numericX - textCol.x;
  const balanceX = columns.find((c) => c.key === 'balance')?.x ?? A4.w - 40;
  const amountX = columns.find((c) => c.key === 'amount' || c.key === 'debit')!.x;
  const header = (y: number) => {
    for (const c of columns) text(c.x, y, c.head, 8.5, { bold: true, ...(c.right ? { align: 'right' } : {}) });
  };
  const top = holdout ? 140 : 150;
  let y = top;
  header(y);
  y += 18;
  const ordered = layout === 'newest-first' || holdout ? [...txs].reverse() : txs;
  const bottom = A4.h - 70;
  const footer = () => text(A4.w / 2, A4.h - 30, `${w.page} ${page}`, 8);
  const drcr = layout === 'holdout-drcr';
  const marked = (m: number) => `${money(Math.abs(m))} ${m < 0 ? 'DR' : 'CR'}`;
  const rowBalance = (b: number) => text(balanceX, y, drcr ? marked(b) : money(b), 9, { align: 'right' });
  if (layout === 'debit-credit') {
    text(textCol.x, y, w.opening, 9);
    rowBalance(opening);
    y += 14;
  }
  let lastBal = layout === 'newest-first' || holdout ? closing : opening;
  for (const t of ordered) {
    const need = 13 * t.lines.length + 4;
    if (y + need > bottom - 20 && (layout === 'multipage' || holdout)) {
      text(textCol.x, y + 4, w.carried, 9, { bold: true });
      rowBalance(lastBal);
      footer();
      page += 1;
      y = 60;
      header(y);
      y += 18;
      text(textCol.x, y, w.brought, 9, { bold: true });
      rowBalance(lastBal);
      y += 16;
    }
    for (const c of columns) {
      if (c.key === 'date') text(c.x, y, fmtDate(t.date, lang), 9);
      if (c.key === 'value') text(c.x, y, fmtDate(t.value, lang, layout === 'unsigned-balance'), 9);
      if (c.key === 'ref') text(c.x, y, String(int(r, 1000, 9999)), 9);
    }
    // Descriptions longer than the column wrap (the generator cuts at the column's width).
    const maxChars = Math.floor(textWidth / 4.6);
    t.lines.forEach((l, k) => {
      text(textCol.x, y + 12 * k, l.slice(0, maxChars), 9);
    });
    const signed = t.type === 'debit' ? -t.amountMinor : t.amountMinor;
    if (layout === 'debit-credit' || holdout) {
      const col = columns.find((c) => c.key === t.type)!;
      text(col.x, y, money(t.amountMinor), 9, { align: 'right' });
    } else if (layout === 'unsigned-balance') {
      text(amountX, y, money(t.amountMinor), 9, { align: 'right' });
    } else if (drcr) {
      text(amountX, y, marked(signed), 9, { align: 'right' });
    } else {
      text(amountX, y, money(signed), 9, { align: 'right' });
    }
    if (columns.some((c) => c.key === 'balance')) rowBalance(t.balance);
    lastBal = layout === 'newest-first' || holdout ? t.balance - signed : t.balance;
    y += 12 * t.lines.length + 4;
  }
  if (layout === 'debit-credit' || layout === 'multipage' || holdout) {
    const debits = txs.filter((t) => t.type === 'debit').reduce((s, t) => s + t.amountMinor, 0);
    const credits = txs.filter((t) => t.type === 'credit').reduce((s, t) => s + t.amountMinor, 0);
    y += 4;
    text(textCol.x, y, w.total, 9, { bold: true });
    if (layout === 'multipage') text(amountX, y, money(credits - debits), 9, { align: 'right', bold: true });
    else {
      text(columns.find((c) => c.key === 'debit')!.x, y, money(debits), 9, { align: 'right', bold: true });
      text(columns.find((c) => c.key === 'credit')!.x, y, money(credits), 9, { align: 'right', bold: true });
    }
    y += 16;
  }
  if (layout === 'debit-credit') {
    text(textCol.x, y, w.closing, 9, { bold: true });
    rowBalance(closing);
    y += 16;
  }
  if (layout === 'multipage' || holdout) {
    y += 10;
    text(40, y, w.interest, 10, { bold: true });
    y += 14;
    text(40, y, `${w.interestLine} ${fmtDate(start, lang)} - ${fmtDate(end, lang)}`, 9);
    text(amountX, y, money(int(r, 1, 500)), 9, { align: 'right' });
    y += 12;
    text(40, y, w.fees, 9);
    text(amountX, y, money(int(r, 100, 900)), 9, { align: 'right' });
  }
  footer();
  return {
    id: `st-${layout}-${lang}-${seed}`,
    lang,
    layout,
    pages: page,
    runs,
    truth: {
      bankName,
      accountNumber: iban,
      startDate: start,
      endDate: end,
      currency,
      openingBalanceMinor: opening,
      closingBalanceMinor: closing,
      transactions: ordered.map((t) => ({
        date: t.date,
        amountMinor: t.amountMinor,
        type: t.type,
        description: t.description,
      })),
    },
  };
}
