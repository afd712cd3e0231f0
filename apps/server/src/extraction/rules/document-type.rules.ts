import type { DocumentType, FieldGuess } from '../extraction.types';
import type { Doc } from './document';
import {
  DATE_LABEL,
  DOCUMENT_TITLE_PATTERNS,
  type DocumentTitleType,
  INVOICE_REFERENCE,
  NUMBER_LABEL,
  TAX_LINE,
  TOTAL_STRONG,
  TOTAL_WEAK,
} from './labels';
import { findAmounts } from './money.parser';

/**
 * What kind of document this is, read from its content: the title (its words in the seven languages, where it
 * stands, how large it is printed) first, then cues of each kind (a payable total, signatures, quantities delivered
 * without prices, opening and closing balances, change handed back). A kind's words in running text or in a label
 * ("the invoice will follow", "Invoice address", "Purchase order: 4711") only mention another document and weigh
 * little. Unsure: an invoice when there is a total to pay or an invoice's labels, else other.
 */

const TYPES = Object.keys(DOCUMENT_TITLE_PATTERNS) as DocumentTitleType[];

const GLOBAL: Record<DocumentTitleType, RegExp> = Object.fromEntries(
  TYPES.map((t) => [t, new RegExp(DOCUMENT_TITLE_PATTERNS[t].source, 'g')]),
) as Record<DocumentTitleType, RegExp>;

const NUMBER = String.raw`(?:[#\-–/|]\s*)?(?:(?:n[°ºo]?|nr|no|num|numero|numar|number|nummer|ref)\.?\s*)?[\p{L}\d\-/._]*\d[\p{L}\d\-/._]*`;
const DATE_AFTER = String.raw`(?:\s*[-–,]\s*|\s*(?:vom|du|del|de|dated|of|from|din|van)\s+)[\p{L}\d\-/., ]{6,20}`;

/**
 * What may follow a title in its cell: a number, with or without its label, and its date ("Rechnung Nr. 2024-17 vom
 * 3. März 2024", "Invoice #12 - 05/03/2024", "Facture du 11/12/2022").
 */
const NUMBERED_TAIL = new RegExp(`^(?:${NUMBER}(?:${DATE_AFTER})?|${DATE_AFTER})$`, 'u');

/** "Your contract", "Votre contrat": a bill's section about the contract it bills, not a contract's title. */
const POSSESSIVE = /^(?:your|ihr|ihre|ihres|votre|vos|il vostro|vostro|su|uw|dumneavoastra)$/;

