/**
 * Features of a grand-total candidate and their weights: a candidate's score is the sum of weight × feature. The
 * weights are set by hand today and kept here, in one place, so that a model fitted offline (a logistic regression on
 * the real-world dev corpus and the generated families, see eval/) can replace them without touching the rules.
 * Every feature is 0/1 unless its comment says otherwise.
 */
export const AMOUNT_FEATURES = [
  /** Labelled by a strong grand-total phrase ("Grand total", "Rechnungsbetrag", "Total TTC"). */
  'labelStrong',
  /** A strong label that names only what is due ("Amount due", "Zu zahlen"): differs when a deposit was paid. */
  'labelDue',
  /** A bare "Total" / "Summe" with an including-tax word ("Total incl."). */
  'labelWeakInclTax',
  /** A bare "Total" / "Summe" / "Betrag". */
  'labelWeak',
  /** The label sits in the cell above, not on the left. */
  'labelAbove',
  /** The last row of a column whose rows above add up to it. */
  'columnSum',
  /** Under a total-like column header but one row of its table: other rows stand above or below it in the column. */
  'tableRow',
  /** Under a total-like column header with another total-headed value right of it on its row (a totals row). */
  'leftOfRowTotal',
  /** Where on the document: (page - 1) / pages + position on the page (0 top .. 1 bottom); totals close it. */
  'position',
  /** The rightmost amount of its line (the sum column); 'notRightmost' otherwise. */
  'rightmost',
  'notRightmost',
  /** Zero. */
  'zero',
  /** A currency printed with it or on its line. */
  'currency',
  /** The largest of the labelled candidates. */
  'largest',
  /** Negative on a document that is not a credit note. */
  'negative',
  /** Equals a net line plus a tax line, the only evidence (no total label printed with it). */
  'arithmeticOnly',
  /** The same, on a page where no amount carries a total label. */
  'arithmeticNoLabels',
  /** No total label: an amount with a currency (used only when no labelled candidate exists). */
  'unlabelled',
  /** Its digits are the invoice number's (a number under an "Invoice No." header read as an amount). */
  'equalsNumber',
  /** Its column is headed by an identifier label ("No.", "Invoice #", "Ref"), not an amount label. */
  'idColumn',
  /** An unlabelled whole number without a currency of its own (an identifier in a row of values). */
  'bareInteger',
  /** Equals another total (or a net line) plus another amount of the page: the sum of the two. */
  'sumsUp',
  /** A receipt's payment line ("Kreditkarte", "Bar", "Visa"): the amount paid. */
  'labelPayment',
  /** A payment line on a page that gives change back: the cash tendered, more than the total. */
  'tendered',
  /** Cash tendered less the change given back, printed on the page. */
  'changeArithmetic',
  /** On a receipt-like page (till receipt): the label is a receipt total word ("Summe", "Bar", "Total"). */
  'receiptTotal',
  /** Three or more words stand between the total phrase and the amount: a sentence that mentions a total ("the
   * amount still due after this instalment will be 128.00"), as explanation pages and terms print, not a label. */
  'labelFar',
  /** Another labelled total or payment line, on another line, prints the same amount ("SUMME 12,07 / MasterCard
   * 12,07"): a receipt repeats its total, and OCR seldom misreads both copies the same way. */
  'agreement',
] as const;

export type AmountFeature = (typeof AMOUNT_FEATURES)[number];
export type AmountFeatures = Partial<Record<AmountFeature, number>>;

/** Hand-set weights. eval/fit-amount.ts fits a replacement; it is shipped (as JSON) only once it beats these on dev. */
export const AMOUNT_WEIGHTS: Record<AmountFeature, number> = {
  labelStrong: 0.9,
  labelDue: 0.86,
  labelWeakInclTax: 0.8,
  labelWeak: 0.7,
  labelAbove: -0.05,
  columnSum: 0.04,
  tableRow: -0.3,
  leftOfRowTotal: -0.25,
  position: 0.03,
  rightmost: 0.02,
  notRightmost: -0.04,
  zero: -0.2,
  currency: 0.01,
  largest: 0.015,
  negative: -0.05,
  arithmeticOnly: 0.84,
  arithmeticNoLabels: 0.8,
  unlabelled: 0.3,
  equalsNumber: -0.5,
  idColumn: -0.3,
  receiptTotal: 0.05,
  bareInteger: -0.2,
  labelPayment: 0.66,
  tendered: -0.4,
  changeArithmetic: 0.68,
  sumsUp: 0.06,
  labelFar: -0.3,
  agreement: 0.1,
};

export function amountScore(features: AmountFeatures, weights: Record<AmountFeature, number> = AMOUNT_WEIGHTS): number {
  let s = 0;
  for (const [f, x] of Object.entries(features) as Array<[AmountFeature, number]>) s += (weights[f] ?? 0) * x;
  return s;
}
