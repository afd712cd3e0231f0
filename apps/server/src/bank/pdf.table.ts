import { currencyDecimals } from '@invoicebox/core';
import type { Cell, Line } from '../extraction/extraction.types';
import { type DayOrder, findDates, monthNumber } from '../extraction/rules/date.parser';
import { type Doc, foldAligned, prepareDoc } from '../extraction/rules/document';
import { ibanValid } from '../extraction/rules/iban';
import { findAmounts, findCurrencies, otherDollar, parseAmount } from '../extraction/rules/money.parser';
import { mailDomainName } from '../extraction/rules/vendor.rules';
import type { ParsedStatement, StatementTransaction, TransactionType } from './statement.types';
import { closerReading, daySpan, emptyStatement, issue, joinText, transaction } from './statement.util';

/**
 * Rebuilds a bank statement's transaction table from positioned lines (a PDF's text layer or OCR word boxes, both
 * through extraction's buildLines). The table's header row names the columns in any of the seven languages; every
 * later row that starts with a date in the date column and has an amount is a transaction, lines under it without
 * a date or amount continue its description, and balance, carry-over and totals rows are read as such, never as
 * transactions. Where the columns leave the direction open, the running balance decides it.
 */

type Role = 'date' | 'value' | 'text' | 'amount' | 'debit' | 'credit' | 'balance';