/** Cues of each kind that are no title: they add up to a title's weight at most. */
const CUES: Partial<Record<DocumentTitleType, { re: RegExp; each: number; cap: number }>> = {
  contract: {
    re: /(?<![a-z])(?:signature|signed|unterschrift\w*|unterzeichn\w*|signe|firma|firmato|semnatura|handtekening|ondertekend|in witness whereof|the parties|die parteien|vertragsparteien|les parties|le parti|las partes|partile|partijen|hereby agree|term of (?:this )?agreement)(?![a-z])/g,
    each: 0.75,
    cap: 1.5,
  },
  // A Mexican CFDI of the type "E - Egreso" (money going back to the customer): a credit note under any title, as
  // strong as one.
  credit_note: {
    re: /(?<![a-z])(?:(?:tipo de )?comprobante\s*:?\s*(?:e\s*-\s*)?egreso)(?![a-z])/g,
    each: 2.5,
    cap: 2.5,
  },
  delivery_note: {
    re: /(?<![a-z])(?:quantity delivered|delivered quantity|qty delivered|qty shipped|shipped qty|gelieferte menge|liefermenge|quantite livree|quantita consegnata|cantidad entregada|cantitate livrata|geleverd aantal|geleverde hoeveelheid|received by)(?![a-z])/g,
    each: 0.75,
    cap: 1.5,
  },
  payment_reminder: {
    re: /(?<![a-z])(?:overdue|past due|still (?:open|outstanding|unpaid)|uberfallig|ueberfaellig|noch offen|nicht beglichen|mahngebuhr\w*|impayee?s?|en retard|reste impaye|scadut[oa]|non pagat[oa]|vencid[oa]|pendiente de pago|restant[ae]?|neachitat\w*|achterstallig|openstaand|nog niet (?:betaald|ontvangen))(?![a-z])/g,
    each: 0.5,
    cap: 1,
  },
  statement: {
    re: /(?<![a-z])(?:opening balance|closing balance|balance forward|anfangssaldo|endsaldo|alter saldo|neuer saldo|solde initial|solde final|ancien solde|nouveau solde|saldo iniziale|saldo finale|saldo inicial|saldo final|sold initial|sold final|beginsaldo|eindsaldo|nieuw saldo)(?![a-z])/g,
    each: 0.75,
    cap: 1.5,
  },
  // A till's or a card terminal's words: change handed back (not a "tipo de cambio", an exchange rate), cash, the
  // terminal and its trace numbers, the count of articles, the customer's copy, thanks for shopping, the sales
  // associate and the tip, bottle deposits, goods weighed at a price per kilo, the card that paid; Japanese tills'
  // change (お釣), cash taken (預り) and cash total (現計); Indonesian, Portuguese, Polish, Italian, Spanish, Vietnamese
  // and Philippine tills' cash, change, cashier and slip.
  receipt: {
    re: /(?<![a-z])(?:ruckgeld|rueckgeld|wechselgeld|zuruck|bargeld|gegeben|bar|change(?: due)?|tend(?:ered)?|cash|monnaie rendue|rendu|especes|contanti|resto|efectivo|(?<!tipo de |tasa de )cambio|entregado|numerar|wisselgeld|contant|terminal(?:-?id)?|trace(?:-?nr)?|approval|genehmigungs?-?nr|kartenzahlung|ec-?karte|girocard|kontaktlos|contactless|cashier|kassierer\w*|kasse|bon-?nr|kundenbeleg|beleg aufbewahren|tse|items? sold|anzahl artikel|nombre d.articles|customer copy|kundenkopie|copie client|thank you for (?:shopping|your purchase|your visit)|vielen dank fur ihren einkauf|merci de votre visite|grazie e arrivederci|gracias por su compra|gracias por su visita|bedankt voor uw aankoop|sales associate|tip|gratuity|trinkgeld|pourboire|propina|mancia|fooi|posten|pfand|leergut|eur\/kg|master ?card|visa|maestro|eftpos|chip read|pin verified|verified by pin|auth(?:orization)? code|approved|tvr|tsi|sale|tunai|kembali(?:an)?|kasir|struk|troco|dinheiro|cupom fiscal|operador|reszta|gotowka|kasjer|scontrino|documento commerciale|cajero|tien mat|tien thua|thu ngan|tien khach tra|kasininkas|grynaisiais|kvitas|kassa|total items?|vatable|vat sales|お釣|おつり|釣銭|お?預り?|現計|レシート)(?![a-z])/g,
    each: 0.5,
    cap: 2,
  },
};

export interface DocumentTypeHints {
  /** The total rules found a total (amount.rules.ts). */
  total?: boolean;
}

