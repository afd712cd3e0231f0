import type { Cell, FieldGuess } from '../extraction.types';
import { AMOUNT_WEIGHTS, type AmountFeature, type AmountFeatures, amountScore } from './amount.weights';
import { cellBelow, columnCell, type Doc, editDistance, foldAligned, isValueCell, labelAbove } from './document';
import { CURRENCY_LABEL, INCLUDES_TAX, TAX_LINE, TOTAL_NEGATIVE, TOTAL_STRONG, TOTAL_WEAK } from './labels';
import { findAmounts, KNOWN_CURRENCIES, type ParsedAmount } from './money.parser';

export interface AmountGuess {
  minor: number;
  decimals: number;
  /** Digits printed after the decimal separator ("319.00": 2). */
  printedDecimals: number;
  /** Every digit printed, as one whole number ("127,000": 127000), when three follow the one separator. */
  grouped?: number;
  currency: string | null;
  lineIndex: number;
}

/** Titles of credit notes and corrections, whose amounts may be printed negative. */
const CREDIT_TITLE =
  /(?<![a-z])(credit[- ]?note|credit memo|gutschrift|rechnungs[- ]?korrektur|storno[- ]?rechnung|korrektur[- ]?rechnung|avoir|nota di credito|nota de credito|factura rectificativa|factura storno|factura de stornare|creditnota|creditfactuur)(?![a-z])/;

/**
 * Credit notes proper (EN 16931 type 381): their total is reported positive, as the e-invoice states it, whatever
 * sign the page prints. A corrected invoice (type 384: Rechnungskorrektur, storno, rectificativa) keeps its sign.
 */
const CREDIT_NOTE_TITLE =
  /(?<![a-z])(credit[- ]?note|credit memo|gutschrift|avoir|nota di credito|nota de credito|creditnota|creditfactuur)(?![a-z])/;

/** "Amount due"-style labels rank just below "grand total" ones: they differ only when a deposit was paid. */
const DUE_ONLY =
  /(?<![a-z])(amount due|balance due|total due|(?:total|amount|balance) to pay|zu zahlen\w*|zahlbetrag|te betalen|openstaand|net a payer|reste a payer|restant du|solde a payer|da pagare|a pagar|de plata|adeudado|montant preleve|montant a prelever|montant debite)(?![a-z])/;

const DEPOSIT =
  /(?<![a-z])(deposit|down payment|prepaid|already paid|amount paid|paid|anzahlung|vorauszahlung|bezahlt|acompte|deja regle|deja paye|acconto|gia pagato|anticipo|pagado|avans|achitat|aanbetaling|reeds betaald|betaald|applied balance|(?:account |customer )?(?:credit|balance) applied|applied credit|store credit|payments? received|less payments?|guthaben|verrechnet\w*|avoir (?:deduit|impute)|credito applicato|saldo a favor)(?![a-z])/;

/** A balance carried over from earlier invoices: "amount due" may include it, the invoice's own total does not. */
const PREVIOUS_BALANCE =
  /(?<![a-z])(previous (?:unpaid |outstanding |open )?balance|previous bill|unpaid balance|balance from (?:the )?previous \w+|(?:balance|credit|debit) (?:brought|carried) forward|prior balance|outstanding (?:balance|amount)|past due|vorsaldo|alter saldo|saldovortrag|ausstehende forderung\w*|offene(?:r|s)? (?:betrag|posten|saldo|forderung\w*)|ruckstand|solde (?:precedent|anterieur|reporte)|saldo (?:precedente|anterior|anterieur|vorig|vorige|vorherig)|importo arretrato|sold (?:anterior|precedent)|vorig saldo|openstaand saldo)(?![a-z])/;

/** Payment lines of till receipts: card or cash, in the supported languages. */
const PAYMENT_LABEL =
  /(?<![a-z])(?:kreditkarte|kartenzahlung|karte|ec-?karte|ec-?cash|girocard\w*|maestro|mastercard|master card|visa|v pay|amex|american express|bar|bargeld|gegeben|geg\.|cash|card|credit card|debit card|especes|carte bancaire|carte bleue|cb|contanti|carta|bancomat|efectivo|tarjeta|contant|pinnen|pin|numerar|card bancar)(?![a-z])/;

/** Change given back on a cash payment ("Rückgeld" also as OCR reads its ü: "Rockgeld", "Rickgeld"). */
const CHANGE_LABEL =
  /(?<![a-z])(?:r[a-z]ckgeld|rueckgeld|zuruck|zurueck|change|rendu|monnaie rendue|resto|cambio|wisselgeld|rest)(?![a-z])/;