/** Header words per column role (folded: lower case, no accents); the first role that matches a header cell wins. */
const ROLE_WORDS: Array<[Role, RegExp]> = [
  [
    'value',
    /(?<![a-z])(value date|value|valuta\w*|wert\w*|date de valeur|date valeur|valeur|data valuta|fecha valor|f\. valor|valor|rentedatum|rentedato|renteda?g|data valutei|data valorii|valutadag|data waluty|datum valuty|arvopaiva)(?![a-z])/,
  ],
  ['balance', /(?<![a-z])(balance|running balance|saldo|solde|sold|kontostand|stand)(?![a-z])/],
  [
    'debit',
    /(?<![a-z])(debits?|withdrawals?|subtractions?|paid out|money out|payments? out|out|debito|soll|belastung\w*|lastschrift\w*|ausgang|ausgange|addebiti|addebito|dare|uscite|cargos?|debe|af|afschrijving\w*|debet|retrageri|plati)(?![a-z])/,
  ],
  [
    'credit',
    /(?<![a-z])(credits?|deposits?|additions?|paid in|money in|payments? in|in|credito|haben|gutschrift\w*|eingang|eingange|accrediti|accredito|avere|entrate|abonos?|haber|bij|bijschrijving\w*|depuneri|incasari|încasări)(?![a-z])/,
  ],
  [
    'amount',
    /(?<![a-z])(amount|betrag|umsatz|montant|importo|importe|bedrag|suma|valoare|sum|monto|belob|beløb|belop|beløp|belopp|maara|kwota|castka|osszeg|tutar)(?![a-z])/,
  ],
  [
    'date',
    /(?<![a-z])(date|posting date|booking date|transaction date|post date|trans date|posted|\w*datum|buchung|buchungstag|buchungsdatum|verbucht am|verbucht|gebucht am|dato|bogfort|bokfort|bokforingsdag|bokforingsdato|kirjauspaiva|pvm|data|fecha|f\. operacion|boekdatum|transactiedatum|data operatiei|data tranzactiei|data inregistrarii|tag)(?![a-z])/,
  ],
  [
    'text',
    /(?<![a-z])(check ?(?:nbr|no|number|#)|cheque ?(?:no|number|#)|^\s*(?:checks?|cheques?|number)\s*$|description|details|particulars|narrative|narration|remarks|chq\.?(?:\s*\/?\s*ref\.?)?(?:\s*no\.?)?|ref\.?\s*no\.?|transaction|text|verwendungszweck|buchungstext|beschreibung|vorgang|umsatzart|libelle|operation|operations|nature|descrizione|causale|operazione|concepto|descripcion|movimiento|omschrijving|mededeling\w*|descriere|detalii|explicatii|tranzactie|reference|referenz|tekst|beskrivelse|beskrivning|forklaring|selite|opis|popis|tytul|historico|descricao|lancamentos?)(?![a-z])/,
  ],
];

const OPENING =
  /(opening bal(?:ance)?|previous balance|last month.?s balance|last statement balance|balance (?:from )?(?:the )?(?:last|previous|prior) statement|beginning balance|start(?:ing)? balance|balance at start|anfangssaldo|alter (?:konto)?stand|alter saldo|saldo alt|saldo iniziale|saldo di apertura|saldo inizio|solde initial|solde precedent|ancien solde|solde d'ouverture|solde au debut|saldo inicial|saldo anterior|beginsaldo|vorig saldo|oud saldo|openingssaldo|sold initial|sold precedent|sold anterior|sold la inceput|ingaende (?:saldo|balans)|inngaende saldo|primosaldo|saldo primo|alkusaldo|saldo alussa|saldo poczatkowe|saldo otwarcia|saldo na poczatek|pocatecni (?:zustatek|stav)|zustatek na zacatku)/;
const CLOSING =
  /(closing bal(?:ance)?|new balance|total amount due|total dues|balance (?:as of )?this statement|this statement.?s balance|end(?:ing)? balance|final balance|balance at end|endsaldo|neuer (?:konto)?stand|neuer saldo|saldo neu|saldo finale|saldo di chiusura|saldo fine|solde final|nouveau solde|solde de cloture|solde a la fin|saldo final|saldo actual|saldo de cierre|eindsaldo|nieuw saldo|slotsaldo|sold final|sold la sfarsit|utgaende (?:saldo|balans)|ultimosaldo|saldo ultimo|loppusaldo|saldo lopussa|saldo koncowe|saldo zamkniecia|saldo na koniec|konecny (?:zustatek|stav)|zustatek na konci)/;
/**
 * A balance carried from the page before or to the next. "Transport", "Report" and "Reporte" are such a line only at
 * its start (after a date) and with nothing after them but a few words of the carry ("Report de solde", "Transport van
 * vorige pagina"), figures and a currency: inside a booking's text, or with a merchant after them ("Transport -
 * AnyCompany Ridesharing"), they are words ("VIR SEPA RECU DE SAS TRANSPORTS DURAND").
 */
const CARRY =
  /(?<![a-z])(ubertrag|uebertrag|brought forward|carried forward|balance forward|carry forward|a reporter|riporto|a riportare|riportato|saldo precedente|suma y sigue|saldo anterior|van vorige pagina|naar volgende pagina|sold reportat|de reportat)(?![a-z])|^[\d./\s-]*(?:transport|report|reporte)(?:[^a-z]+(?:a|de|du|des|van|naar|vorige|volgende|pagina|page|solde|saldo|anterior|precedent|nouveau|nieuw|eur|chf|usd|gbp|cr|dr)(?![a-z]))*[^a-z]*$/;
const TOTAL =
  /^(total|totals|summe|summen|gesamt|umsatzsumme|totale|totali|totaal|totalen|totaux|sum|totalul|total general)(?![a-z])|^\d{4} totals? year.to.date|(?<![a-z])(total (?:debits?|credits?|movements?)|summe (?:soll|haben)|totale (?:dare|avere|uscite|entrate|addebiti|accrediti|movimenti)|total des (?:debits|credits)|totaal (?:af|bij))(?![a-z])/;

/**
 * A balance stated at a date, neither opening nor closing by its words ("Kontostand am 31.12.2025", "Saldo al
 * 31/01/2026", "Solde au 31.01.2026", "Balance as at 31 Jan 2026"): where it stands tells which it is.
 */
const BALANCE_AT =
  /^(?:[\d./-]+\s+)?(?:kontostand|saldo|solde|balance|stand|sold)\s+(?:am|per|vom|zum|au|al|a|on|as (?:at|of)|at|op|la)\s+\d/;

/**
 * Header cells of a summary box, not of a transaction table ("Payment due date", "Total credit limit", "Total
 * minimum due" on a card statement): such a row is read as the box it is.
 */
const SUMMARY_CELL = /(?<![a-z])(total|limit|due|available|minimum)(?![a-z])/;
/** A card statement (its balance is what the holder owes): the words of its summary box. */
const CARD_STATEMENT =
  /(credit limit|credit line|minimum (?:amount |payment )?due|minimum payment|payment due date|available credit|kreditrahmen|kreditlimit|mindestbetrag|limite de credit|montant minimum|pago minimo|limite de credito|importo minimo|fido|kredietlimiet|minimumbedrag|limita de credit|plata minima)/;

/** The date a statement ends on, printed alone ("Statement Ending 06/30/2023"). */
const STATEMENT_END = /(statement ending|statement closing date|period ending|statement end date)/;

/**
 * An account number after its label: a card's number masked in the middle ("4111 XXXX XXXX 1234"), digits (a letter
 * prefix allowed), or masked but for its last digits ("xxxxxx1234").
 */
const ACCOUNT_NUMBER = String.raw`\d{4}[ -]?(?:\d{4}[ -]?)?(?:[Xx*•]{2,8}[ -]?){1,3}\d{2,6}(?![\dA-Za-z])|[A-Z]{0,4}\d[\d \-/.]{3,30}\d|(?:[Xx*•]{2,12}[ -]?){1,4}\d{2,6}(?![\dA-Za-z])`;
/** A legal form after a bank's name ("Wells Fargo Bank, N.A.", "… AG", "… plc"). */
const LEGAL_FORM =
  /(?<![a-z])(n\.a\.|inc\.?|ltd\.?|plc|ag|s\.a\.|sa|gmbh|fsb|n\.v\.|b\.v\.|s\.p\.a\.|spa|eg|llc|corp\.?)$/;
/** Regulator phrases after a bank's name in a footer ("Ally Bank Member FDIC"). */
const FOOTER_TAIL = /\s*(?:,?\s*(?:member fdic|member sipc|equal housing lender|fdic insured))+\s*\.?$/i;

const IBAN = /\b([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?)\b/g;
const ACCOUNT_LABEL =
  /(account number|card number|account no|account|kontonummer|konto-nr|kontonr|konto|n° de compte|numero de compte|no de compte|compte|numero (?:di )?conto|conto|numero de cuenta|n° de cuenta|cuenta|rekeningnummer|rekening|numar (?:de )?cont|cont)\.?\s*:?\s*/;
const ACCOUNT_LABEL_ALL = new RegExp(ACCOUNT_LABEL.source, 'g');
/** An account number right after its label (a leader of dots or tildes between them). */
const NUMBER_AFTER_LABEL = new RegExp(`^[\\s:~_.…]*(${ACCOUNT_NUMBER})`);
/** An IBAN's or an account's label right before it ("IBAN DE33 …", "Rekeningnummer NL87 LLBK …"). */
const IBAN_LABEL_BEFORE = new RegExp(`(?<![a-z])(?:iban\\s*:?\\s*|${ACCOUNT_LABEL.source})$`);
const PERIOD_LABEL =
  /(period|statement period|from|zeitraum|vom|periode|periodo|du|dal|del|van|perioada|de la)(?![a-z])/;
const CURRENCY_LABEL = /(currency|wahrung|devise|monnaie|valuta|divisa|moneda|munt|valuta rekening)(?![a-z])/;
const TITLE_WORDS =
  /(statement|kontoauszug|auszug|releve|extrait|estratto|extracto|extrato|rekeningafschrift|afschrift|extras|wyciag|vypis|kontoutdrag|kontoudtog|kontoutskrift|tiliote|page|seite|pagina|pagina|blatt|strona|account holder|kontoinhaber|titulaire|intestatario|titular|rekeninghouder|titular)/;
/** A person's title in front of the addressee's name ("DHR M. JANSEN", "Pani Anna Nowak"): the holder, not the bank. */
const CIVILITY = /^(?:dhr|mevr|mr|mrs|ms|herrn?|frau|m|mme|mlle|pan|pani|sr|sra|sig|hr|fru)\.?\s/;
const BANK_WORDS =
  /(?<![a-z])(\w*bank|banca|banque|banco|bancaire|\w*sparkasse|volksbank|raiffeisen\w*|caisse|credit|kasse|building society|savings|trust|cooperative|cassa|caja|bankhaus|bancorp|financial|ing|ing-diba|diba|rabobank|abn|bnp|bcr|brd|comdirect|n26|revolut|bunq|knab|hsbc|barclays|barclaycard|lloyds|natwest|santander|bbva|caixabank|nordea|danske|handelsbanken|seb|ubs|postfinance|unicredit|intesa sanpaolo|chase|citi|citibank|wells fargo|capital one|american express|monzo|starling|wise)(?![a-z])/;
/** A bank's name in running text: one to three capitalised words before "Bank" ("AU Small Finance Bank", "HDFC Bank"). */
const BANK_PHRASE = /(?<![\p{L}\d&'.-])((?:\p{Lu}[\p{L}&'.-]*\s){1,3}Bank)(?![\p{L}])/gu;
/** The addressee's salutation and page furniture: never the bank's name. */
const NOT_BANK_NAME =
  /^(?:herrn?|frau|mr|mrs|ms|miss|monsieur|madame|mme|m|sr|sra|sig|datum|date|fecha|data|seite|page|blatt|enquiries|inquiries|contact us|customer service)\.?$/;

interface Column {
  role: Role;
  x0: number;
  x1: number;
  /** The header words over this column (folded). */
  words?: string;
}

interface Row {
  line: Line;
  date: string;
  valueDate: string | null;
  texts: string[];
  amount: number | null;
  /** Explicit direction from the column or the sign; null when the cell leaves it open. */
  type: TransactionType | null;
  balance: number | null;
  /** The direction came from a debit or credit column (not from a sign or the lack of one). */
  typeFromColumn?: boolean;
  /** The section heading the row stands under ("Payments and other credits", "New transactions"), if any. */
  section?: TransactionType | null;
  /** OCR garbled the date ("7115", "721"): the dates it can be, settled by the rows around it (settleGarbledDates). */
  dateCandidates?: string[];
  /** Without a table header: the amount cell's edges, for columns told apart by position (headerlessColumns). */
  amountCell?: { x0: number; x1: number };
  /**
   * The balance an opening or carried-forward line printed right before this row, once rows stood above it (the
   * next account of a combined statement, a sub-account's table): the balance chain starts again from it.
   */
  balanceBefore?: number;
}

/**
 * The dates an OCR-garbled short date cell can stand for, in a table of day-and-month dates without a year: the
 * separator read as a digit ("7115", "7716": 7/15, 7/16) or lost ("721": 7/21 or 7/1), letters read for digits, or
 * the month lost ("22": the 22nd of a neighbour's month, added by settleGarbledDates). Empty for anything else.
 */
export function garbledDateCandidates(cell: string, parse: (text: string) => string | null): string[] {
  const t = cell.replace(/\s+/g, '');
  if (!/^[\dlI|/]{3,5}$/.test(t) || !/\d/.test(t)) return [];
  const digits = (x: string) => x.replace(/[lI|]/g, '1');
  const variants = new Set<string>();
  for (let i = 1; i < t.length - 1; i += 1) variants.add(`${t.slice(0, i)}/${t.slice(i + 1)}`);
  for (let i = 1; i < t.length; i += 1) variants.add(`${t.slice(0, i)}/${t.slice(i)}`);
  const out = new Set<string>();
  for (const v of variants) {
    if ((v.match(/\//g) ?? []).length !== 1 || /^\/|\/$/.test(v)) continue;
    const [a, b] = v.split('/') as [string, string];
    if (a.length > 2 || b.length > 2) continue;
    const iso = parse(digits(v));
    if (iso) out.add(iso);
  }
  return [...out];
}

/**
 * Rows whose date OCR garbled take the candidate that lies between the dated rows around them (statements run in
 * date order, oldest or newest first); a bare day ("22") takes a neighbour's month. Where no candidate fits, or two
 * do, the row is dropped: an honest gap beats an invented date.
 */
function settleGarbledDates(rows: Row[]): Row[] {
  const known = (i: number, step: number): string | null => {
    for (let j = i + step; j >= 0 && j < rows.length; j += step) if (!rows[j]!.dateCandidates) return rows[j]!.date;
    return null;
  };
  return rows.filter((r, i) => {
    if (!r.dateCandidates) return true;
    const prev = known(i, -1);
    const next = known(i, 1);
    if (!prev || !next) return false;
    const [lo, hi] = prev <= next ? [prev, next] : [next, prev];
    const fit = r.dateCandidates.filter((d) => d >= lo && d <= hi);
    if (fit.length !== 1) return false;
    r.date = fit[0]!;
    r.dateCandidates = undefined;
    return true;
  });
}

/**
 * The roles named in one header cell with their character spans: close header words merge into one cell
 * ("Buchungstag Valuta"), and each gets its share of the cell's width.
 */
function rolesIn(raw: string): Array<{ role: Role; start: number; end: number }> {
  // "Belastung in EUR", "Amount (USD)", "Amount (in Rs.)": the currency qualifier names no column (its "in" is no
  // "money in"); blanked to spaces so positions still match the cell's text.
  const folded = raw.replace(
    /(?<![a-z])(?:in\s+)?\(?\s*(?:in\s+)?(?:eur|usd|gbp|chf|sek|nok|dkk|pln|czk|huf|ron|inr|rs\.?|r\$|aud|cad|nzd|sgd|hkd|zar|brl|mxn|ars|clp|cop|jpy|myr|idr|php|thb|aed|sar|try)\s*\)?(?![a-z])/g,
    (m) => ' '.repeat(m.length),
  );
  const found: Array<{ role: Role; start: number; end: number }> = [];
  // A sentence as a header ("Wir haben für Sie gebucht": we have booked for you) heads the text column, whatever money
  // word it holds inside ("Amount in account currency" starts with its money word and stays an amount).
  const words = folded.trim().split(/\s+/);
  if (words.length >= 4) {
    const text = ROLE_WORDS.find(([r]) => r === 'text')![1];
    const money = ['debit', 'credit', 'amount', 'balance'];
    const hits = ROLE_WORDS.filter(([, re]) => re.test(folded)).map(([r]) => r);
    const lead = ROLE_WORDS.filter(([, re]) => re.test(words[0]!)).map(([r]) => r);
    if (hits.length && hits.every((r) => money.includes(r)) && !lead.length && !text.test(folded))
      return [{ role: 'text', start: 0, end: folded.length }];
  }
  for (const [role, re] of ROLE_WORDS) {
    for (const m of folded.matchAll(new RegExp(re.source, 'g'))) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      found.push({ role, start, end });
    }
  }
  found.sort((a, b) => a.start - b.start);
  // "Withdrawals / Deposits", "Debit/Credit", "Paid in & out" in one cell: one column of signed amounts, not two.
  if (
    found.length === 2 &&
    new Set(found.map((f) => f.role)).size === 2 &&
    found.every((f) => f.role === 'debit' || f.role === 'credit') &&
    /^\s*(?:\/|&|and|or|und|et|e|y|en)\s*$/.test(folded.slice(found[0]!.end, found[1]!.start))
  )
    return [{ role: 'amount', start: found[0]!.start, end: found[1]!.end }];
  return found;
}

/** The role columns of a line's cells (a header's or a piece of one). */
function headerCells(line: Line, folded: string[]): Column[] {
  const cols: Column[] = [];
  line.cells.forEach((c, j) => {
    const f = folded[j]!;
    const roles = rolesIn(f);
    const per = (c.x1 - c.x0) / Math.max(f.length, 1);
    roles.forEach((r, k) => {
      const x0 = k === 0 ? c.x0 : c.x0 + per * r.start;
      const x1 = k === roles.length - 1 ? c.x1 : c.x0 + per * (roles[k + 1]!.start - 1);
      cols.push({ role: r.role, x0, x1 });
    });
  });
  return cols;
}

/** A cell that is nothing but a booking's direction: debit (group 1) or credit. */
const DIRECTION_CELL =
  /^(?:(af|d|db|dr|debit|debet|soll|s|ut|uttak|wn)|(bij|c|cr|credit|kredit|haben|h|inn|innskudd|ma))$/;

/** Header words of the date a purchase or an operation was made, as against the date it was booked. */
const PURCHASE_DATE =
  /(?<![a-z])(einkaufs-?datum|kaufdatum|belegdatum|trans(?:action)? date|date of transaction|purchase date|date operation|date de l.operation|data operazione|fecha oper(?:acion)?|transactiedatum)(?![a-z])/;

/** A header row: several role cells, among them a date and an amount, debit or credit column, and no digits. */
function headerColumns(line: Line, folded: string[]): Column[] | null {
  if (/\d{2}/.test(line.text)) return null;
  const cols: Column[] = [];
  let named = 0;
  let summary = false;
  line.cells.forEach((c, j) => {
    const f = folded[j]!;
    const roles = rolesIn(f);
    if (roles.length) named += 1;
    if (roles.length && SUMMARY_CELL.test(f)) summary = true;
    const per = (c.x1 - c.x0) / Math.max(f.length, 1);
    roles.forEach((r, k) => {
      const x0 = k === 0 ? c.x0 : c.x0 + per * r.start;
      const x1 = k === roles.length - 1 ? c.x1 : c.x0 + per * (roles[k + 1]!.start - 1);
      // The words of this column's own part of the cell (a cell may head two columns: "Einkaufs-Datum Verbucht am").
      const words = f.slice(k === 0 ? 0 : roles[k - 1]!.end, k === roles.length - 1 ? f.length : roles[k + 1]!.start);
      cols.push({ role: r.role, x0, x1, words });
    });
  });
  // Portuguese "Valor (R$)" is the amount, where Spanish "Valor" (fecha valor) is the value date: a "valor" column
  // beside no other money column is the amount ("Data | Lançamentos | Valor (R$) | Saldo (R$)").
  const money = (c: Column) => c.role === 'amount' || c.role === 'debit' || c.role === 'credit';
  if (!cols.some(money))
    for (const c of cols) if (c.role === 'value' && /^\s*valor\s*$/.test(c.words ?? '')) c.role = 'amount';
  const roles = new Set(cols.map((c) => c.role));
  if (!roles.has('date') && !roles.has('value')) return null;
  if (!roles.has('amount') && !roles.has('debit') && !roles.has('credit')) return null;
  if (cols.length < 3 || named < line.cells.length - 1 || summary) return null;
  // A lone value-date column with no booking date: the value date is then the only date there is.
  if (!roles.has('date')) for (const c of cols) if (c.role === 'value') c.role = 'date';
  // Two date columns, one of them the purchase's or the operation's own date ("Einkaufs-Datum | Verbucht am",
  // "Trans Date | Post Date"): the other is the booking date; the purchase date is kept as the row's second date.
  const dates = cols.filter((c) => c.role === 'date');
  if (dates.length >= 2) {
    const purchase = dates.filter((c) => PURCHASE_DATE.test(c.words ?? ''));
    if (purchase.length && purchase.length < dates.length) for (const c of purchase) c.role = 'value';
  }
  return cols;
}

/** The numeric column a cell sits under: the header whose edges or centre line up best with the cell's. */
function numericColumn(cols: Column[], c: Cell): Column | null {
  let best: Column | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  const cc = (c.x0 + c.x1) / 2;
  for (const col of cols) {
    if (col.role !== 'amount' && col.role !== 'debit' && col.role !== 'credit' && col.role !== 'balance') continue;
    const overlap = Math.max(0, Math.min(c.x1, col.x1) - Math.max(c.x0, col.x0));
    const d =
      Math.min(Math.abs(c.x1 - col.x1), Math.abs(c.x0 - col.x0), Math.abs(cc - (col.x0 + col.x1) / 2)) - overlap;
    if (d < bestD) {
      bestD = d;
      best = col;
    }
  }
  return best;
}

/**
 * "-171" under a "Withdrawals / Deposits" header: a statement that prints whole amounts without decimals. Only a cell
 * that stands under an amount, debit or credit column and holds nothing but a signed or grouped integer, so a check
 * or reference number in its own column stays text.
 */
function wholeUnderAmountColumn(
  c: Cell,
  cols: Column[] | null,
  size: number,
  decimals: number,
): { minor: number; type: TransactionType | null } | null {
  if (!cols) return null;
  const m = /^\s*([-+\u2212\u2013]?)\s?(\d{1,3}(?:,\d{3})+|\d{1,7})\s*(-?)\s*$/.exec(c.text);
  if (!m) return null;
  const under = cols.some(
    (col) =>
      (col.role === 'amount' || col.role === 'debit' || col.role === 'credit') &&
      c.x0 < col.x1 + size &&
      c.x1 > col.x0 - size,
  );
  if (!under) return null;
  const minor = Number(m[2]!.replace(/,/g, '')) * 10 ** decimals;
  return { minor, type: (m[1] && m[1] !== '+') || m[3] ? 'debit' : m[1] === '+' ? 'credit' : null };
}

/** The date column a cell sits under (booking or value date). */
function dateColumn(cols: Column[], c: Cell): Role {
  let best: Role = 'date';
  let bestD = Number.POSITIVE_INFINITY;
  for (const col of cols) {
    if (col.role !== 'date' && col.role !== 'value') continue;
    const d = Math.min(Math.abs(c.x0 - col.x0), Math.abs((c.x0 + c.x1) / 2 - (col.x0 + col.x1) / 2));
    if (d < bestD) {
      bestD = d;
      best = col.role;
    }
  }
  return best;
}

// "CR" and "Dr." with or without their dot ("998.00 Dr.", "26,425.24 Cr.").
const SIGN_SUFFIX = /\s*(?:(CR\.?|Cr\.?|H|C|\+)|(DR\.?|Dr\.?|S|D|-))\s*$/;

/**
 * OCR slips around an amount, undone before parsing: specks read as quotes or dots at either end ("‘270,10",
 * "1.388,88."), a stray digit before a signed amount ("1 -1.145,31"), ':' for '.' and ';' for ',' between digits, and
 * a decimal comma read as a point (or the reverse) when the groups still tell which separator is the decimal one
 * ("1,468,26": three-digit groups, then the currency's fraction digits). Text-layer amounts pass through unchanged.
 */
export function ocrAmountRepair(text: string, decimals: number, hint?: '.' | ','): string {
  // A short date ("05.03.") is no amount with a speck after it.
  if (/^\d{1,2}[./-]\d{1,2}[./-]$/.test(text.trim())) return text;
  let s = text
    .replace(/\u2212/g, '-')
    .replace(/^[\s.,'‘’"“”=~_|:;©°*]+(?=[-+(]?\d)/, '')
    .replace(/^\d\s+(?=-\d)/, '')
    .replace(/(\d)[:](?=\d)/g, '$1.')
    .replace(/(\d)[;](?=\d)/g, '$1,')
    .replace(/(\d[.,]\d{1,3})[\s.,'‘’"“”|:;°*_~]+$/, '$1');
  if (decimals > 0) {
    // Monospaced print gives the decimal point a cell of its own, which OCR reads as a gap ("7,017. 69") or as a
    // letter ("539P 10", "13% 95").
    s = s
      .replace(new RegExp(`(\\d)([.,])\\s+(\\d{${decimals}})$`), '$1$2$3')
      // A font's kerning puts the gap before the point instead ("£209 .06").
      .replace(new RegExp(`(\\d)\\s+([.,])(\\d{${decimals}})$`), '$1$2$3')
      .replace(new RegExp(`(\\d)[P%°]\\s?(\\d{${decimals}})$`), `$1${hint ?? '.'}$2`);
    const m = new RegExp(`^([-+]?)(\\d{1,3}(?:([.,])\\d{3})+)([.,])(\\d{${decimals}})(\\s*-)?$`).exec(s);
    if (m && m[3] === m[4] && !m[2]!.replace(/\d/g, '').replaceAll(m[3]!, ''))
      s = `${m[1]}${m[2]!.replace(/[.,]/g, '')}${hint ?? '.'}${m[5]}${m[6] ?? ''}`;
  }
  return s;
}

/** "14.06", "14.06." or as OCR writes it, "14.06:" (day and month), within three days of `iso`, in its month. */
export function valueDateLike(text: string, iso: string): boolean {
  const m = /^\s*(\d{1,2})[.:](\d{2})[.:;]?\s*$/.exec(text);
  if (!m) return false;
  return Number(m[2]) === Number(iso.slice(5, 7)) && Math.abs(Number(m[1]) - Number(iso.slice(8, 10))) <= 3;
}

/** A cell holding an amount (and maybe a currency and a direction mark), as signed minor units; null otherwise. */
export function amountCell(
  text: string,
  decimals: number,
  hint: '.' | ',' | undefined,
): { minor: number; type: TransactionType | null } | null {
  // A lone "(" after the figure ("1,130.00 (") is a symbol font's mark of the debit column, not a bracket.
  let s = ocrAmountRepair(
    text
      .replace(/[€£$]|(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])|\blei\b/g, ' ')
      .replace(/(\d)\s+\($/, '$1')
      .trim(),
    decimals,
  );
  let mark: TransactionType | null = null;
  const suffix = SIGN_SUFFIX.exec(s);
  if (suffix && /\d/.test(s.slice(0, suffix.index))) {
    mark = suffix[1] ? 'credit' : 'debit';
    s = s.slice(0, suffix.index).trim();
  }
  if (/^\+/.test(s)) {
    mark = 'credit';
    s = s.slice(1).trim();
  }
  if (!/\d[.,]\d{1,3}\)?$/.test(s) && decimals > 0) return null;
  const p = parseAmount(s, decimals, hint);
  if (!p) return null;
  if (p.negative) mark = 'debit';
  return { minor: Math.abs(p.minor), type: mark };
}

/** A date at the start of a cell: full dates through extraction's parser, "05.03." with the year of the period. */
function leadingDate(
  text: string,
  order: DayOrder,
  yearOf: (m: number) => number | null,
): { iso: string; rest: string } | null {
  // OCR: specks before the date ("- 03/07/2023", "‘30/12/2023") and ':' read for the date's own separator.
  // Some print spaces around the separators ("23 / 06 / 2025").
  text = text
    .replace(/^[\s.,'‘’"“”=~_|:;©°*-]{1,3}(?=\d)/, '')
    .replace(/^(\s*\d{1,2})[:;,](\d{1,2})([-./])(\d{2,4})/, '$1$3$2$3$4')
    .replace(/^(\s*\d{1,2}) ([/.-]) (\d{1,2}) \2 (\d{2,4})(?!\d)/, '$1$2$3$2$4');
  let d = findDates(text, order)[0];
  if (!(d && d.index <= 1)) {
    // Letters OCR reads for digits inside the date ("O6/12/2O23", "l5.03.2024"): only where that leaves a real date.
    const digits = text.replace(
      /^\s*[\dOoQDlI|SZB]{1,2}[./-][\dOoQDlI|SZB]{1,2}[./-][\dOoQDlI|SZB]{2,4}(?=\s|$)/,
      (m) =>
        m
          .replace(/[OoQD]/g, '0')
          .replace(/[lI|]/g, '1')
          .replace(/S/g, '5')
          .replace(/Z/g, '2')
          .replace(/B/g, '8'),
    );
    const again = digits !== text ? findDates(digits, order)[0] : undefined;
    if (again && again.index <= 1) {
      text = digits;
      d = again;
    }
  }
  if (!(d && d.index <= 1)) {
    // Both slashes read as '1', '7' or 'l' ("2171172022"): only where that leaves a real date.
    const slashes = text.replace(/^(\s*\d{2})[17lI|](\d{2})[17lI|](\d{4})(?=\s|$)/, '$1/$2/$3');
    if (slashes !== text) {
      const again = findDates(slashes, order)[0];
      if (again && again.index <= 1) {
        text = slashes;
        d = again;
      }
    }
  }
  if (d && d.index <= 1) return { iso: d.iso, rest: text.slice(d.index + d.length) };
  // "05.03." in Europe, "3/5" or "02-01" in the US: the document's day order decides. Month first only with a slash
  // or a dash: "3.14" in a US statement is an amount.
  const short = (
    order === 'mdy' ? /^\s*(\d{1,2})[/-](\d{1,2})(?=\s|$)/ : /^\s*(\d{1,2})[./-](\d{1,2})\.?(?=\s|$)/
  ).exec(text);
  // "01 Jan", "15 mar", "15-Mar", "02/ENE" (Mexico), "Jan 15": a month word without the year, which the period gives.
  const named =
    /^\s*(\d{1,2})(?:\.?\s+|[/-])([A-Za-zÀ-ÿ]{3,10})\.?(?=\s|$)/.exec(text) ??
    /^\s*([A-Za-zÀ-ÿ]{3,10})\.?\s+(\d{1,2})(?=\s|$|,)/.exec(text);
  if (!short && named) {
    const dayFirst = /^\s*\d/.test(named[0]);
    const month = monthNumber(dayFirst ? named[2]! : named[1]!);
    const day = Number(dayFirst ? named[1] : named[2]);
    const year = month ? yearOf(month) : null;
    if (month && year && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate())
      return {
        iso: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
        rest: text.slice(named[0].length),
      };
  }
  if (short) {
    const [a, b] = [Number(short[1]), Number(short[2])];
    const [day, month] = order === 'mdy' ? [b, a] : [a, b];
    const year = yearOf(month);
    if (year && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()) {
      return {
        iso: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
        rest: text.slice(short[0].length),
      };
    }
  }
  return null;
}

const AMOUNT_TEXT =
  /[-−+]?\(?\d[\d .,'’\u00a0\u202f]*[.,]\d{1,3}\)?(?:\s*(?:[A-Z]{3}|[€£$]|lei))?(?:\s*(?:CR\.?|DR\.?|Cr\.?|Dr\.?|S|H|-))?(?=\s|$)/g;

/** The first amount after a label on a line ("Opening balance: 1.234,56 EUR" in one cell, or in a cell to its right). */
/** An amount cell's value with its sign: debits negative. */
const signed = (a: { minor: number; type: TransactionType | null }) => (a.type === 'debit' ? -a.minor : a.minor);

function labelledAmount(line: Line, label: RegExp, decimals: number, hint: '.' | ',' | undefined): number | null {
  const at = line.cells.findIndex((c) => label.test(foldAligned(c.text)));
  const after = amountAfterLabel(line, at, label, decimals, hint);
  if (after !== null || at < 0) return after;
  // "468,80 SALDO INIZIALE": the amount stands before its label, in the label's cell or the cell before it.
  const m = label.exec(foldAligned(line.cells[at]!.text));
  const before = line.cells[at]!.text.slice(0, m?.index ?? 0).trim();
  const tail = before ? /\S+$/.exec(before)?.[0] : line.cells[at - 1]?.text;
  const a = tail ? amountCell(tail, decimals, hint) : null;
  return a ? signed(a) : null;
}

function amountAfterLabel(
  line: Line,
  at: number,
  label: RegExp,
  decimals: number,
  hint: '.' | ',' | undefined,
): number | null {
  for (let j = Math.max(at, 0); j < line.cells.length; j += 1) {
    const c = line.cells[j]!;
    let text = c.text;
    if (j === at) {
      const m = label.exec(foldAligned(text));
      text = m ? text.slice(m.index + m[0].length) : text;
    }
    const whole = amountCell(text.replace(/^[\s:]+/, ''), decimals, hint);
    if (whole) return signed(whole);
    for (const m of text.matchAll(AMOUNT_TEXT)) {
      const a = amountCell(m[0], decimals, hint);
      if (a) return signed(a);
    }
  }
  return null;
}

/**
 * The amount under a label cell of a header row: on the next line, in the cells from the label's column up to the
 * next label's ("Auszug | Seite | IBAN | Alter Kontostand" over "001 | 1/2 | DE31… | EUR | + 2.853,82").
 */
function amountBelowLabel(
  lines: Line[],
  i: number,
  label: RegExp,
  decimals: number,
  hint: '.' | ',' | undefined,
): number | null {
  const line = lines[i]!;
  const next = lines[i + 1];
  if (!next || next.page !== line.page || next.y0 - line.y1 > 2.5 * line.size) return null;
  const folded = line.cells.map((c) => foldAligned(c.text));
  const at = folded.findIndex((f) => label.test(f));
  if (at < 0) return null;
  // The label must be all its cell says ("Neuer Kontostand"), not a sentence that mentions a balance.
  const m = label.exec(folded[at]!);
  if (!m) return null;
  // Its date may stand with it ("Beginsaldo 01-02-2025", "Opening balance on 1 Feb").
  const rest = folded[at]!.replace(m[0], '').replace(
    /\d{1,4}[./-]\d{1,2}(?:[./-]\d{2,4})?|\b(?:on|per|au|al|am|op|as of|du|del|vom)\b/g,
    '',
  );
  if (rest.replace(/[\s:]/g, '').length > 4) return null;
  // A figure of its own beside the label, however misprinted ("Opening Balance | £209 .06"): the next line's figure
  // is another label's.
  if (/^\s*[-+(]?[€£$]?\s?\d[\d.,' ]*\)?\s*$/.test(line.cells[at + 1]?.text ?? '')) return null;
  const from = line.cells[at]!.x0 - line.size;
  const to = line.cells[at + 1]?.x0 ?? Number.POSITIVE_INFINITY;
  for (const c of next.cells) {
    if (c.x0 < from || c.x0 >= to) continue;
    const a = amountCell(c.text, decimals, hint);
    if (a) return signed(a);
  }
  return null;
}

/**
 * Balances in a summary box whose column labels wrap: two or three lines of words, no figures, then the row of values
 * under them. Each column's label parts are read as one ("balance" + "last statement") and its value is the amount in
 * the row below that overlaps the column. A label beside the columns may sit on a line of its own between them
 * ("Total Dues", printed half a line lower than "Opening" over "Balance").
 */
export function stackedBalances(
  lines: Line[],
  decimals: number,
  hint: '.' | ',' | undefined,
): { opening: number | null; closing: number | null } {
  const out: { opening: number | null; closing: number | null } = { opening: null, closing: null };
  for (let i = 0; i + 2 < lines.length; i += 1) {
    const top = lines[i]!;
    if (/\d/.test(top.text) || top.cells.length < 2) continue;
    const labels: Line[] = [];
    let k = i + 1;
    for (; k < lines.length && labels.length < 3; k += 1) {
      const l = lines[k]!;
      const prev = labels.at(-1) ?? top;
      if (l.page !== top.page || /\d/.test(l.text) || l.y0 - prev.y1 > 1.2 * top.size) break;
      labels.push(l);
    }
    const values = lines[k];
    const lastLabel = labels.at(-1);
    if (!values || !lastLabel || values.page !== top.page || values.y0 - lastLabel.y1 > 2.5 * top.size) continue;
    const columns = top.cells.map((c) => {
      const parts = labels.flatMap((u) => u.cells).filter((u) => u.x0 < c.x1 + top.size && u.x1 > c.x0 - top.size);
      const x0 = Math.min(c.x0, ...parts.map((p) => p.x0));
      const x1 = Math.max(c.x1, ...parts.map((p) => p.x1));
      return { x0, x1, label: foldAligned([c.text, ...parts.map((p) => p.text)].join(' ')) };
    });
    for (const col of columns) {
      const kind =
        OPENING.test(col.label) && !CLOSING.test(col.label) ? 'opening' : CLOSING.test(col.label) ? 'closing' : null;
      if (!kind || out[kind] !== null) continue;
      const cell = values.cells.find((v) => v.x0 < col.x1 + top.size && v.x1 > col.x0 - top.size);
      const a = cell ? amountCell(cell.text, decimals, hint) : null;
      if (a) out[kind] = signed(a);
    }
  }
  return out;
}

/** The last amount on a line (a carried-over balance), signed. */
function lineAmount(line: Line, decimals: number, hint: '.' | ',' | undefined): number | null {
  for (let j = line.cells.length - 1; j >= 0; j -= 1) {
    const a = amountCell(line.cells[j]!.text, decimals, hint);
    if (a) return signed(a);
  }
  return null;
}

interface HeaderInfo {
  bankName: string | null;
  accountNumber: string | null;
  startDate: string | null;
  endDate: string | null;
  currency: string | null;
}

/** The currency of an account in each IBAN country with one currency of its own. */
const IBAN_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(
    'AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK MC SM AD'.split(' ').map((c) => [c, 'EUR']),
  ),
  GB: 'GBP',
  CH: 'CHF',
  LI: 'CHF',
  PL: 'PLN',
  CZ: 'CZK',
  SE: 'SEK',
  DK: 'DKK',
  NO: 'NOK',
  HU: 'HUF',
  RO: 'RON',
  BG: 'BGN',
  IS: 'ISK',
  TR: 'TRY',
};

/** A figure grouped the Indian way: thousands, then lakhs and crores in pairs of digits ("5,20,000.00"). */
const LAKH = /(?<![\d,.])\d{1,2},(?:\d{2},)+\d{3}(?:\.\d{2})?(?![\d,])/;

/** A line about a conversion ("USD 45.00 @ 1.0832", "Kurs 1,0832", "exchange rate"): its currency is not the account's. */
const FX_LINE =
  /@|(?<![a-z])(?:rate|exchange|fx|kurs|umrechnung\w*|wechselkurs|taux|change|cambio|tipo de cambio|wisselkoers|koers|kurs walut\w*|vaxelkurs|valuuttakurssi|kurz)(?![a-z])/;

/**
 * The account's currency where no label names it: the one printed with the opening or closing balance, else the one
 * on the most lines, leaving out the lines of card payments abroad ("USD 45.00 @ 1.0832"), which name other
 * currencies as often as a month has trips.
 */
function statementCurrency(doc: Doc): string | null {
  const lines = doc.lines.map((l, i) => ({ l, f: doc.folded[i]!.join(' ') }));
  for (const label of [OPENING, CLOSING]) {
    for (const { l, f } of lines) {
      if (!label.test(f) || FX_LINE.test(f)) continue;
      const withAmount = findAmounts(l.text).find((a) => a.currency);
      if (withAmount?.currency) return withAmount.currency;
    }
  }
  const counts = new Map<string, number>();
  for (const { l, f } of lines) {
    if (FX_LINE.test(f)) continue;
    for (const c of new Set(findCurrencies(l.text))) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** A line that starts like a booking: a date first ("03 Feb", "JUL 15", "05.08.2024", "23 / 06 / 2025", "2024-10-01"). */
const DATED_START = /^\s*(?:\d{1,2} ?[./-] ?\d{1,2}|\d{4}-\d{2}|\p{L}{3,4}\.? \d{1,2}\b|\d{1,2}\.? \p{L}{3,4}\b)/u;

/** The lines above and below each page's rows of bookings (letterhead, summary, footer), not those between them. */
function outsideRows(doc: Doc): Line[] {
  const span = new Map<number, { from: number; to: number }>();
  for (const l of doc.lines) {
    if (!DATED_START.test(l.cells[0]!.text)) continue;
    const s = span.get(l.page);
    span.set(l.page, { from: Math.min(s?.from ?? l.y0, l.y0), to: Math.max(s?.to ?? l.y1, l.y1) });
  }
  return doc.lines.filter((l) => {
    const s = span.get(l.page);
    return !s || l.y1 < s.from || l.y0 > s.to;
  });
}

function readHeader(doc: Doc, before: number): HeaderInfo {
  const head = doc.lines.slice(0, Math.max(before, 0)).filter((l) => l.page === 1);
  const info: HeaderInfo = { bankName: null, accountNumber: null, startDate: null, endDate: null, currency: null };
  // Account: a valid IBAN above the table, else an IBAN-shaped number right after its label though its check digits
  // fail (a made-up or mistyped one, as printed), else the number after an account label.
  const ibans = head.flatMap((l) =>
    [...l.text.matchAll(IBAN)].map((m) => ({
      iban: m[1]!.replace(/ /g, ''),
      labelled: IBAN_LABEL_BEFORE.test(foldAligned(l.text.slice(0, m.index))),
    })),
  );
  info.accountNumber = (ibans.find((x) => ibanValid(x.iban)) ?? ibans.find((x) => x.labelled))?.iban ?? null;
  if (!info.accountNumber) {
    for (const l of head) {
      const f = foldAligned(l.text);
      // The last label of the line: "MULTIPLIER ESAVINGS ACCOUNT Account No. 190-884111-5" names the product first.
      const m = [...f.matchAll(ACCOUNT_LABEL_ALL)]
        .reverse()
        .find((x) => NUMBER_AFTER_LABEL.test(l.text.slice(x.index + x[0].length)));
      if (!m) continue;
      // The branch before the account ("BSB 065-934 7724 6761", "Sort code 40-80-92 45092395") is not part of it.
      const rest = l.text
        .slice(m.index + m[0].length)
        .replace(/^[\s:]*(?:BSB|sort code)\s*:?\s*\d{2,3}-\d{2,3}(?:-\d{2})?\s+/i, '');
      // A leader the scan made of the label's dotted line ("Account number: ~~ 01234 567-890-1") is skipped.
      const num = NUMBER_AFTER_LABEL.exec(rest);
      if (num) {
        info.accountNumber = num[1]!.replace(/[\s]/g, '');
        break;
      }
    }
  }
  if (!info.accountNumber) {
    // The number under its label, in the label's column on the next line ("Card number" over "5488-2926-…"), anywhere
    // in the document (a payment slip on the last page).
    doc.lines.forEach((l, i) => {
      if (info.accountNumber) return;
      // Or after its label on one line of a later page ("for Account Number: 0176622896" on page 2).
      const lm = ACCOUNT_LABEL.exec(doc.folded[i]!.join(' '));
      const same = lm && new RegExp(`^[\\s:]*(${ACCOUNT_NUMBER})`).exec(l.text.slice(lm.index + lm[0].length));
      if (same && /\d{4}/.test(same[1]!.replace(/\D/g, ''))) {
        info.accountNumber = same[1]!.replace(/\s/g, '');
        return;
      }
      for (const c of l.cells) {
        const f = foldAligned(c.text).trim();
        const m = ACCOUNT_LABEL.exec(f);
        if (m?.index !== 0) continue;
        // A label cell that runs on into the next column's label ("Account Number Sheet Number"): only the value set
        // flush under its start is its own.
        const runsOn = m[0].length < f.length;
        if (
          runsOn &&
          !/^(?:number|no\.?|nr\.?|num)?\s*(?:sheet|page|statement|branch|sort\s?code|iban|bic)\b/.test(
            f.slice(m[0].length),
          )
        )
          continue;
        // The first of the next lines (a label may take two) with a cell under it.
        for (const next of doc.lines.slice(i + 1, i + 3)) {
          if (next.page !== l.page || next.y0 - l.y1 > 4 * l.size) break;
          const under = next.cells.find(
            (n) => n.x0 < c.x1 && n.x1 > c.x0 && (!runsOn || Math.abs(n.x0 - c.x0) < 1.5 * l.size),
          );
          const num = under && new RegExp(`^\\s*(${ACCOUNT_NUMBER})\\s*$`).exec(under.text);
          if (num) {
            info.accountNumber = num[1]!.replace(/\s/g, '');
            return;
          }
        }
      }
    });
  }
  // Period: the first line above the table with two dates in order, preferring one with a period label.
  // Not a statement date and a payment due date side by side (a card statement's summary box, labels above them).
  const DUE = /(?<![a-z])(due|payment|falligkeit|echeance|vencimiento|scadenza|vervaldatum|scadenta)(?![a-z])/;
  const periodLines = head
    .map((l, k) => ({ l, k, dates: findDates(l.text, doc.dayOrder) }))
    .filter((x) => x.dates.length === 2 && x.dates[0]!.iso <= x.dates[1]!.iso)
    .filter((x) => !DUE.test(foldAligned(x.l.text)) && !DUE.test(foldAligned(head[x.k - 1]?.text ?? '')));
  // Without a period label, a line with an amount is a booking (its booking and value dates), not the period: a
  // table without a header leaves every row in the head.
  const labelled = (l: Line) => PERIOD_LABEL.test(foldAligned(l.text));
  const period =
    periodLines.find((x) => labelled(x.l)) ??
    periodLines.find((x) => !x.l.cells.some((c) => amountCell(c.text, 2, doc.decimalHint)));
  if (period) {
    info.startDate = period.dates[0]!.iso;
    info.endDate = period.dates[1]!.iso;
  } else {
    // "Statement Period February 1 – April 30, 2022", "vom 01.02. bis 30.04.2022": the first date takes the second's
    // year (the year before, where its month comes later).
    // Unlabelled, a cell that is the period and nothing else ("11 April to 10 May 2025" under the holder's address).
    const periodCell = (l: Line) =>
      l.cells
        .map((c) => {
          const dates = findDates(c.text, doc.dayOrder);
          const alone =
            dates.length === 1 &&
            dates[0]!.index + dates[0]!.length >= c.text.trim().length - 1 &&
            /^\s*(?:\p{L}{3,10}\.?\s+\d{1,2}|\d{1,2}\.?\s+\p{L}{3,10}|\d{1,2}[./]\d{1,2})/u.test(c.text);
          return alone ? yearlessPeriod(c.text, doc.dayOrder) : null;
        })
        .find((x) => x);
    for (const l of head) {
      const found = labelled(l) ? yearlessPeriod(l.text, doc.dayOrder) : periodCell(l);
      if (found) {
        info.startDate = found.start;
        info.endDate = found.end;
        break;
      }
    }
  }
  // Currency: a labelled code, else the most frequent currency in the document.
  for (const l of head) {
    const f = foldAligned(l.text);
    if (!CURRENCY_LABEL.test(f)) continue;
    const code = findCurrencies(l.text.slice(CURRENCY_LABEL.exec(f)!.index))[0];
    if (code) {
      info.currency = code;
      break;
    }
  }
  if (!info.currency) info.currency = statementCurrency(doc);
  // Nothing printed names it: an IBAN's country does, where one currency is the country's own.
  if (!info.currency && info.accountNumber && /^[A-Z]{2}\d{2}/.test(info.accountNumber))
    info.currency = IBAN_CURRENCY[info.accountNumber.slice(0, 2)] ?? null;
  // Figures grouped in lakhs ("5,20,000.00", "1,04,000.00") are India's rupees, whose sign a font may not map to text.
  if (!info.currency && doc.lines.filter((l) => LAKH.test(l.text)).length >= 2) info.currency = 'INR';
  // A bare "$" is the dollar of the country the statement names (its bank's or its holder's address).
  // Read outside the transaction rows only: a card payment abroad ("Card xx1208 USD 144.79") says nothing.
  if (info.currency === 'USD') {
    const text = outsideRows(doc)
      .map((l) => l.text)
      .join('\n');
    info.currency = otherDollar(text, foldAligned(text), true) ?? 'USD';
  }
  // The holder's mailing block: a name over a street or a postcode and town, in the same column. Without a bank word
  // that name is the account holder's ("CHREIM ELENA DE TULLIO VITO" over "VIA GARIGLIANO 2"), printed again at the
  // top of every page of some statements, never the bank's.
  const STREET =
    /(?<![\p{L}])(?:via|viale|piazza|corso|strasse|straße|str\.|rue|avenue|av\.|road|rd\.?|street|st\.|lane|calle|rua|weg|laan|straat|ulica|ul\.)(?![\p{L}])|[\p{L}](?:straße|strasse|str\.|weg|gasse|allee|platz)\s*\d|^\d{4,5}\s+\p{L}{2}/iu;
  const addressees = new Set<string>();
  doc.lines.forEach((l, i) => {
    if (l.page !== 1) return;
    const next = doc.lines[i + 1];
    if (!next || next.page !== 1 || next.y0 - l.y1 > 1.5 * l.size) return;
    for (const c of l.cells) {
      const under = next.cells.find((n) => Math.abs(n.x0 - c.x0) < 1.5 * l.size);
      if (under && STREET.test(under.text.trim()) && !/\d/.test(c.text)) addressees.add(foldAligned(c.text).trim());
    }
  });
  // Bank name: a cell in the top of page 1 that is a name (no digits, no label, not the title), bank words first,
  // then the largest type, then the topmost.
  const candidates: Array<{ text: string; score: number }> = [];
  const consider = (raw: string, l: Line, bonus: number) => {
    // A letter's return-address line ("ING-DiBa AG · 60628 Frankfurt am Main", "Postbank Hamburg 22283 Hamburg"): the
    // name before the separator or the postcode.
    // A post-office box ("P.O. BOX 6011 STATION A") or a city with its state or province ("TORONTO, ON") is address.
    if (/^(?:p\.?\s?o\.?\s*)?box\s+\d/i.test(raw.trim()) || /^[\p{Lu} .'-]+,\s*[A-Z]{2}$/u.test(raw.trim())) return;
    // A website's name as printed ("BankStatements.net"), whatever its ending.
    if (
      /(?<![\p{L}.])\p{L}[\p{L}\d-]+\.(?:com|net|org|info|biz|[a-z]{2})(?![\p{L}\d])/iu.test(raw) &&
      !/\s\S/.test(raw.replace(/^\W+\s*/, '').trim())
    )
      return;
    let text = raw
      .split(/\s+[·|•]\s+/)[0]!
      .replace(/\s*,?\s+(?:D-|F-|A-|CH-)?\d{4,5}\s+\p{L}.*$/u, '')
      .replace(/,\s+[^,]*\d.*$/u, '')
      .trim();
    // The bank's name and the document's title in one heading ("Bank Nadwiślański S.A. Wyciąg z rachunku nr 9/2025").
    const title = TITLE_WORDS.exec(foldAligned(text));
    if (
      title &&
      title.index > 0 &&
      /\s/.test(text[title.index - 1] ?? '') &&
      BANK_WORDS.test(foldAligned(text.slice(0, title.index)))
    )
      text = text.slice(0, title.index).trim();
    // A logo's monogram printed before the name ("W Bank Wislanski"): a lone capital that is one of the name's initials.
    const monogram = /^(\p{Lu})\s+(\S.*)$/u.exec(text.trim());
    if (
      monogram &&
      BANK_WORDS.test(foldAligned(monogram[2]!)) &&
      monogram[2]!.split(/\s+/).some((w) => w.startsWith(monogram[1]!))
    )
      text = monogram[2]!;
    const f = foldAligned(text);
    if (CIVILITY.test(f.trim())) return;
    // The middle of a sentence wrapped onto this line ("to The Manager, HDFC Bank Cards Division, …").
    if (/^(?:to|the|of|and|or|for|by|with|at|in|on|from|please|our|your|via)\s/.test(text.trim())) return;
    if (NOT_BANK_NAME.test(f.trim())) return;
    // A postal endorsement over the address ("RETURN SERVICE REQUESTED"), or the account's product name ("Streamline
    // Account", "Visa Credit Card", "Primary Checking") where no bank word is in it.
    if (/service requested/.test(f)) return;
    if (
      /(?<![a-z])(?:accounts?|cards?|checking|chequing|savings|konto|girokonto|compte|conto|cuenta)$/.test(f.trim()) &&
      !/\w*bank(?![a-z])|banque|banca|banco|sparkasse/.test(f)
    )
      return;
    // A field's label ("Credit Card Number", "Payment Due Date", "Credit Limit"), not a name, whatever words it holds.
    if (
      /(?<![a-z])(?:number|no\.?|nr\.?|date|datum|period|summary|limit|balance|amount|details|name|credits|debits|purchases|payments|charges|fees)\s*:?$/.test(
        f.trim(),
      )
    )
      return;
    if (/\d|[:@?]/.test(text) || text.length < 2 || TITLE_WORDS.test(f) || !/\p{L}{2}/u.test(text)) return;
    if (/www\.|\.com|\.de|http/.test(f) || SUMMARY_CELL.test(f)) return;
    const bank = BANK_WORDS.test(f);
    if (!bank && addressees.has(f.trim())) return;
    // A balance's label ("SALDO INIZIALE") is no name either.
    if (OPENING.test(f) || CLOSING.test(f) || CARRY.test(f)) return;
    // A currency's name or code alone ("EURO" over the account number) names no bank.
    if (!text.trim().includes(' ') && findCurrencies(text).length) return;
    // The bank word alone ("Bank", "# Bank") names no bank.
    if (/^(?:bank|banque|banca|banco|bankhaus)$/.test(f.replace(/[^\p{L}\s]/gu, '').trim())) return;
    const score = (bank ? 100 : 0) + (bank && LEGAL_FORM.test(f.trim()) ? 50 : 0) + l.size * 2 - l.rel * 10 + bonus;
    candidates.push({ text: text.trim(), score });
  };
  for (const l of doc.lines) {
    if (l.page !== 1) continue;
    for (const c of l.cells) {
      if (l.rel <= 0.3 && l.index < Math.max(before, 0)) consider(c.text, l, 0);
      // The bank's website in the letterhead ("www.hsbc.co.uk"): its name where no cell names the bank, below any
      // name with a bank word.
      const site = /(?:\bwww\.|https?:\/\/)([\p{L}\d-]+(?:\.[\p{L}\d-]+)+)/u.exec(c.text);
      const brand = site && l.rel <= 0.3 ? mailDomainName(`x@${site[1]}`) : null;
      if (brand && brand.length >= 2)
        candidates.push({
          text: brand.length <= 4 ? brand.toUpperCase() : brand[0]!.toUpperCase() + brand.slice(1),
          score: 60 - l.rel * 10,
        });
      // A bare domain with the bank word in it, as printed ("HowardBank.com" → "Howard Bank").
      const bare =
        !site && l.rel <= 0.3 ? /(?<![\w.@/-])([A-Z][a-z]+)(Bank)\.(?:com|net|[a-z]{2})(?![\w.])/.exec(c.text) : null;
      if (bare) candidates.push({ text: `${bare[1]} ${bare[2]}`, score: 60 - l.rel * 10 });
      // The bank's postal address ("Write: Wells Fargo Bank, N.A. (163)"), its branch code dropped.
      const address = /^(?:write|mail to|write to|send to|postal address)\s*:\s*(.+?)(?:\s*\(\d+\))?$/i.exec(
        c.text.trim(),
      );
      if (address && l.rel <= 0.5) consider(address[1]!, l, 0);
      // A footer naming the bank ("Ally Bank Member FDIC"): below any name at the top.
      if (l.rel >= 0.9 && FOOTER_TAIL.test(c.text)) consider(c.text.replace(FOOTER_TAIL, ''), l, -40);
    }
  }
  // The bank named only in the legal footer ("Polderbank N.V., statutair gevestigd te Amsterdam, …"): the head of a
  // footer line with a bank word and a legal form, on any page, below any bank named at the top.
  for (const l of doc.lines) {
    if (l.rel < 0.85) continue;
    const head = l.cells[0]!.text.split(/,\s+|\s+[·|•–-]\s+/)[0]!.trim();
    const f = foldAligned(head);
    if (head.split(/\s+/).length <= 6 && BANK_WORDS.test(f) && LEGAL_FORM.test(f.trim())) consider(head, l, -40);
  }
  // The name the bank's own text repeats ("AU Small Finance Bank reserves the right …", "HDFC Bank Cards Division"):
  // capitalised words ending in "Bank", printed at least twice anywhere; below a bank named at the top, above names
  // without a bank word.
  const phrases = new Map<string, number>();
  for (const l of doc.lines)
    for (const m of l.text.matchAll(BANK_PHRASE)) {
      if (
        /^(?:the|your|our|net|mobile|internet|phone|online|reserve|central|national|federal|world|partner)$/i.test(
          m[1]!.split(/\s+/)[0]!,
        )
      )
        continue;
      phrases.set(m[1]!, (phrases.get(m[1]!) ?? 0) + 1);
    }
  for (const [text, n] of phrases) if (n >= 2) candidates.push({ text, score: 90 + Math.min(n, 9) });
  candidates.sort((a, b) => b.score - a.score);
  info.bankName = candidates[0]?.text ?? null;
  return info;
}

const LOOSE_DATE = /^[^\p{L}\d]{0,3}[\dOoQDlI|SZB]{1,2}[./:-][\dOoQDlI|SZB]{1,2}[./:-][\dOoQDlI|SZB]{2,4}(?![\p{L}])/u;
const LOOSE_AMOUNT = /^[^\p{L}\d]{0,3}\d[\d.,' ]*[.,:;]\d{2}[^\p{L}\d]{0,3}$/u;

/**
 * A skewed scan can cut one table row into two lines: the date and text on one, the amounts a little lower or
 * higher on the next. A dated line without amounts next to an undated line of amounts only, less than a line
 * height apart, is one row again.
 */
function joinSplitRows(lines: Line[]): Line[] {
  const out: Line[] = [];
  const amountsOnly = (l: Line) =>
    !LOOSE_DATE.test(l.cells[0]!.text) &&
    l.cells.some((c) => LOOSE_AMOUNT.test(c.text)) &&
    l.cells.every((c) => LOOSE_AMOUNT.test(c.text) || c.text.trim().length <= 2);
  const datedNoAmount = (l: Line) =>
    LOOSE_DATE.test(l.cells[0]!.text) && !l.cells.slice(1).some((c) => LOOSE_AMOUNT.test(c.text));
  for (let i = 0; i < lines.length; i += 1) {
    const a = lines[i]!;
    const b = lines[i + 1];
    const close = b && b.page === a.page && Math.abs(b.y0 - a.y0) < 0.9 * Math.max(a.size, b.size);
    if (b && close && ((datedNoAmount(a) && amountsOnly(b)) || (amountsOnly(a) && datedNoAmount(b)))) {
      const cells = [...a.cells, ...b.cells].sort((x, y) => x.x0 - y.x0);
      out.push({
        ...a,
        y0: Math.min(a.y0, b.y0),
        y1: Math.max(a.y1, b.y1),
        cells,
        text: cells.map((c) => c.text).join(' '),
      });
      i += 1;
    } else out.push(a);
  }
  return out.map((l, index) => ({ ...l, index }));
}

/**
 * A card statement's sections: what pays the card and comes back on it, and what is charged to it ("Payments" are
 * credits here, debits on a bank statement).
 */
const CARD_CREDIT_SECTION =
  /^(?:payments?(?:,? (?:and|&) (?:other )?credits?)?|(?:other )?credits?|refunds?(?: (?:and|&) credits)?)$/;
const CARD_DEBIT_SECTION =
  /^(?:new )?(?:transactions|purchases?|charges|activity)(?:,? (?:and|&) (?:adjustments|other charges|other debits))?$|^(?:fees|interest) charged$|^(?:cash advances?|balance transfers?)$/;

const DEBIT_SECTION =
  /^(?:electronic |other |atm |card |pos |ach )?(?:debits?|withdrawals?|checks?(?: paid| cleared)?|payments?|fees|charges|purchases|lastschriften|belastungen|abbuchungen|ausgange|sorties|retraits|prelevements|addebiti|uscite|cargos|adeudos|afschrijvingen|debitari|plati)(?: (?:and|&) (?:other )?(?:debits|subtractions|withdrawals|fees))?$/;
const CREDIT_SECTION =
  /^(?:electronic |other |ach )?(?:credits?|deposits?|additions|gutschriften|eingange|versements|entrees|accrediti|entrate|abonos|ingresos|bijschrijvingen|creditari|incasari)(?: (?:and|&) (?:other )?(?:credits|additions|deposits))?$/;

/**
 * A list of what the transaction history already holds ("Summary of checks written (checks listed are also displayed
 * in the preceding Transaction history)"): nothing under it is a booking of its own.
 */
const REPEATED_SECTION = /^summary of checks|(?<![a-z])(?:also (?:displayed|shown|listed|included) in)(?![a-z])/;

/** A table of day-end balances ("Daily Balances"): its dated amounts are no transactions. */
const BALANCE_SECTION =
  /^(?:daily|ending daily|daily ending) balances?(?: summary)?$|^(?:account |daily )?balance summary$|^tagessalden$|^soldes quotidiens$|^saldi giornalieri$|^saldos diarios$|^dagsaldi$/;

/**
 * Side-by-side tables ("Check Nbr | Date | Amount | Check Nbr | Date | Amount", daily balances in three columns): a
 * header whose roles repeat splits it and the dated lines under it into one line per group, each shifted under the
 * first group's columns, so the rest reads them as ordinary rows.
 */
function splitRepeatedTables(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const hdr = headerColumns(
      line,
      line.cells.map((c) => foldAligned(c.text)),
    );
    const roles = hdr?.map((c) => c.role) ?? [];
    const k = [2, 3, 4].find(
      (n) => roles.length % n === 0 && roles.length >= 2 * n && roles.every((r, j) => r === roles[j % n]),
    );
    if (!hdr || !k) {
      out.push(line);
      continue;
    }
    // Group g starts halfway between the previous group's last column and its own first one.
    const starts = [Number.NEGATIVE_INFINITY];
    for (let g = 1; g < roles.length / k; g += 1) starts.push((hdr[g * k - 1]!.x1 + hdr[g * k]!.x0) / 2);
    const groupOf = (c: Cell) => starts.filter((x) => (c.x0 + c.x1) / 2 >= x).length - 1;
    const split = (l: Line): Line[] =>
      starts.flatMap((_, g) => {
        const shift = g === 0 ? 0 : hdr[0]!.x0 - hdr[g * k]!.x0;
        const cells = l.cells
          .filter((c) => groupOf(c) === g)
          .map((c) => ({ ...c, x0: c.x0 + shift, x1: c.x1 + shift }));
        return cells.length ? [{ ...l, cells, text: cells.map((c) => c.text).join(' ') }] : [];
      });
    out.push(split(line)[0]!);
    for (let j = i + 1; j < lines.length; j += 1) {
      const l = lines[j]!;
      // Rows dated with or without a year ("05/26 | 1401 | 450.00 | 06/05 | …"), the date first or after the check's
      // number ("2317 | 2/12 | 792.75 | 2320* | 2/19 | …").
      const dated = (c: Cell | undefined) => c !== undefined && DATED_START.test(c.text);
      if (l.page !== line.page || !(findDates(l.text, 'dmy').length || dated(l.cells[0]) || dated(l.cells[1]))) break;
      out.push(...split(l));
      i = j;
    }
  }
  return out.map((l, index) => ({ ...l, index }));
}

/** The kind of amounts a section heading announces, from its folded text, or null for any other line. */
function sectionType(folded: string, card: boolean): TransactionType | null {
  const t = folded.replace(/\s+/g, ' ').trim();
  if (card && CARD_CREDIT_SECTION.test(t)) return 'credit';
  if (card && CARD_DEBIT_SECTION.test(t)) return 'debit';
  if (DEBIT_SECTION.test(t)) return 'debit';
  if (CREDIT_SECTION.test(t)) return 'credit';
  return null;
}

/** The latest full date (with its year) in the lines above the table on page 1, or null. */
function statementDate(doc: Doc, before: number): string | null {
  let latest: string | null = null;
  for (const l of doc.lines.slice(0, Math.max(before, 0))) {
    if (l.page !== 1) continue;
    let dates = findDates(l.text, doc.dayOrder);
    if (!dates.length) dates = findDates(undoDateSlips(l.text), doc.dayOrder);
    for (const d of dates) if (!latest || d.iso > latest) latest = d.iso;
  }
  return latest;
}

/**
 * OCR slips in a written date, undone only where nothing was found as printed: the space after the month name lost
 * and letters read for digits beside digits ("August1l, 2021", "May 3l, 2O22").
 */
export function undoDateSlips(text: string): string {
  return text
    .replace(/(\p{L}{3,})(?=\d)/gu, '$1 ')
    .replace(/(?<=\d)[lI|](?=[\d,.\s]|$)|(?<=\s)[lI|](?=\d)/g, '1')
    .replace(/(?<=\d)[OoQ](?=[\d,.\s]|$)|(?<=\s)[OoQ](?=\d)/g, '0');
}

/**
 * A period whose first date has no year of its own ("February 1 – April 30, 2022", "1 Feb - 30 Apr 2022",
 * "01.02. - 30.04.2022"): the one dated end, and before it, after the label, the start as day and month.
 */
function yearlessPeriod(text: string, order: DayOrder): { start: string; end: string } | null {
  const dates = findDates(text, order);
  if (dates.length !== 1) return null;
  const end = dates[0]!;
  const before = text.slice(0, end.index);
  const m =
    /(\p{L}{3,10})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s*(?:[-–—]|to|bis|au|al|tot)\s*$/iu.exec(before) ??
    /(\d{1,2})\.?\s+(\p{L}{3,10})\.?\s*(?:[-–—]|to|bis|au|al|tot)\s*$/iu.exec(before) ??
    /(\d{1,2})[./](\d{1,2})\.?\s*(?:[-–—]|to|bis|au|al|tot)\s*$/iu.exec(before);
  if (!m) return null;
  let day: number;
  let month: number | null;
  if (/^\d/.test(m[1]!) && /^\d/.test(m[2]!)) {
    [day, month] = order === 'mdy' ? [Number(m[2]), Number(m[1])] : [Number(m[1]), Number(m[2])];
  } else if (/^\d/.test(m[1]!)) {
    [day, month] = [Number(m[1]), monthNumber(m[2]!)];
  } else {
    [day, month] = [Number(m[2]), monthNumber(m[1]!)];
  }
  if (!month || month > 12) return null;
  const endYear = Number(end.iso.slice(0, 4));
  const year = month > Number(end.iso.slice(5, 7)) ? endYear - 1 : endYear;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const start = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return start <= end.iso ? { start, end: end.iso } : null;
}

/** An amount at the start of a cell, then its text ("27.00 USAA FUNDS TRANSFER CR" in monospaced print). */
const LEADING_AMOUNT =
  /^([-+]?[$€£]?\d{1,3}(?:[,.' ]\d{3})*[.,]\d{2}(?:\s?(?:CR|DR|Cr|Dr))?-?)\s+(?=\p{L}{2})(?!(?:CR|DR|Cr|Dr|EUR|USD|GBP|CHF)\b)/u;

/**
 * Monospaced statements print the amount and the text after it with one space between: one cell, which would hide
 * the amount from its column. Such a cell is split where the amount ends (x positions in proportion to the characters).
 */
function splitAmountCells(lines: Line[]): Line[] {
  return lines.map((l) => {
    if (!l.cells.some((c) => LEADING_AMOUNT.test(c.text))) return l;
    const cells = l.cells.flatMap((c) => {
      const m = LEADING_AMOUNT.exec(c.text);
      if (!m) return [c];
      const per = (c.x1 - c.x0) / Math.max(c.text.length, 1);
      const cut = c.x0 + per * m[1]!.length;
      return [
        { ...c, text: m[1]!, x1: cut },
        { ...c, text: c.text.slice(m[0].length), x0: c.x0 + per * m[0].length },
      ];
    });
    return { ...l, cells, text: cells.map((c) => c.text).join('  ') };
  });
}

/**
 * A header printed over two or three lines ("DATA / CONTABILE", "DATA / VALUTA" stacked beside "DESCRIZIONE |
 * ADDEBITI | ACCREDITI" centred between them): the cells of the lines just above and below that stand in one column
 * are read as one header cell each, on the line that names the amounts.
 */
function mergeStackedHeaders(lines: Line[]): Line[] {
  return lines.map((l, i) => {
    const folded = (x: Line) => x.cells.map((c) => foldAligned(c.text));
    const own = /\d{2}/.test(l.text) ? null : headerColumns(l, folded(l));
    // "TRANSACTION POSTING" over "DATE | DATE | …": the words over two date columns say which is the booking's.
    if (own && own.filter((c) => c.role === 'date').length >= 2) return withWordsAbove(l, lines[i - 1]) ?? l;
    if (/\d{2}/.test(l.text) || own) return l;
    const roles = new Set(l.cells.flatMap((c) => rolesIn(foldAligned(c.text)).map((r) => r.role)));
    if (!roles.has('debit') && !roles.has('credit') && !roles.has('amount')) return l;
    // The lines around it name dates or texts only: a heading over the table ("Payments and Credits") is no part of it.
    const moneyWords = (n: Line) =>
      n.cells.some((c) =>
        rolesIn(foldAligned(c.text)).some((r) => r.role !== 'date' && r.role !== 'value' && r.role !== 'balance'),
      );
    const near = [lines[i - 1], l, lines[i + 1]].filter(
      (n): n is Line =>
        !!n &&
        n.page === l.page &&
        Math.abs(n.y0 - l.y0) < 2.5 * l.size &&
        !/\d{2}/.test(n.text) &&
        (n === l || !moneyWords(n)),
    );
    if (near.length < 2) return l;
    const groups: Array<{ x0: number; x1: number; parts: string[] }> = [];
    for (const n of near)
      for (const c of n.cells) {
        const g = groups.find((o) => o.x0 < c.x1 && o.x1 > c.x0);
        if (g) {
          g.parts.push(c.text);
          g.x0 = Math.min(g.x0, c.x0);
          g.x1 = Math.max(g.x1, c.x1);
        } else groups.push({ x0: c.x0, x1: c.x1, parts: [c.text] });
      }
    const cells = groups.sort((a, b) => a.x0 - b.x0).map((g) => ({ text: g.parts.join(' '), x0: g.x0, x1: g.x1 }));
    const merged: Line = { ...l, cells, text: cells.map((c) => c.text).join('  ') };
    return headerColumns(merged, folded(merged)) ? merged : l;
  });
}

/**
 * A header line with the words of the line right above it put in front of the cells under them ("TRANSACTION" over
 * "DATE" → "TRANSACTION DATE"), when that line is a bare row of header words (no digits, no roles of its own but
 * dates); null when it is not, or the result is no header.
 */
function withWordsAbove(l: Line, above: Line | undefined): Line | null {
  if (!above || above.page !== l.page || l.y0 - above.y1 > 1.5 * l.size || /\d/.test(above.text)) return null;
  // One cell may hold words over two columns ("TRANSACTION POSTING" over "DATE | DATE"): split at the spaces.
  const words = above.cells.flatMap((c) => {
    const parts = c.text.split(/\s+/);
    const per = (c.x1 - c.x0) / Math.max(c.text.length, 1);
    let at = 0;
    return parts.map((w) => {
      const x0 = c.x0 + per * c.text.indexOf(w, at);
      at = c.text.indexOf(w, at) + w.length;
      return { text: w, x0, x1: x0 + per * w.length };
    });
  });
  const cells = l.cells.map((c) => {
    const over = words.filter((w) => w.x0 < c.x1 + l.size && w.x1 > c.x0 - l.size && w.x0 >= c.x0 - 2 * l.size);
    return over.length ? { ...c, text: `${over.map((w) => w.text).join(' ')} ${c.text}` } : c;
  });
  const merged: Line = { ...l, cells, text: cells.map((c) => c.text).join('  ') };
  return headerColumns(
    merged,
    cells.map((c) => foldAligned(c.text)),
  )
    ? merged
    : null;
}

/** The words of a card's reward or loyalty points, whose balances are points, not money. */
const REWARD_POINTS =
  /(?<![a-z])(?:reward|rewards|points|cashback points|bonus points|punkte|bonuspunkte|points de fidelite|puntos|punti|miles)(?![a-z])/;

/** The heading of a worked example a card statement prints after its bookings (how interest or a late fee is reckoned). */
const ILLUSTRATION =
  /^(?:the following )?(?:illustration|illustrative example|worked example|example calculation|beispielrechnung|berechnungsbeispiel|exemple de calcul|ejemplo de calculo|esempio di calcolo)(?![a-z])/;

/**
 * Leaves out the worked examples after the bookings ("Illustration for calculating Interest & Late Payment Charges"):
 * their dated rows, totals and statement dates are made up. From such a heading, once a booking was printed above it,
 * the rest of its page and the pages after it are dropped, except a later page that repeats the bookings' own table
 * header (the statement goes on).
 */
function withoutIllustrations(lines: Line[]): Line[] {
  const folded = lines.map((l) => foldAligned(l.text).replace(/\s+/g, ' ').trim());
  if (!folded.some((f) => ILLUSTRATION.test(f))) return lines;
  const headers = new Set<string>();
  let booked = false;
  for (let i = 0; i < lines.length; i += 1) {
    const l = lines[i]!;
    if (
      headerColumns(
        l,
        l.cells.map((c) => foldAligned(c.text)),
      )
    )
      headers.add(folded[i]!);
    else if (DATED_START.test(l.cells[0]!.text) && l.cells.some((c) => /\d[.,]\d{2}\b/.test(c.text))) booked = true;
    if (!booked || !ILLUSTRATION.test(folded[i]!)) continue;
    const resume = lines.findIndex((r, k) => k > i && r.page > l.page && headers.has(folded[k]!));
    const from = resume < 0 ? lines.length : lines.findIndex((r) => r.page === lines[resume]!.page);
    return [...lines.slice(0, i), ...lines.slice(from)];
  }
  return lines;
}

/** Reads a statement from its lines; `lines` may come from the text layer, OCR, or both. */
export function statementFromLines(lines: Line[]): ParsedStatement {
  const input = withoutIllustrations(lines);
  const first = readStatementLines(input);
  if (first.decided || first.statement.transactions.length < 2) return first.statement;
  // No date on the page settles the day order ("03/05", "04/05"): the order that keeps the bookings close together,
  // as in CSV files (closerReading), reading the same rows.
  const other = readStatementLines(input, first.order === 'dmy' ? 'mdy' : 'dmy');
  if (other.statement.transactions.length !== first.statement.transactions.length) return first.statement;
  const span = (s: ParsedStatement) => daySpan(s.transactions.map((t) => t.date))!;
  return closerReading(span(other.statement), span(first.statement)) ? other.statement : first.statement;
}

function readStatementLines(
  input: Line[],
  order?: DayOrder,
): { statement: ParsedStatement; decided: boolean; order: DayOrder } {
  const st = emptyStatement();
  if (!input.length) return { statement: st, decided: true, order: order ?? 'dmy' };
  const lines = mergeStackedHeaders(splitRepeatedTables(joinSplitRows(splitAmountCells(input))));
  const doc = prepareDoc(lines);
  if (order) doc.dayOrder = order;
  const firstHeader = doc.lines.findIndex((l, i) => headerColumns(l, doc.folded[i]!) !== null);
  const head = readHeader(doc, firstHeader === -1 ? doc.lines.length : firstHeader);
  Object.assign(st, head);
  const currency = head.currency ?? 'XXX';
  const decimals = currencyDecimals(currency);
  const hint = doc.decimalHint;
  // Pages that print amounts with decimals: a bare integer there is an amount OCR lost its decimals of, or no amount.
  const fraction = new RegExp(`\\d[.,]\\d{${decimals}}(?!\\d)`);
  const decimalPages = new Set(
    doc.lines
      .filter((l) => l.cells.some((c) => fraction.test(c.text) && amountCell(c.text, decimals, hint)))
      .map((l) => l.page),
  );
  // The year of dates printed without one ("1/10", "05.03."): the period's end, else the date of the closing balance
  // ("Your new balance as of 06/17/2020"), else the statement's own date (the latest full date above the table on
  // page 1: "January 31, 2022").
  let closingDate: string | undefined;
  for (const l of doc.lines) {
    const f = foldAligned(l.text);
    closingDate = CLOSING.test(f) && !OPENING.test(f) ? findDates(l.text, doc.dayOrder)[0]?.iso : undefined;
    if (closingDate) break;
  }
  const reference =
    head.endDate ?? closingDate ?? statementDate(doc, firstHeader === -1 ? doc.lines.length : firstHeader);
  const endYear = reference ? Number(reference.slice(0, 4)) : null;
  const endMonth = reference ? Number(reference.slice(5, 7)) : null;
  const yearOf = (m: number) => (endYear === null ? null : endMonth !== null && m > endMonth ? endYear - 1 : endYear);

  // No period above the table: the dates of the balance lines ("Beginning balance on 7/14", "Ending Balance, as of
  // 08/20/2021", "06/01/2023 Beginning Balance"), the first of each, or the date the statement ends on.
  if (!st.startDate || !st.endDate) {
    const dateOn = (l: Line): string | null => {
      const full = findDates(l.text, doc.dayOrder)[0];
      if (full) return full.iso;
      for (const c of l.cells) {
        const t = c.text.replace(/^.*?(?:\bon|\bas of|,)\s+(?=\d)/i, '');
        const d = leadingDate(t, doc.dayOrder, yearOf);
        if (d && !d.rest.trim()) return d.iso;
        const lead = leadingDate(c.text, doc.dayOrder, yearOf);
        if (lead && OPENING.test(foldAligned(l.text)) !== CLOSING.test(foldAligned(l.text))) return lead.iso;
      }
      return null;
    };
    let start: string | null = null;
    let end: string | null = null;
    for (const l of doc.lines) {
      const f = foldAligned(l.text);
      if (STATEMENT_END.test(f) && !end) end = findDates(l.text, doc.dayOrder)[0]?.iso ?? null;
      if (!start && OPENING.test(f) && !CLOSING.test(f)) start = dateOn(l);
      else if (start && OPENING.test(f) && !CLOSING.test(f)) continue;
      if (CLOSING.test(f) && !OPENING.test(f) && !end) end = dateOn(l);
    }
    if (start && end && start <= end) {
      st.startDate ??= start;
      st.endDate ??= end;
    } else if (end && !st.endDate && (!st.startDate || st.startDate <= end)) st.endDate = end;
  }

  // Opening and closing balances: labelled lines anywhere (a summary box above the table or rows in it), or a label
  // in a box's header row over its value ("Alter Kontostand" over "EUR + 2.853,82").
  doc.lines.forEach((l, i) => {
    const f = foldAligned(l.text);
    // A table's column header ("… | Amount | Closing Balance") labels every row's running balance, not the statement's.
    if (headerColumns(l, doc.folded[i]!)) return;
    // A card's reward points have balances of their own ("Reward Point Summary": "Opening Balance … Closing Balance").
    const above = doc.lines.slice(Math.max(0, i - 2), i + 1).filter((a) => a.page === l.page);
    if (above.some((a) => REWARD_POINTS.test(foldAligned(a.text)))) return;
    const read = (label: RegExp) =>
      labelledAmount(l, label, decimals, hint) ?? amountBelowLabel(doc.lines, i, label, decimals, hint);
    if (st.openingBalanceMinor === null && OPENING.test(f)) st.openingBalanceMinor = read(OPENING);
    if (CLOSING.test(f)) {
      const v = read(CLOSING);
      if (v !== null) st.closingBalanceMinor = v;
    }
  });
  // A summary box whose labels wrap over two lines ("BALANCE" over "LAST STATEMENT", "BALANCE THIS" over
  // "STATEMENT") above one row of figures.
  if (st.openingBalanceMinor === null || st.closingBalanceMinor === null) {
    const boxed = stackedBalances(doc.lines, decimals, hint);
    st.openingBalanceMinor ??= boxed.opening;
    st.closingBalanceMinor ??= boxed.closing;
  }

  const rows: Row[] = [];
  let cols: Column[] | null = null;
  let carriedBeforeFirst: number | null = null;
  // An opening or carried balance printed after rows: the next row's balance before it (Row.balanceBefore).
  let restart: number | null = null;
  let ended = false;
  let last: Row | null = null;
  let section: TransactionType | null = null;
  let balancesOnly = false;
  // A list of bookings the history already holds ("Summary of checks written … also displayed in …"): its heading
  // seen, then its table being skipped.
  let repeated: 'heading' | 'table' | null = null;
  // A balance carried or stated at a date under the last booking so far: the closing one, if no booking follows.
  let balanceAfterLast: number | null = null;
  /** The date last printed in the date column, for the bookings under it that print none. */
  let day: { iso: string; page: number } | null = null;
  // The text of a dated line with no amount ("01 Feb ST GEORGE CARDS"), for the booking whose amount comes a line lower.
  let dayText: { text: string; line: Line } | null = null;
  const card = CARD_STATEMENT.test(doc.folded.flat().join(' '));
  // A section heading right above the first table ("Checks" over "DATE | CHECK# | AMOUNT($)") says what its rows are.
  for (let k = firstHeader - 1; k >= Math.max(0, firstHeader - 2); k -= 1) {
    const f = foldAligned(doc.lines[k]!.text);
    if (doc.lines[k]!.page !== doc.lines[firstHeader]!.page || findAmounts(doc.lines[k]!.text).length) break;
    section = sectionType(f, card);
    if (section) break;
  }
  for (let i = Math.max(firstHeader, 0); i < doc.lines.length; i += 1) {
    const line = doc.lines[i]!;
    const hdr = headerColumns(line, doc.folded[i]!);
    // After a closing balance only a new table header (another account's) is read on, unless a heading before it
    // says that table holds day-end balances ("Daily Balances" under the "Ending Balance" row).
    if (ended && !hdr) {
      const folded = foldAligned(line.text);
      if (BALANCE_SECTION.test(folded.replace(/\s+/g, ' ').trim())) balancesOnly = true;
      if (REPEATED_SECTION.test(folded.trim())) repeated = 'heading';
      // The next account's summary before its table ("Beginning balance on 7/20 $176,957.07"): its rows go on from it.
      if (OPENING.test(folded) && !CLOSING.test(folded)) restart = lineAmount(line, decimals, hint) ?? restart;
      continue;
    }
    if (hdr) {
      // A new table after a closing balance: the next account of a combined statement.
      ended = false;
      // The table under a heading that says it repeats the history is skipped; any later table is read.
      repeated = repeated === 'heading' ? 'table' : null;
      cols = hdr;
      last = null;
      // A skewed scan can put part of the header a line lower ("importo" here, "saldo" just under it): header words
      // right under the header, with no digits, add their columns where the header has none.
      for (let k = i + 1; k < doc.lines.length; k += 1) {
        const next = doc.lines[k]!;
        if (next.page !== line.page || next.y0 - line.y1 > line.size || /\d/.test(next.text)) break;
        const extra = headerCells(next, doc.folded[k]!).filter((c) => !cols!.some((o) => c.x0 < o.x1 && c.x1 > o.x0));
        if (!extra.length) break;
        cols = [...cols, ...extra].sort((a, b) => a.x0 - b.x0);
        i = k;
      }
      continue;
    }
    const f = foldAligned(line.text);
    const dateCol = cols?.find((c) => c.role === 'date' || c.role === 'value');
    // A row's date sits at its left edge, under the date columns (not a date inside a summary sentence); where the
    // header puts another column first ("Check Nbr | Date | Amount"), the date is the cell under its column.
    let at = 0;
    // So too where a row number stands left of the date under no header word of its own ("Lp. | Data księgowania").
    const beforeDates = dateCol && line.cells[0]!.x1 < dateCol.x0 - 0.5 * line.size;
    if (dateCol && (beforeDates || (cols![0]!.role !== 'date' && cols![0]!.role !== 'value'))) {
      const j = line.cells.findIndex((c) => c.x0 < dateCol.x1 + line.size && c.x1 > dateCol.x0 - line.size);
      if (j > 0 && line.cells.slice(0, j).every((c) => !leadingDate(c.text, doc.dayOrder, yearOf))) at = j;
    }
    const first = line.cells[at]!;

    const startsLeft = !dateCol || first.x0 <= dateCol.x1 + 2 * line.size;
    let d = startsLeft ? leadingDate(first.text, doc.dayOrder, yearOf) : null;
    // A running number run into the date's cell ("100 2025-09-29" once the numbers reach three digits).
    const numbered = !d && startsLeft ? /^\s*\d{1,4}\.?\s+(?=\d)/.exec(first.text) : null;
    if (numbered) d = leadingDate(first.text.slice(numbered[0].length), doc.dayOrder, yearOf);
    // OCR garbled a short date under the date column: kept with the dates it can be, if the row has an amount.
    let candidates: string[] | undefined;
    if (!d && dateCol && startsLeft && first.x0 < dateCol.x1 + line.size && first.x1 > dateCol.x0 - line.size) {
      const parse = (t: string) => {
        const x = leadingDate(t, doc.dayOrder, yearOf);
        return x && !x.rest.trim() ? x.iso : null;
      };
      const bare = first.text.trim();
      const found = garbledDateCandidates(bare, parse);
      // A bare day ("22", the month and its separator lost): any month, the neighbours choose.
      if (/^\d{1,2}$/.test(bare) && Number(bare) >= 1 && Number(bare) <= 31)
        for (let m = 1; m <= 12; m += 1) {
          const iso = parse(doc.dayOrder === 'mdy' ? `${m}/${bare}` : `${bare}/${m}`);
          if (iso) found.push(iso);
        }
      const hasAmount = line.cells.slice(at + 1).some((c) => amountCell(c.text, decimals, hint));
      if (found.length && hasAmount) {
        candidates = found;
        d = { iso: found[0]!, rest: '' };
      }
    }
    // "31/03/2024 | SALDO | 6.411,12 C": a dated row that names nothing but the balance closes the statement (opens
    // it, before any booking).
    const bareBalance =
      d !== null && /^\s*(?:saldo|balance|solde|kontostand|stand|saldo r\$)\s*$/.test(foldAligned(d.rest));
    const bareRow =
      bareBalance ||
      (line.cells.length >= 2 &&
        /^\s*(?:saldo|balance|solde|kontostand)\s*$/.test(foldAligned(line.cells[at + 1]?.text ?? '')));
    // A list the history already holds: its heading, then its table's dated rows are skipped.
    if (!d && REPEATED_SECTION.test(f.trim())) {
      repeated = 'heading';
      last = null;
      continue;
    }
    if (repeated === 'table') {
      if (d) continue;
      repeated = null;
    }
    // "Daily Ending Balance" heads a table of day-end balances: no closing balance, and nothing under it is a booking.
    if (!d && BALANCE_SECTION.test(f.replace(/\s+/g, ' ').trim())) {
      section = null;
      balancesOnly = true;
      last = null;
      continue;
    }
    // A balance stated at a date ("Kontostand am 31.12.2025 | 2.462,85") reads like one carried: before the first
    // booking the opening balance, between bookings the one the next rows go on from, after the last the closing one.
    const carry = CARRY.test(f) || BALANCE_AT.test(f.trim());
    const isBalanceRow = OPENING.test(f) || CLOSING.test(f) || carry || TOTAL.test(f) || (d !== null && bareRow);
    if (isBalanceRow) {
      if (carry && !rows.length && carriedBeforeFirst === null) carriedBeforeFirst = lineAmount(line, decimals, hint);
      // A page that opens with the balance brought forward goes on with the day the page before ended on.
      const carried = day as { iso: string; page: number } | null;
      if (carry && carried && carried.page < line.page) day = { iso: carried.iso, page: line.page };
      if (CLOSING.test(f) && rows.length) ended = true;
      if (rows.length && (OPENING.test(f) || carry) && !CLOSING.test(f)) restart = lineAmount(line, decimals, hint);
      if (rows.length && carry && !OPENING.test(f)) balanceAfterLast = lineAmount(line, decimals, hint);
      last = null;
      continue;
    }
    if (d && balancesOnly) {
      last = null;
      continue;
    }
    // A booking on a day printed once for several ("13 Feb | Pret A Manger" then "| Netflix.com | 10.99"): the date
    // column is empty, an amount stands under an amount column, and the day is the last date printed above, with or
    // without an amount of its own ("31 Dec 20 | CR | A Testname" over "| LKOB KYS REKO | 650.00").
    if (!d && cols && dateCol && day && day.page === line.page && first.x0 > dateCol.x1 + line.size) {
      const amountUnderColumn = line.cells.some(
        (c) => amountCell(c.text, decimals, hint) && numericColumn(cols!, c)?.role !== 'balance',
      );
      // A card or reference number may start the line ("4601843900281088 | 200.00"); an amount may not.
      const ownText = !amountCell(first.text, decimals, hint) && !/^\s*[(+-]/.test(first.text);
      if (amountUnderColumn && ownText) {
        const above: string =
          dayText && dayText.line.page === line.page && line.y0 - dayText.line.y1 < 1.2 * line.size ? dayText.text : '';
        d = { iso: day.iso, rest: above ? `${above}  ${first.text}` : first.text };
      }
    }
    dayText = null;
    // The statement's period repeated at a page's head ("9 July to 8 August 2025"): no booking, and no day for the
    // bookings under it.
    if (d && /^\s*(?:to|bis|au|al|a|-|–|—|hasta|tot|do|till)\s/i.test(d.rest) && findDates(d.rest, doc.dayOrder).length)
      continue;
    if (d) day = { iso: d.iso, page: line.page };
    if (!d) {
      // A continuation of the row above: text only, close under it, on the same page.
      const hasAmount = line.cells.some((c) => amountCell(c.text, decimals, hint));
      // A section heading ("Electronic Debits", "Deposits and Additions", "Lastschriften") says what the unsigned
      // amounts under it are, in statements that list debits and credits apart.
      if (!hasAmount && line.text.split(/\s+/).length <= 6) {
        const heading = sectionType(f, card);
        const balances = BALANCE_SECTION.test(f.replace(/\s+/g, ' ').trim());
        if (heading || balances) {
          section = heading;
          balancesOnly = balances;
          last = null;
          continue;
        }
      }
      if (last && !hasAmount && line.page === last.line.page && line.y0 - last.line.y1 < 1.2 * line.size) {
        last.texts.push(line.text);
        last.line = line;
      } else last = null;
      continue;
    }
    const row: Row = {
      line,
      date: d.iso,
      valueDate: null,
      // A row's running number ("1", "2." under "Lp.", "Nr") says nothing of the booking.
      texts: line.cells
        .slice(0, at)
        .filter(
          (c) =>
            !(
              /^\s*\d{1,4}\.?\s*$/.test(c.text) &&
              !cols?.some((col) => c.x0 < col.x1 + line.size && c.x1 > col.x0 - line.size)
            ),
        )
        .map((c) => c.text),
      amount: null,
      type: null,
      balance: null,
      ...(candidates ? { dateCandidates: candidates } : {}),
    };
    const rest = d.rest.trim();
    // The rest of the first cell may hold a second date (value date) and then text.
    const cellsLeft: Array<{ text: string; x0: number; x1: number }> = [];
    if (rest) cellsLeft.push({ text: rest, x0: first.x1 - 1, x1: first.x1 });
    cellsLeft.push(...line.cells.slice(at + 1));
    const numeric: Array<{ cell: Cell; minor: number; type: TransactionType | null }> = [];
    // OCR: a minus read apart from its amount, as a dash of its own in the cell before it.
    let looseMinus = false;
    for (const c of cellsLeft) {
      if (cols && /^\s*[-—–]\s*$/.test(c.text)) {
        looseMinus = true;
        continue;
      }
      // A short value date under a date column is no amount, even without its last dot or with a speck ("- 26.01.").
      const underDate = cols?.some(
        (col) =>
          (col.role === 'value' || col.role === 'date') && c.x0 < col.x1 + line.size && c.x1 > col.x0 - line.size,
      );
      // OCR writes its dots as colons now and then ("14.06:", "06:06.").
      if (underDate && /^[\s\-—–.,'‘’"|]*\d{1,2}[./:-]\d{1,2}[./:;-]?[\s\-—–.:;]*$/.test(c.text)) {
        row.texts.push(c.text);
        continue;
      }
      const dd = leadingDate(c.text, doc.dayOrder, yearOf);
      if (dd && row.valueDate === null && !row.texts.length) {
        const role = cols ? dateColumn(cols, c) : 'value';
        // Only when the header has both columns: a value-date header lost to OCR leaves one date column for both.
        if (role === 'date' && cols && dateColumn(cols, first) === 'value') {
          // The booking date column comes second: the first date was the value date.
          row.valueDate = row.date;
          row.date = dd.iso;
        } else row.valueDate = dd.iso;
        if (dd.rest.trim()) row.texts.push(dd.rest.trim());
        continue;
      }
      // OCR runs a value date ("14.06.") loose from its column on a statement whose amounts use a decimal comma:
      // a day and month a few days from the row's own date is that date, not an amount of 14.06.
      if (hint === ',' && valueDateLike(c.text, row.date)) {
        row.texts.push(c.text);
        continue;
      }
      const a =
        amountCell(c.text, decimals, hint) ??
        (decimalPages.has(line.page) ? null : wholeUnderAmountColumn(c, cols, line.size, decimals));
      if (a) {
        const signedColumn = cols && numericColumn(cols, c)?.role === 'amount';
        numeric.push({ cell: c, ...a, type: looseMinus && signedColumn && a.type === null ? 'debit' : a.type });
      } else row.texts.push(c.text);
      looseMinus = false;
    }
    if (!numeric.length) {
      last = null;
      dayText = { text: row.texts.join(' '), line };
      continue;
    }
    if (cols) {
      for (const n of numeric) {
        const col = numericColumn(cols, n.cell);
        if (!col) continue;
        if (col.role === 'balance') {
          if (row.balance === null) row.balance = n.type === 'debit' ? -n.minor : n.minor;
          continue;
        }
        if (row.amount !== null) continue;
        // "$0.00" under credits beside "-$4,961.00" under debits: the zero is the empty cell of the pair.
        const other = numeric.some((o) => o !== n && o.minor !== 0 && numericColumn(cols!, o.cell)?.role !== 'balance');
        if (n.minor === 0 && other) continue;
        row.amount = n.minor;
        row.type = col.role === 'debit' ? 'debit' : col.role === 'credit' ? 'credit' : n.type;
      }
    } else {
      // No header: the first amount is the transaction, a second one its balance.
      row.amount = numeric[0]!.minor;
      row.type = numeric[0]!.type;
      row.amountCell = { x0: numeric[0]!.cell.x0, x1: numeric[0]!.cell.x1 };
      if (numeric.length > 1)
        row.balance = numeric[numeric.length - 1]!.minor * (numeric.at(-1)!.type === 'debit' ? -1 : 1);
    }
    if (row.amount === null) {
      // A dated row with only its running balance: its amount cell was unreadable (OCR). Kept for the balance chain to
      // restore from the balances around it, or dropped there.
      if (row.balance !== null && cols?.some((c) => c.role === 'balance')) {
        rows.push(row);
        last = row;
      } else last = null;
      continue;
    }
    row.typeFromColumn = cols ? (numericColumn(cols, numeric[0]!.cell)?.role ?? 'amount') !== 'amount' : false;
    // A direction of its own in a cell beside the amount ("Af" / "Bij", "D" / "C", "Soll" / "Haben").
    if (row.type === null) {
      const mark = line.cells.map((c) => DIRECTION_CELL.exec(foldAligned(c.text).trim())).find(Boolean);
      if (mark) {
        row.type = mark[1] ? 'debit' : 'credit';
        row.typeFromColumn = true;
      }
    }
    if (restart !== null) {
      row.balanceBefore = restart;
      restart = null;
    }
    row.section = section;
    if (row.type === null && section !== null) {
      row.type = section;
      row.typeFromColumn = true;
    }
    rows.push(row);
    balanceAfterLast = null;
    last = row;
  }
  if (st.openingBalanceMinor === null && carriedBeforeFirst !== null) st.openingBalanceMinor = carriedBeforeFirst;
  st.closingBalanceMinor ??= balanceAfterLast;
  // A card statement prints what the holder owes: purchases unsigned (debits), payments and refunds in brackets, with a
  // minus or CR (credits), or unsigned under a payments-and-credits heading. Only where neither debit/credit columns
  // nor running balances tell the direction.
  const fromColumns = (r: Row) => r.typeFromColumn && !r.section;
  if (card && !rows.some((r) => fromColumns(r) || r.balance !== null)) {
    for (const r of rows) {
      const cell = r.line.cells.find((c) => amountCell(c.text, decimals, hint)?.minor === r.amount)?.text ?? '';
      const signed = amountCell(cell, decimals, hint)?.type ?? null;
      r.type = /\bDR\b|\bDr\b/.test(cell) ? 'debit' : signed !== null || r.section === 'credit' ? 'credit' : 'debit';
      r.typeFromColumn = true;
    }
  }

  if (!cols) headerlessColumns(rows, st.openingBalanceMinor, st.closingBalanceMinor);
  const settled = settleTypes(settleGarbledDates(rows), st.openingBalanceMinor, st.closingBalanceMinor);
  st.transactions = settled.map(
    (r): StatementTransaction =>
      transaction({
        date: r.date,
        valueDate: r.valueDate,
        description: joinText(...r.texts),
        amountMinor: r.amount!,
        type: r.type ?? 'credit',
        currency,
        balanceAfterMinor: r.balance,
        ...(r.balanceBefore !== undefined ? { balanceBeforeMinor: r.balanceBefore } : {}),
      }),
  );
  if (!st.transactions.length) {
    st.warnings.push(issue('no_transactions', 'No transaction table was found in the statement.'));
  }
  return { statement: st, decided: doc.dayOrderDecided, order: doc.dayOrder };
}

/**
 * A table whose header is not in the text (printed on the form behind it, or an image): unsigned amounts standing in
 * two columns, one per row, are debits and credits. On each page the amounts' right edges (or left edges, for
 * left-aligned figures) fall into exactly two groups a column apart. The left one is the debits (Soll | Haben,
 * Addebiti | Accrediti, Debit | Credit, Paid out | Paid in), unless only the other way round takes the opening balance
 * to the closing one. Rows with a sign, a balance of their own or a direction already read are left as they are, and
 * so is everything when any row has one.
 */
function headerlessColumns(rows: Row[], opening: number | null, closing: number | null): void {
  if (rows.length < 3 || rows.some((r) => r.type !== null || r.balance !== null || !r.amountCell)) return;
  type Edge = 'x0' | 'x1';
  const pages = [...new Set(rows.map((r) => r.line.page))];
  /** A page's two columns: the cut between them and where each stands, by the edge the figures align on. */
  const columns = new Map<number, { edge: Edge; cut: number; left: number; right: number }>();
  const single = new Set<number>();
  for (const page of pages) {
    const on = rows.filter((r) => r.line.page === page);
    const size = Math.max(...on.map((r) => r.line.size));
    const split = (edge: Edge): { cut: number; left: number; right: number } | 'one' | null => {
      const xs = on.map((r) => r.amountCell![edge]).sort((a, b) => a - b);
      const gaps = xs.slice(1).map((x, k) => ({ at: k, gap: x - xs[k]! }));
      const wide = gaps.filter((g) => g.gap > 2.5 * size);
      if (wide.length > 1 || gaps.some((g) => g.gap > 0.8 * size && g.gap <= 2.5 * size)) return null;
      if (!wide.length) return 'one';
      const cut = xs[wide[0]!.at]!;
      return { cut, left: xs[0]!, right: xs.at(-1)! };
    };
    const byRight = split('x1');
    const [edge, found]: [Edge, ReturnType<typeof split>] = byRight ? ['x1', byRight] : ['x0', split('x0')];
    if (found === null) return;
    if (found === 'one') single.add(page);
    else columns.set(page, { edge, ...found });
  }
  if (!columns.size) return;
  const left = new Set<Row>();
  for (const page of pages) {
    // A page with one column only is placed by a page that has both: the page before last first (printed
    // back to back, odd and even pages can stand apart on the sheet), else the nearest.
    const ref =
      columns.get(page) ??
      columns.get(page - 2) ??
      [...columns.entries()].sort((a, b) => Math.abs(a[0] - page) - Math.abs(b[0] - page))[0]![1];
    for (const r of rows) {
      if (r.line.page !== page) continue;
      const x = r.amountCell![ref.edge];
      const isLeft = single.has(page) ? Math.abs(x - ref.left) < Math.abs(x - ref.right) : x <= ref.cut;
      if (isLeft) left.add(r);
    }
  }
  if (!left.size || left.size === rows.length) return;
  const total = (leftDebit: boolean) =>
    rows.reduce((a, r) => a + (left.has(r) === leftDebit ? -r.amount! : r.amount!), 0);
  const flipped =
    opening !== null && closing !== null && opening + total(true) !== closing && opening + total(false) === closing;
  for (const r of rows) {
    r.type = left.has(r) !== flipped ? 'debit' : 'credit';
    r.typeFromColumn = true;
  }
}

/**
 * Direction (and, for OCR, repairs) from the balances. With a running balance column the rows are followed in
 * time order (reading order, or reversed for newest-first statements) from the opening balance: a row whose printed
 * balance is the previous one plus or minus its amount takes that direction; where its balance is missing or misread,
 * the next row's balance decides (only one direction of this row reaches it); a row whose amount was unreadable gets
 * the difference of the balances around it when the next row confirms its balance, else it is dropped. Used where
 * the columns left the direction open and where they contradict the balances (an OCR'd minus is easily lost); only
 * when the balances fit most rows, so a misread balance column changes nothing. Without running balances, a lone
 * row whose lost minus explains opening + sum ≠ closing exactly is turned to a debit.
 */
function settleTypes(rows: Row[], opening: number | null, closing: number | null): Row[] {
  const signed = (r: Row) => (r.type === 'debit' ? -r.amount! : r.amount!);
  if (rows.filter((r) => r.balance !== null).length < 2) {
    // A signed column where no row shows a sign cannot be told apart from an unsigned one: positive means credit.
    const known = rows.filter((r) => r.amount !== null);
    if (opening === null || closing === null || !known.length) return known;
    const diff = closing - (opening + known.reduce((a, r) => a + signed(r), 0));
    if (diff === 0 || diff % 2 !== 0) return known;
    // The rows that may have lost a minus: unmarked ones. Their only subset whose flip closes the gap is turned
    // (all subsets for up to 14 such rows, single rows beyond); two subsets that both fit leave everything as read.
    const open = known.filter((r) => r.type !== 'debit' && !r.typeFromColumn);
    const target = -diff / 2;
    let found: Row[] | null = null;
    let count = 0;
    if (open.length <= 14) {
      for (let mask = 1; mask < 1 << open.length && count < 2; mask += 1) {
        let sum = 0;
        for (let k = 0; k < open.length; k += 1) if (mask & (1 << k)) sum += open[k]!.amount!;
        if (sum === target) {
          count += 1;
          found = open.filter((_, k) => mask & (1 << k));
        }
      }
    } else {
      const single = open.filter((r) => r.amount === target);
      count = single.length;
      found = single;
    }
    if (count === 1 && found) for (const r of found) r.type = 'debit';
    return known;
  }
  const delta = (newestFirst: boolean) =>
    rows.map((r, i) => {
      const prev = newestFirst ? rows[i + 1]?.balance : i === 0 ? opening : rows[i - 1]!.balance;
      return r.balance === null || prev === null || prev === undefined ? null : r.balance - prev;
    });
  const fits = (ds: Array<number | null>) =>
    ds.filter((d, i) => d !== null && rows[i]!.amount !== null && Math.abs(d) === rows[i]!.amount).length;
  const forward = delta(false);
  const backward = delta(true);
  const newestFirst = fits(backward) > fits(forward);
  const ds = newestFirst ? backward : forward;
  const known = ds.filter((d, i) => d !== null && rows[i]!.amount !== null).length;
  if (!known || fits(ds) < 0.6 * known) return rows.filter((r) => r.amount !== null);
  const chrono = newestFirst ? [...rows].reverse() : rows;
  // The balance before the oldest row: the opening balance, or unknown until the first printed balance.
  let cur: number | null = opening;
  const dropped = new Set<Row>();
  const reaches = (from: number, r: Row, next: Row | undefined): number[] => {
    // The directions of r after which the next row's printed balance can follow (either direction of the next row).
    if (!next || next.balance === null || next.amount === null || r.amount === null) return [];
    return [1, -1].filter((sr) => [1, -1].some((sn) => from + sr * r.amount! + sn * next.amount! === next.balance));
  };
  chrono.forEach((r, i) => {
    const next = chrono[i + 1];
    // A balance printed before this row starts the chain again where the row follows from it and not from the chain
    // (a misread carried balance changes nothing); kept on the row only then, for the balance check.
    if (r.balanceBefore !== undefined) {
      const from = (b: number | null) => b !== null && r.amount !== null && Math.abs(r.balance! - b) === r.amount;
      if (!newestFirst && r.balance !== null && !from(cur) && from(r.balanceBefore)) cur = r.balanceBefore;
      else delete r.balanceBefore;
    }
    if (cur === null) {
      if (r.amount === null) dropped.add(r);
      cur = r.balance;
      return;
    }
    if (r.amount === null) {
      // Unreadable amount: the balances around it tell it, when the next row confirms this row's balance. In a run of
      // unreadable amounts the row after the run (or the closing balance) confirms the run's last balance.
      const amount = r.balance! - cur;
      let end = i;
      while (chrono[end + 1] && chrono[end + 1]!.amount === null && chrono[end + 1]!.balance !== null) end += 1;
      const after = chrono[end + 1];
      const runEnd = chrono[end]!;
      const confirmed = after
        ? after.balance !== null && after.amount !== null && Math.abs(after.balance - runEnd.balance!) === after.amount
        : closing === null || closing === runEnd.balance;
      if (amount !== 0 && confirmed) {
        r.amount = Math.abs(amount);
        r.type = amount < 0 ? 'debit' : 'credit';
        cur = r.balance;
      } else {
        dropped.add(r);
        cur = r.balance;
      }
      return;
    }
    const direct = r.balance === null ? [] : [1, -1].filter((sg) => cur! + sg * r.amount! === r.balance);
    if (direct.length === 1) {
      r.type = direct[0]! < 0 ? 'debit' : 'credit';
      cur = r.balance;
      return;
    }
    const ahead = reaches(cur, r, next);
    if (ahead.length === 1) {
      // This row's balance is missing or misread; the next one's settles the direction (and the balance).
      r.type = ahead[0]! < 0 ? 'debit' : 'credit';
      cur = cur + signed(r);
      if (r.balance !== null) r.balance = cur;
      return;
    }
    // The amount OCR misread, with digits lost (".44" for 350.44, "567" for 249.67), between two balances the
    // chain confirms (the one before it and, by the next row, its own): it is their difference. Only when the
    // digits read are fewer, or end that difference, so that a row OCR lost altogether is not folded into this one.
    if (r.balance !== null && r.balance !== cur) {
      const diff = r.balance - cur;
      const confirmed = next
        ? next.balance !== null && next.amount !== null && Math.abs(next.balance - r.balance) === next.amount
        : closing !== null && closing === r.balance;
      const [read, want] = [String(r.amount!), String(Math.abs(diff))];
      if (confirmed && (read.length < want.length || want.endsWith(read))) {
        r.amount = Math.abs(diff);
        r.type = diff < 0 ? 'debit' : 'credit';
        cur = r.balance;
        return;
      }
    }
    // Nothing fits (a lost row, or two misreads in a row): start again from this row's printed balance.
    cur = r.balance ?? cur + signed(r);
  });
  return rows.filter((r) => !dropped.has(r) && r.amount !== null);
}