export function findDocumentType(doc: Doc, hints: DocumentTypeHints = {}): FieldGuess<DocumentType> | null {
  if (!doc.lines.length) return null;
  const sizes = doc.lines.map((l) => l.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 1;
  const best: Record<DocumentTitleType, number> = Object.fromEntries(TYPES.map((t) => [t, 0])) as never;
  const rest: Record<DocumentTitleType, number> = Object.fromEntries(TYPES.map((t) => [t, 0])) as never;
  let firstPageLines = 0;
  let payable = false;
  let taxLines = 0;
  doc.lines.forEach((line, i) => {
    if (line.page === 1) firstPageLines++;
    const cellsF = doc.folded[i]!;
    const lineText = cellsF.join('  ');
    const hasAmount = line.cells.some((c) => findAmounts(c.text, { decimalHint: doc.decimalHint }).length > 0);
    if (hasAmount && (TOTAL_STRONG.test(lineText) || TOTAL_WEAK.test(lineText))) payable = true;
    if (hasAmount && TAX_LINE.test(lineText)) taxLines++;
    cellsF.forEach((f, j) => {
      for (const type of TYPES) {
        const re = GLOBAL[type];
        re.lastIndex = 0;
        for (let m = re.exec(f); m; m = re.exec(f)) {
          if (!m[0].trim()) {
            re.lastIndex++;
            continue;
          }
          const w = weigh(doc, i, j, m.index, m[0].length, median, firstPageLines, type);
          // Another invoice named by a credit note or a reminder ("Gutschrift zu Rechnung 12") is no title of this one.
          const weight = type === 'invoice' && INVOICE_REFERENCE.test(f) ? Math.min(w, 0.15) : w;
          if (weight > best[type]) {
            rest[type] += best[type];
            best[type] = weight;
          } else rest[type] += weight;
        }
      }
    });
  });
  const all = doc.foldedText;
  const score = {} as Record<DocumentTitleType, number>;
  for (const type of TYPES) {
    score[type] = best[type] + Math.min(1, 0.15 * rest[type]);
    const cue = CUES[type];
    if (cue) {
      const distinct = new Set(all.match(cue.re) ?? []);
      score[type] += Math.min(cue.cap, distinct.size * cue.each);
    }
  }
  // A till's slip is a narrow strip: page 1's text at least twice as tall as it is wide (measured on the real-world
  // dev corpus: till receipts 1.7–4.4, no invoice above 1.9; A4 and Letter pages give 1.3–1.7).
  if (stripShape(doc) >= 2) score.receipt += 1.5;
  // A till prints the time of the sale beside its date.
  if (CLOCK_TIME.test(all)) score.receipt += 0.4;
  const hasTotal = payable || hints.total === true;
  // Prices to pay make an invoice more likely and a bare delivery note less.
  if (hasTotal) {
    score.invoice += 0.5;
    score.delivery_note -= 0.75;
  }
  if (taxLines === 0 && !hasTotal) score.receipt -= 0.5;
  // A statement with an amount to pay and no balances carried is a bill ("Billing statement", a utility's statement).
  if (best.statement >= 2 && hasTotal && !all.match(CUES.statement!.re)) score.statement = Math.min(score.statement, 1);
  const ranked = TYPES.map((t) => [t, score[t]] as const).sort((a, b) => b[1] - a[1]);
  const titled = ranked.filter(([t]) => best[t] >= 2 && score[t] >= 1.5);
  // A title decides, the kind with the most evidence among the titled ones; without one, cues as strong as a title.
  const pick = titled[0] ?? ranked.find(([t, s]) => t !== 'invoice' && s >= 2.25);
  if (pick) {
    const [top, topScore] = pick;
    const second = ranked.find(([t]) => t !== top)![1];
    return { value: top, confidence: round(Math.max(0.4, Math.min(0.95, 0.55 + (topScore - second) / 6))) };
  }
  const [top, topScore] = ranked[0]!;
  // No title: a till receipt by its cues, an invoice by its total or its labels, else something else.
  if (score.receipt >= 1.4 && score.receipt > score.invoice) return { value: 'receipt', confidence: 0.5 };
  const invoiceLabels = all.split('\n').some((l) => NUMBER_LABEL.test(l) || DATE_LABEL.test(l));
  // A total and the time of the sale, and nothing of an invoice's own (no invoice word, no number or date label): a
  // till's slip whose other cues OCR lost ("6/10/2019 13:59", "Sales Associate", "Total $2,516.28").
  if (hasTotal && !invoiceLabels && best.invoice === 0 && CLOCK_TIME.test(all) && score.receipt >= 0.8)
    return { value: 'receipt', confidence: 0.45 };
  if (hasTotal || score.invoice > 0 || invoiceLabels) return { value: 'invoice', confidence: hasTotal ? 0.5 : 0.35 };
  if (topScore >= 1) return { value: top, confidence: 0.35 };
  // Too little text to tell (a photo OCR could hardly read): unknown, which counts and is filed like an invoice,
  // rather than 'other', which would keep a receipt out of the sums and the drive on a bad reading.
  const words = all.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length;
  if (words < MIN_WORDS_FOR_OTHER) return null;
  return { value: 'other', confidence: 0.3 };
}

/**
 * Whether a document looks like a till's slip at all: a narrow strip of text, or two of a till's or a card
 * terminal's words. Cheaper and looser than the document type; the vendor rules ask it before trusting a chain's name.
 */
export function receiptLike(doc: Doc): boolean {
  return stripShape(doc) >= 1.7 || new Set(doc.foldedText.match(CUES.receipt!.re) ?? []).size >= 2;
}

/** Page 1's text block, height over width (0 with fewer than ten lines: too little to tell a shape). */
function stripShape(doc: Doc): number {
  const first = doc.lines.filter((l) => l.page === 1);
  if (first.length < 10) return 0;
  const x0 = Math.min(...first.flatMap((l) => l.cells.map((c) => c.x0)));
  const x1 = Math.max(...first.flatMap((l) => l.cells.map((c) => c.x1)));
  const y0 = Math.min(...first.map((l) => l.y0));
  const y1 = Math.max(...first.map((l) => l.y1));
  return x1 > x0 ? (y1 - y0) / (x1 - x0) : 0;
}

/** A clock time ("13:59", "17:53:57"), as a till prints it beside the date of the sale. */
const CLOCK_TIME = /(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d:])/;