/** Column headers of identifiers: a value under them is never an amount. */
const ID_HEADER =
  /(?<![a-z])(?:no|nr|n°|nº|number|nummer|numero|numar|nummer|#|id|ref\w*|code|kunden\w*|customer|client|account|konto|invoice|rechnung|facture|fattura|factura|factuur)\.?\s*:?\s*$/;

const NET_LABEL =
  /(?<![a-z])(sub[- ]?total|subtotaal|subtotale|zwischensumme|net|netto|nettobetrag|total ht|montant ht|ht|imponibile|base imponible|base|total fara tva|valoare fara tva|fara tva|excl\.? btw|totaal excl|total excl|net amount|summe netto)(?![a-z])/;

/** A tip or gratuity added to a restaurant bill: the card is charged the subtotal (and its tax) plus it. */
/** Units of metered quantities printed after a figure (folded: "m³" stays, "m3"), which make it no amount. */
const QUANTITY_UNIT =
  /^\s*(?:m3|m³|kwh|mwh|kw|gj|mj|ccf|hcf|cf|therms?|gal(?:lons?)?|litres?|liters?|ltrs?|cu\.? ?m|kg|tonnes?)(?![\p{L}\d])/u;
const TIP_LABEL =
  /(?<![a-z])(?:tip|tips|gratuity|trinkgeld|pourboire|propina|mancia|fooi|napiwek|dricks|gorjeta)(?![a-z])/;

/** The first amount (later lines first) that equals some net amount plus some tax amount (and a tip, where one is
 * printed), all non-zero and of one sign (credit notes print both negative). */
function arithmeticTotal(
  _doc: Doc,
  nets: number[],
  taxes: number[],
  all: Candidate[],
  tips: number[] = [],
): Candidate | null {
  if (!nets.length || (!taxes.length && !tips.length)) return null;
  const sums = new Set<number>();
  const sameSign = (x: number, y: number) => (x > 0 && y > 0) || (x < 0 && y < 0);
  for (const n of nets) {
    for (const t of taxes) if (sameSign(n, t)) sums.add(n + t);
    for (const tip of tips) {
      if (!sameSign(n, tip)) continue;
      sums.add(n + tip);
      for (const t of taxes) if (sameSign(n, t)) sums.add(n + t + tip);
    }
  }
  const hits = new Map<number, Candidate>();
  for (let k = all.length - 1; k >= 0; k--) {
    const m = all[k]!.amount.minor;
    if (sums.has(m) && !hits.has(m)) hits.set(m, all[k]!);
  }
  if (!hits.size) return null;
  // One row per VAT rate ("B 7% 8,87 0,62 9,49 / C 19% 14,63 2,78 17,41"): the grand total is their sum, when printed.
  if (hits.size >= 2) {
    const sum = [...hits.keys()].reduce((x, y) => x + y, 0);
    const whole = all.findLast((c) => c.amount.minor === sum);
    if (whole) return whole;
  }
  return hits.values().next().value ?? null;
}

/** Digits OCR takes for one another on receipts (thin or faded print), both ways round. */
const LOOK_ALIKE = new Set(['17', '38', '56', '68', '08', '89', '14', '27', '06'].flatMap((p) => [p, p[1]! + p[0]!]));

/** The same figures but for one digit read as its look-alike. */
function lookAlikeDigit(read: string, want: string): boolean {
  if (read.length !== want.length) return false;
  const diff = [...read].flatMap((ch, i) => (ch === want[i] ? [] : [`${ch}${want[i]}`]));
  return diff.length === 1 && LOOK_ALIKE.has(diff[0]!);
}

/** What was paid: each amount tendered less each change given back (a card with "CHANGE DUE 0.00" paid it exactly). */
function payments(pool: Candidate[], change: number[]): Set<number> {
  const out = new Set<number>();
  for (const c of pool) if (c.features?.tendered) for (const ch of change) if (ch >= 0) out.add(c.amount.minor - ch);
  return out;
}

/**
 * Totals the page's arithmetic gives, to complete a total OCR read short: cash tendered less the change given back,
 * a net line plus a tax line, and the sum of the amounts stacked above the total in its column (a VAT table's gross
 * column over its total).
 */
function completions(
  doc: Doc,
  total: Candidate,
  pool: Candidate[],
  change: number[],
  nets: number[],
  taxes: number[],
): Set<number> {
  const out = payments(pool, change);
  for (const n of nets) for (const t of taxes) if (n > 0 && t > 0) out.add(n + t);
  const line = doc.lines[total.lineIndex]!;
  const cell = total.cell === undefined ? undefined : line.cells[total.cell];
  if (cell) {
    let sum = 0;
    let rows = 0;
    for (let up = total.lineIndex - 1; up >= Math.max(0, total.lineIndex - 10); up--) {
      const prev = doc.lines[up]!;
      if (prev.page !== line.page) break;
      const hit = prev.cells.find((c) => c.x0 < cell.x1 && c.x1 > cell.x0);
      if (!hit) continue; // a speck OCR read as a line of its own, off the column
      const a = findAmounts(hit.text, { allowIntegers: true });
      if (a.length !== 1 || a[0]!.printedDecimals !== 2) break;
      sum += a[0]!.minor;
      rows++;
    }
    if (rows >= 2) out.add(sum);
  }
  return out;
}

type LabelKind = 'labelStrong' | 'labelDue' | 'labelWeakInclTax' | 'labelWeak';

/** The total words OCR most often misreads by one letter on receipts ("SUNME", "Bstrag", "TOTAI"), and one it cuts. */
const OCR_TOTAL_WORDS = ['summe', 'total', 'betrag', 'gesamt'];
/** Real words one letter away from those, which are not totals. */
const NOT_TOTAL_WORDS = new Set(['beitrag', 'summa', 'totale', 'totals']);

/** One letter substituted, inserted or dropped (words of five letters or more), or a total word cut at its end. */
function ocrTotalWord(label: string): boolean {
  for (const w of label.match(/[a-z0-9$]+/g) ?? []) {
    if (w === 'tota') return true;
    if (w.length < 5 || NOT_TOTAL_WORDS.has(w)) continue;
    if (OCR_TOTAL_WORDS.some((t) => editDistance(w, t) <= 1)) return true;
  }
  return false;
}

/** Negative label words that an including-tax word beside them overrides. */
const SOFT_NEGATIVE = /^(?:paid|total net|net total|net amount|netto|nettobetrag)$/;

/** Which kind of grand-total label a text is; null when it names something else. */
export function totalLabelKind(label: string): LabelKind | null {
  // A till's "PAY : 557", "NET PAY": what is to be paid, alone as its label.
  if (/^\s*(?:net\s+)?pay\s*:?\s*$/.test(label)) return 'labelDue';
  const strong = TOTAL_STRONG.test(label);
  const weak = TOTAL_WEAK.test(label) || (!strong && ocrTotalWord(label));
  if (!strong && !weak) return null;
  const includesTax = INCLUDES_TAX.test(label);
  // "Total Net TTC", "Total paid with VAT": a word that usually names a partial or paid sum, overridden by one that
  // says the tax is in it.
  const negative = TOTAL_NEGATIVE.exec(label);
  if (negative && !(includesTax && (strong || SOFT_NEGATIVE.test(negative[0])))) return null;
  if (!strong && TAX_LINE.test(label) && !includesTax) return null;
  if (strong) return DUE_ONLY.test(label) ? 'labelDue' : 'labelStrong';
  return includesTax ? 'labelWeakInclTax' : 'labelWeak';
}

/** Scores a label text for "this is the grand total"; null when it names something else. */
export function totalLabelScore(label: string): number | null {
  const kind = totalLabelKind(label);
  return kind ? AMOUNT_WEIGHTS[kind] : null;
}

/** Words that may follow a total phrase inside its label: tax and currency words, articles, conjunctions. */
const LABEL_FILLER =
  /^(?:incl\w*|inkl\w*|inclusive|including|exkl\w*|excl\w*|vat|tax\w*|mwst|ust|tva|iva|btw|gst|ttc|brutto|gross|net|netto|euro\w*|dollar\w*|with|mit|avec|con|all|alle|tous|the|der|die|das|des|les|und|and|per|pour|fur|amount|betrag|montant|importe|importo|bedrag|due|payable|pay|paid|zahlen|payer|pagar|pagare|betalen|invoice|rechnung|facture|fattura|factura|factuur)$/;

/** How many words of text stand between the last total phrase of a label and its amount. */
function wordsAfterTotalPhrase(label: string): number {
  let end = -1;
  for (const re of [TOTAL_STRONG, TOTAL_WEAK]) {
    const g = new RegExp(re.source, 'g');
    for (let m = g.exec(label); m; m = g.exec(label)) {
      end = Math.max(end, m.index + m[0].length);
      if (!m[0].length) g.lastIndex++;
    }
  }
  if (end < 0) return 0;
  const rest = label.slice(end).match(/\p{L}{3,}/gu) ?? [];
  return rest.filter((w) => !LABEL_FILLER.test(w) && !KNOWN_CURRENCIES.has(w.toUpperCase())).length;
}

interface Candidate {
  amount: ParsedAmount;
  score: number;
  features?: AmountFeatures;
  lineIndex: number;
  currency: string | null;
  /** The label that named it a total (folded). */
  label?: string;
  /** Its cell on the line. */
  cell?: number;
  /** The currency code heading its column, where a header row names one per column ("USD | EUR"). */
  columnCurrency?: string;
}

/** A bare currency code in a header cell: "USD", "(EUR)", "in CHF". */
const HEADER_CODE = /^\W*(?:in\s+)?([A-Z]{3})\W*$/;

/**
 * Header rows that name a currency per column ("AMOUNT / USD | EUR" over "119.95 | 109.15"): an invoice in one
 * currency that also prints its amounts converted into another. Maps the header line to its cells' codes.
 */
function currencyHeaders(doc: Doc): Map<number, Array<{ x0: number; x1: number; code: string }>> {
  const out = new Map<number, Array<{ x0: number; x1: number; code: string }>>();
  doc.lines.forEach((line, i) => {
    const heads = line.cells
      .map((c) => ({ x0: c.x0, x1: c.x1, code: HEADER_CODE.exec(c.text)?.[1] ?? '' }))
      .filter((h) => KNOWN_CURRENCIES.has(h.code));
    if (heads.length >= 2 && new Set(heads.map((h) => h.code)).size === heads.length) out.set(i, heads);
  });
  return out;
}

/** The currency heading the column of cell `j` of line `i`: a currency header row at most eight lines above. */
function columnCurrencyOf(
  doc: Doc,
  headers: ReturnType<typeof currencyHeaders>,
  i: number,
  j: number,
): string | undefined {
  if (!headers.size) return undefined;
  const line = doc.lines[i]!;
  const cell = line.cells[j]!;
  for (let up = i - 1; up >= Math.max(0, i - 8); up--) {
    if (doc.lines[up]!.page !== line.page) return undefined;
    const head = headers.get(up);
    if (!head) continue;
    const mid = (cell.x0 + cell.x1) / 2;
    const near = head.reduce((a, b) =>
      Math.abs((a.x0 + a.x1) / 2 - mid) <= Math.abs((b.x0 + b.x1) / 2 - mid) ? a : b,
    );
    return near.x0 < cell.x1 + 20 && near.x1 > cell.x0 - 20 ? near.code : undefined;
  }
  return undefined;
}

/**
 * A value under a total-like column header that is one row of a table, not its sum: other values of the column stand
 * between it and the header ("Gesamtbetrag" over one row per VAT rate), or the next line holds a value of the same
 * column that is not itself labelled a total (the next row).
 */
function tableRow(doc: Doc, i: number, cell: Cell, rowsAbove: number): boolean {
  if (rowsAbove > 0) return true;
  const below = cellBelow(doc, i, cell.x0, cell.x1, 1);
  if (!below || below[0] !== i + 1) return false;
  const next = doc.lines[below[0]]!;
  if (!findAmounts(next.cells[below[1]]!.text).length) return false;
  const nextLabel = doc.folded[below[0]]!.slice(0, below[1]).join(' ');
  return totalLabelKind(nextLabel) === null && !PAYMENT_LABEL.test(nextLabel);
}

/** The currency the page declares it is paid in: "Payment currency: USD", "Währung: EUR", "Devise : CHF". */
const DECLARED_CURRENCY = new RegExp(`${CURRENCY_LABEL.source}\\s*:?\\s+([a-z]{3})(?![a-z])`);

/**
 * The grand total: amounts whose label (text to their left on the line, or the cell above) names a total, ranked by
 * label strength, then later position (totals close the document, on its last page), then the rightmost column.
 */
export function findTotal(
  doc: Doc,
  context: {
    invoiceNumber?: string | null;
    /** Other weights than the hand-set ones (eval/fit-amount.ts compares a fitted model with them). */
    weights?: Record<AmountFeature, number>;
    /** Receives the ranked candidates and their features (eval/fit-amount.ts). */
    onCandidates?: (list: Array<{ minor: number; features: AmountFeatures }>) => void;
  } = {},
): FieldGuess<AmountGuess> | null {
  // The invoice number's digits: an "amount" made of them is the number read under the wrong header.
  const numberDigits = context.invoiceNumber?.replace(/\D/g, '') ?? '';
  // Change handed back ("Rückgeld", "Change"): the cash line is what was tendered, not the total.
  const changeGiven = doc.folded.some((cells) => CHANGE_LABEL.test(cells.join(' ')));
  const cands: Candidate[] = [];
  const deposits: number[] = [];
  const previous: number[] = [];
  const change: number[] = [];
  const nets: number[] = [];
  const taxes: number[] = [];
  const tips: number[] = [];
  const allAmounts: Candidate[] = [];
  const fallback: Candidate[] = [];
  const headers = currencyHeaders(doc);
  doc.lines.forEach((line, i) => {
    const cellsF = doc.folded[i]!;
    const lineAmounts: Array<{ cell: number; a: ParsedAmount }> = [];
    line.cells.forEach((cell, j) => {
      // A whole number counts where the cell is the figure alone, or a total's or payment's label and its figure
      // ("PAY :557", "Total: 1250" on a till receipt that prints no cents).
      const labelled = /^\s*(\p{L}[\p{L} .]{1,29}?)\s*:\s*\d[\d.,]*\s*$/u.exec(cell.text);
      const labelFolded = labelled ? foldAligned(labelled[1]!).trim() : '';
      const only =
        /^[^\p{L}]*(?:[A-Z]{3}|Rs\.?|lei|Fr\.)?[^\p{L}]*$/u.test(cell.text) ||
        (labelled !== null &&
          (totalLabelKind(labelFolded) !== null || /(?<![a-z])(?:pay|paid|to pay)$/.test(labelFolded)));
      // "PAY :557": the figure glued to its label's colon (which a time, "9:42", also has) stands apart once spaced.
      let spaced = labelled && only ? cell.text.replace(/:(?=\d)/, ': ') : cell.text;
      // A total whose decimal separator OCR lost ("VALOR TOTAL R$ | 439 97"): two digits after a space are its cents
      // where the page writes its cents after that separator (no thousands group has two digits).
      const lostSeparator = /^(\D{0,3}?\s?\d{1,3}) (\d{2})\s*$/.exec(cell.text);
      if (lostSeparator && doc.decimalHint && j > 0 && totalLabelKind(cellsF.slice(0, j).join(' ').trim()) !== null)
        spaced = `${lostSeparator[1]}${doc.decimalHint}${lostSeparator[2]}`;
      // OCR puts a space after the decimal comma ("SUMME | EUR | 16, 66"): two digits after it close the amount.
      const spacedDecimal = /^(\D{0,3}?\s?-?\d{1,3})([.,]) (\d{2})(\s*[A-Z*]?)$/.exec(spaced);
      if (spacedDecimal && (doc.decimalHint ?? spacedDecimal[2]) === spacedDecimal[2])
        spaced = `${spacedDecimal[1]}${spacedDecimal[2]}${spacedDecimal[3]}${spacedDecimal[4]} `;
      const shift = spaced.length - cell.text.length;
      for (const a of findAmounts(spaced, { allowIntegers: only, decimalHint: doc.decimalHint })) {
        lineAmounts.push({ cell: j, a: shift ? { ...a, index: a.index - shift } : a });
      }
    });
    if (!lineAmounts.length) return;
    const lineCur = lineAmounts.find((x) => x.a.currency)?.a.currency ?? null;
    const lastCell = lineAmounts[lineAmounts.length - 1]!.cell;
    for (const [k, { cell: j, a }] of lineAmounts.entries()) {
      // A quantity with its unit ("Total Consumption | 490 | m3", "1,234 kWh"): no money.
      const after = `${cellsF[j]!.slice(a.index + a.raw.length)} ${cellsF[j + 1] ?? ''}`;
      if (!a.currency && QUANTITY_UNIT.test(after)) continue;
      const before = cellsF[j]!.slice(0, a.index);
      // The label is the nearest run of text cells on the left, over any values in between ("Total | 1 | 278.61 |
      // 319.00" in a table's sum row): "Termin | 22.01. | Kunde | 25070" labels 25070 "Kunde" only.
      let to = j;
      while (to > 0 && isValueCell(line.cells[to - 1]!.text)) to--;
      let from = to;
      while (from > 0 && !isValueCell(line.cells[from - 1]!.text)) from--;
      let label = `${cellsF.slice(from, to).join('  ')}  ${before}`.trim();
      // The label may sit in the cell above (boxed summaries: "Total amount" over its value).
      let aboveKind: LabelKind | null = null;
      let columnSum = false;
      // Amounts of the same column between this value and its header (a totals table's rows).
      const columnAbove: number[] = [];
      // Currency codes and symbols between values ("70,00 | EUR | 518,99") are not a label.
      const labelWords = label.replace(/(?<![a-z])(?:[a-z]{3}|rs|lei|fr)(?![a-z])/g, (w) =>
        KNOWN_CURRENCIES.has(w.toUpperCase()) || /^(rs|lei|fr)$/.test(w) ? ' ' : w,
      );
      // OCR and some PDFs put a label and its value a few pixels apart, on two "lines": the last text cell of a line
      // whose middle is within about a line height, left of the value and with nothing right of it, is its label.
      let nearLabel = false;
      if (!/\p{L}{3}/u.test(labelWords) && line.cells.slice(0, j).every((c) => !/\p{L}{4}/u.test(c.text))) {
        const cell = line.cells[j]!;
        const mid = (line.y0 + line.y1) / 2;
        for (const n of [i - 1, i + 1]) {
          const near = doc.lines[n];
          if (!near || near.page !== line.page || Math.abs((near.y0 + near.y1) / 2 - mid) > 1.2 * line.size) continue;
          const last = near.cells[near.cells.length - 1]!;
          if (
            last.x1 < cell.x0 &&
            !isValueCell(last.text) &&
            !findAmounts(near.text).length &&
            /\p{L}{3}/u.test(last.text)
          ) {
            label = doc.folded[n]![near.cells.length - 1]!;
            nearLabel = true;
            break;
          }
        }
      }
      if (!nearLabel && !/\p{L}{3}/u.test(labelWords) && i > 0) {
        // Walk up over value rows of the same column (a totals table: header, then one row per VAT rate, then
        // the sum) to the header cell.
        for (let up = i - 1; up >= Math.max(0, i - 6); up--) {
          const prev = doc.lines[up]!;
          if (prev.page !== line.page) break;
          const cell = line.cells[j]!;
          let hit = prev.cells.findIndex((c) => c.x0 < cell.x1 + 5 && c.x1 > cell.x0 - 5);
          // A header row over values printed at its columns' right edges: the header of the column it falls in.
          let byColumn = false;
          if (hit < 0 && up === i - 1) {
            hit = columnCell(prev, cell.x0, cell.x1, 0);
            byColumn = hit >= 0;
          }
          const above = hit >= 0 ? findAmounts(prev.cells[hit]!.text, { allowIntegers: true }) : [];
          if (above.length) {
            columnAbove.push(above[above.length - 1]!.minor);
            continue;
          }
          if (
            hit >= 0 &&
            (byColumn || cellBelow(doc, up, prev.cells[hit]!.x0, prev.cells[hit]!.x1, i - up)?.[0] !== undefined)
          ) {
            const kind = totalLabelKind(doc.folded[up]![hit]!);
            if (kind !== null && !findAmounts(prev.text).length) {
              aboveKind = kind;
              // The last row of a column that adds up the rows above it is the column's sum: "Endbetrag" over
              // one row per VAT rate, then their total.
              columnSum = columnAbove.length >= 2 && columnAbove.reduce((x, y) => x + y, 0) === a.minor;
            }
            label = doc.folded[up]![hit]!;
            break;
          }
        }
      }
      // A header stacked over two or three lines ("TOTAL" over "AMOUNT" over the row of the VAT columns' "% AMOUNT"):
      // the walk up stopped at a generic word of a neighbouring column; read the whole header above this value.
      if (aboveKind === null && !/\p{L}{3}/u.test(labelWords) && totalLabelKind(label) === null) {
        const stacked = labelAbove(doc, i, j);
        const kind = stacked !== null ? totalLabelKind(stacked) : null;
        if (kind !== null && stacked !== null) {
          aboveKind = kind;
          label = stacked;
        }
      }
      const labelKind = aboveKind ?? totalLabelKind(label);
      const pos = (line.page - 1) / Math.max(doc.pages, 1) + line.rel;
      const rightmost = j === lastCell && k === lineAmounts.length - 1;
      const columnCurrency = a.currency || lineCur ? undefined : columnCurrencyOf(doc, headers, i, j);
      const currency = a.currency ?? lineCur ?? columnCurrency ?? null;
      if (DEPOSIT.test(label)) deposits.push(Math.abs(a.minor));
      // A credit carried over counts against what is due ("Credit carried forward -£15.34", the minus before the sign).
      if (PREVIOUS_BALANCE.test(label))
        previous.push(
          /[-–]\s*\p{Sc}?\s*$|(?<![a-z])credit (?:brought|carried)/u.test(label) ? -Math.abs(a.minor) : a.minor,
        );
      if (CHANGE_LABEL.test(label)) change.push(Math.abs(a.minor));
      if (NET_LABEL.test(label)) nets.push(a.minor);
      else if (TAX_LINE.test(label) && !INCLUDES_TAX.test(label)) taxes.push(a.minor);
      else if (TIP_LABEL.test(label) && !totalLabelKind(label)) tips.push(a.minor);
      allAmounts.push({ amount: a, score: 0, lineIndex: i, currency: a.currency ?? lineCur, cell: j });
      const idFeatures: AmountFeatures = {};
      if (numberDigits.length >= 4 && a.raw.replace(/\D/g, '') === numberDigits) idFeatures.equalsNumber = 1;
      const header = !/\p{L}{3}/u.test(labelWords) ? labelAbove(doc, i, j) : null;
      if (header && ID_HEADER.test(header) && !totalLabelKind(header)) idFeatures.idColumn = 1;
      if (labelKind === null && PAYMENT_LABEL.test(label) && !TOTAL_NEGATIVE.test(label) && a.minor > 0) {
        // A receipt's payment line ("Kreditkarte 17,06", "Bar 20,00"): the total paid, unless change was given.
        const features: AmountFeatures = { labelPayment: 1, position: pos, ...idFeatures };
        if (a.printedDecimals === 0 && !a.currency) features.bareInteger = 1;
        if (changeGiven) features.tendered = 1;
        if (rightmost) features.rightmost = 1;
        else features.notRightmost = 1;
        if (currency) features.currency = 1;
        cands.push({ amount: a, score: 0, features, lineIndex: i, currency, label, cell: j });
        continue;
      }
      if (labelKind === null) {
        if (currency && a.minor !== 0 && !TAX_LINE.test(label) && !TOTAL_NEGATIVE.test(label)) {
          const bare = a.printedDecimals === 0 && !a.currency ? { bareInteger: 1 } : {};
          fallback.push({
            amount: a,
            score: 0,
            features: { unlabelled: 1, ...bare, ...idFeatures },
            lineIndex: i,
            currency,
          });
        }
        continue;
      }
      const features: AmountFeatures = { [labelKind]: 1, position: pos, ...idFeatures };
      if (!aboveKind && !nearLabel && wordsAfterTotalPhrase(label) >= 3) features.labelFar = 1;
      // A whole number without a currency where the page prints its amounts with decimals: "TOTAL 1" read off a
      // receipt whose figures OCR lost.
      if ((nearLabel || doc.decimalHint) && a.printedDecimals === 0 && !a.currency && !lineCur)
        features.bareInteger = 1;
      if (aboveKind) features.labelAbove = 1;
      if (columnSum) features.columnSum = 1;
      else if (aboveKind && tableRow(doc, i, line.cells[j]!, columnAbove.length)) features.tableRow = 1;
      if (rightmost) features.rightmost = 1;
      else features.notRightmost = 1;
      if (a.minor === 0) features.zero = 1;
      if (currency) features.currency = 1;
      cands.push({ amount: a, score: 0, features, lineIndex: i, currency, label, cell: j, columnCurrency });
    }
  });
  // Arithmetic: an amount equal to a net/subtotal line plus a tax line is the grand total, whatever its label says.
  const sumMatch = arithmeticTotal(doc, nets, taxes, allAmounts, tips);
  const strongEnough = (c: Candidate) => amountScore(c.features ?? {}) >= 0.85;
  if (sumMatch && !cands.some((c) => c.amount.minor === sumMatch.amount.minor && strongEnough(c))) {
    cands.push({ ...sumMatch, features: cands.length ? { arithmeticOnly: 1 } : { arithmeticNoLabels: 1 } });
  }
  // A credit note (titled so, or most printed amounts negative) may print its total negative; elsewhere a negative
  // amount is a deduction, not the total.
  const negatives = allAmounts.filter((c) => c.amount.minor < 0).length;
  const head = doc.folded.slice(0, 40).flat().join(' ');
  const credit = CREDIT_TITLE.test(head) || negatives * 2 > allAmounts.length;
  const creditNote = CREDIT_NOTE_TITLE.test(head);
  if (!credit) {
    for (const c of cands) if (c.amount.minor < 0) c.features!.negative = 1;
    for (let k = fallback.length - 1; k >= 0; k--) if (fallback[k]!.amount.minor < 0) fallback.splice(k, 1);
  }
  // Cash tendered less the change handed back is the total paid ("Bar 10,00 / Rückgeld 2,84" → 7,16).
  for (const c of [...cands]) {
    if (!c.features?.tendered) continue;
    for (const ch of change) {
      const paid = allAmounts.findLast((x) => ch > 0 && x.amount.minor === c.amount.minor - ch);
      if (paid) cands.push({ ...paid, features: { changeArithmetic: 1, position: c.features.position ?? 0 } });
    }
  }
  // Arithmetic between totals: a labelled total that equals another labelled total (or a net line) plus some other
  // amount on the page (its tax) is the grand total of the two ("Total 150.00 / VAT 30.00 / Total 180.00").
  if (cands.length > 1) {
    const others = new Set(allAmounts.map((c) => c.amount.minor).filter((m) => m > 0));
    const bases = [...cands.map((c) => c.amount.minor), ...nets].filter((m) => m > 0);
    for (const c of cands) {
      const m = c.amount.minor;
      if (c.features?.arithmeticOnly || c.features?.arithmeticNoLabels) continue;
      if (m > 0 && bases.some((b) => b < m && others.has(m - b) && m - b < b)) c.features!.sumsUp = 1;
    }
  }
  // A row of totals under their headers ("GROSS AMOUNT | DISCOUNT | TAXABLE AMOUNT | VAT | TOTAL AMOUNT"): it reads
  // left to right up to the grand total, so a total-headed value with another one right of it is a step on the way.
  for (const c of cands) {
    if (!c.features?.labelAbove || c.cell === undefined) continue;
    if (cands.some((o) => o !== c && o.lineIndex === c.lineIndex && o.features?.labelAbove && (o.cell ?? -1) > c.cell!))
      c.features.leftOfRowTotal = 1;
  }
  // Agreement: a total or payment line whose amount another such line repeats (not cash tendered, not arithmetic, not
  // rows under one column header: "Line Total" over two items of the same price is no repeated total).
  const labelled = cands.filter(
    (c) => !c.features?.tendered && !c.features?.arithmeticOnly && !c.features?.labelAbove && c.label !== undefined,
  );
  for (const c of labelled) {
    if (c.amount.minor !== 0 && labelled.some((o) => o.lineIndex !== c.lineIndex && o.amount.minor === c.amount.minor))
      c.features!.agreement = 1;
  }
  const pool = cands.length ? cands : fallback;
  if (!pool.length) return null;
  const rescore = () => {
    for (const c of pool) c.score = amountScore(c.features ?? {}, context.weights);
  };
  // Sizes compare by absolute value on a credit note.
  const size = (c: Candidate) => (credit ? Math.abs(c.amount.minor) : c.amount.minor);
  if (!cands.length) {
    // No total label at all: the largest amount with a currency, at low confidence (identifiers and bare
    // integers behind the ones printed as money).
    rescore();
    pool.sort((x, y) => y.score - x.score || size(y) - size(x));
  } else {
    // Among equally labelled totals prefer the largest: subtotals and partial sums are smaller.
    const maxMinor = Math.max(...pool.map(size));
    for (const c of pool) if (size(c) === maxMinor) c.features!.largest = 1;
    rescore();
    pool.sort((x, y) => y.score - x.score || y.lineIndex - x.lineIndex);
  }
  context.onCandidates?.(pool.map((c) => ({ minor: c.amount.minor, features: { ...c.features } })));
  let best = pool[0]!;
  // Amounts printed in two currencies, a column each: the one the page says it is paid in, else the first column
  // (the invoice's own; the next converts it "for reference").
  if (best.columnCurrency) {
    const declared = doc.folded
      .map((cells) => DECLARED_CURRENCY.exec(cells.join('  '))?.[1]?.toUpperCase())
      .find((c) => c && KNOWN_CURRENCIES.has(c));
    const siblings = pool.filter((c) => c.lineIndex === best.lineIndex && c.columnCurrency);
    const pick = declared
      ? siblings.find((c) => c.columnCurrency === declared)
      : siblings.reduce((a, b) => ((a.cell ?? 0) <= (b.cell ?? 0) ? a : b));
    if (pick) best = pick;
  }
  // The bill's own total beside what is due with a balance carried from the last bill: due less that balance, where
  // the page prints it (a credit carried forward lowers what is due: the own total is then larger).
  const ownTotal = (due: Candidate) =>
    allAmounts.find((c) => previous.some((p) => p !== 0 && c.amount.minor === due.amount.minor - p));
  // A deposit or payment already made: "Total 1,000 / Deposit -300 / Amount due 700". The grand total is the
  // labelled amount that equals the chosen one plus a deposit line's amount.
  if (cands.length && deposits.length) {
    // On a negative invoice (a correction) the deposit counts the other way: "Total -100 / Acompte -10 / Net -90".
    const sign = best.amount.minor < 0 ? -1 : 1;
    const bigger = pool.find(
      (c) => c.score > 0.6 && deposits.some((d) => c.amount.minor === best.amount.minor + sign * d),
    );
    if (bigger) best = bigger;
    else if (
      best.features?.labelDue &&
      // A payment beside a balance carried over from the last bill settled that bill, when the page prints the bill's
      // own total: that total is taken below, not what is due plus the payment.
      !ownTotal(best) &&
      new Set(deposits).size === 1 &&
      deposits[0]! > 0 &&
      !allAmounts.some((c) => c.amount.minor === best.amount.minor - sign * deposits[0]!)
    ) {
      // The total itself is unreadable (OCR lost its label or its decimal point): what is due plus what was paid.
      // Not when the page also prints the due amount less the payment: then the chosen one is the total.
      best = {
        ...best,
        amount: { ...best.amount, minor: best.amount.minor + sign * deposits[0]! },
        score: best.score - 0.1,
      };
    }
  }
  // A balance carried over from earlier invoices: "Previous balance 220 / Amount due 440": this invoice's own total
  // is the amount due less that balance, when the page prints it (as a total or an amount that includes tax).
  if (previous.length && DUE_ONLY.test(best.label ?? '')) {
    const own = ownTotal(best);
    if (own) best = { ...own, score: best.score - 0.05 };
  }
  // OCR drops a last digit ("SUMME EUR 16.6" for 16,62): a total read with one decimal digit where its currency has two
  // is completed from arithmetic on the page that begins with it. Only one completion may fit.
  if (best.amount.printedDecimals === 1 && best.amount.decimals === 2) {
    const sums = completions(doc, best, pool, change, nets, taxes);
    const fit = [...sums].filter(
      (v) => v !== best.amount.minor && Math.trunc(v / 10) === Math.trunc(best.amount.minor / 10),
    );
    if (fit.length === 1)
      best = { ...best, amount: { ...best.amount, minor: fit[0]!, printedDecimals: 2 }, score: best.score - 0.1 };
  } else if (best.amount.minor >= 100 && best.amount.printedDecimals === best.amount.decimals) {
    // OCR drops a leading digit too ("TOTAL 4.90" where cash 50.00 less change 35.10 paid 14.90): a total that the
    // page's arithmetic repeats with one more digit in front is completed, when only one completion fits.
    const read = String(best.amount.minor);
    const sums = completions(doc, best, pool, change, nets, taxes);
    // One digit more in front (bounded: a leading digit much larger than the total's own scale is another sum).
    const fit = [...sums].filter(
      (v) =>
        String(v).length === read.length + 1 &&
        String(v).endsWith(read) &&
        v < 10 * best.amount.minor + 10 ** read.length,
    );
    if (fit.length === 1) best = { ...best, amount: { ...best.amount, minor: fit[0]! }, score: best.score - 0.1 };
  }
  // OCR reads one digit of the total as its look-alike ("TOTAL 12.53" under "VISA TEND 72.53 / CHANGE DUE 0.00"): a
  // total that what was tendered less the change does not give is the payment with that single digit changed, if
  // only one fits (payments only: a net plus a tax, or a column's sum, may be another figure of the page).
  if (best.amount.minor >= 100 && best.amount.printedDecimals === best.amount.decimals && change.length) {
    const paid = payments(pool, change);
    const read = String(best.amount.minor);
    const fit = paid.has(best.amount.minor) ? [] : [...paid].filter((v) => lookAlikeDigit(read, String(v)));
    if (fit.length === 1) best = { ...best, amount: { ...best.amount, minor: fit[0]! }, score: best.score - 0.1 };
  }
  // Agreement between several total lines raises confidence.
  const agree = pool.filter((c) => c.amount.minor === best.amount.minor && c.score > 0.5).length;
  const confidence = Math.min(0.97, best.score + (agree > 1 ? 0.04 : 0));
  return {
    value: {
      minor: creditNote ? Math.abs(best.amount.minor) : best.amount.minor,
      decimals: best.amount.decimals,
      printedDecimals: best.amount.printedDecimals,
      ...(best.amount.printedDecimals === 3 && /^\D*\d{1,3}[.,]\d{3}\D*$/.test(best.amount.raw)
        ? { grouped: Math.abs(Number(best.amount.raw.replace(/\D/g, ''))) }
        : {}),
      currency: best.currency,
      lineIndex: best.lineIndex,
    },
    confidence,
  };
}