/** Words a document needs before the absence of every financial sign makes it 'other'. */
const MIN_WORDS_FOR_OTHER = 40;

/**
 * How strongly a kind's words at [start, start+length) of cell `j` of line `i` say what the document is: as a title
 * (the cell holds them alone, or with a number) near the top of the first page or in large type, strongly; as a
 * label ("Invoice address:"), a little; inside a sentence, hardly.
 */
function weigh(
  doc: Doc,
  i: number,
  j: number,
  start: number,
  length: number,
  median: number,
  firstPageLines: number,
  type: DocumentTitleType,
): number {
  const line = doc.lines[i]!;
  const folded = doc.folded[i]![j]!;
  const before = folded.slice(0, start).trim();
  // "Purchase order: 4711", "Lieferschein-Nr.: 12": a colon makes a label, not a title.
  const after = folded.slice(start + length).trim();
  // A title naming two kinds at once ("RECHNUNG / LIEFERSCHEIN", "Invoice & Delivery note"): a title of both, and
  // the cues (a total to pay) decide between them.
  const pairedBefore = /^[\p{L} ]{3,25}\s*[/&+|]$/u.test(before) && titleOfAnyKind(before.slice(0, -1).trim());
  const pairedAfter = /^[/&+|]\s*[\p{L} ]{3,25}$/u.test(after) && titleOfAnyKind(after.slice(1).trim());
  const shortBefore =
    pairedBefore || (before.length <= 12 && before.split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length <= 1);
  const whole = shortBefore && (after === '' || pairedAfter || NUMBERED_TAIL.test(after));
  if (!whole || (type === 'contract' && POSSESSIVE.test(before))) {
    // A label ("Invoice address", "Purchase order: 4711") or a mention in running text.
    return folded.length <= 40 && shortBefore ? 0.5 : 0.15;
  }
  // A bare title weighs more than one with its number: "Lieferschein Nr. 12" is as often another document's reference.
  let w = after === '' ? 2 : 1.5;
  if (line.size >= 1.25 * median) w += 1.5;
  const original = line.cells[j]!.text.slice(start, start + length);
  if (/\p{Lu}{3}/u.test(original) && original === original.toUpperCase()) w += 0.5;
  // The title heads the first page: near its top, or among its first lines.
  if (line.page === 1 && (line.rel < 0.35 || firstPageLines <= 12)) w += 1;
  if (line.page > 1) w *= 0.5;
  // A title sits alone on its line or beside its number and date, not in a row of a table.
  if (line.cells.length > 4) w *= 0.6;
  return w;
}

/** Whether `text` is, whole, the title words of some document kind. */
function titleOfAnyKind(text: string): boolean {
  return TYPES.some((t) => {
    const m = DOCUMENT_TITLE_PATTERNS[t].exec(text);
    return m !== null && m[0].trim() === text;
  });
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * UNTDID 1001 document type codes of e-invoices (EN 16931 lists the ones allowed): the credit notes; every other code
 * an e-invoice may carry is an invoice of some kind (commercial, corrected, prepayment, self-billed, debit note...).
 */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

export function documentTypeFromCode(
  code: string | null,
  syntax?: string,
  totalMinor?: number | null,
): DocumentType | null {
  if (syntax === 'UBL-CreditNote') return 'credit_note';
  const c = code?.trim();
  if (!c) return null;
  if (CREDIT_NOTE_CODES.has(c)) return 'credit_note';
  // A corrected invoice (384) that pays money back is a credit in effect.
  if (c === '384' && (totalMinor ?? 0) < 0) return 'credit_note';
  if (/^\d{1,3}$/.test(c)) return 'invoice';
  return null;
}
