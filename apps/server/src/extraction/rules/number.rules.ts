import type { FieldGuess } from '../extraction.types';
import { findDates } from './date.parser';
import { cellBelow, type Doc, labelAbove, leftLabel } from './document';
import { ibanShaped } from './iban';
import { INVOICE_REFERENCE, NUMBER_LABEL, NUMBER_NEGATIVE } from './labels';

const TITLE_LINE =
  /(?<![a-z])(?:invoice|tax invoice|credit note|\w*rechnung|gutschrift|facture|avoir|fattura|nota di credito|factura|factuur|creditnota|faktura|lasku)(?![a-z])/;

/** A bare "Number" / "Nummer" / "No." label (or two, bilingual: "No / No.:"): in an invoice's meta block, the document's own number (weakly). */
const BARE_NUMBER =
  /^\s*(?:(?:number|nummer|numero|numar|nr|no|n[°º])\.?\s*\/\s*)?(?:number|nummer|numero|numar|nr|no|n[°º])\.?\s*:?\s*$/;

const BARE_NUMBER_INLINE = /^\s*(?:(?:number|nummer|numero|numar|n[°º])\s*:|n[°º]\.?)\s*(?=\S)/;

const SPECIFIC = /(no|nr|number|nummer|num|numero|numar|#|n\.?°|n\.?º|id)\.?\s*:?\s*$/;
// A restaurant till's bill number heads its cell ("Check #208", "Chk 4411"): a weak label, below any invoice number.
const WEAK_LABEL =
  /(?<![a-z])(reference|referenz|référence|reference|riferimento|referencia|referinta|referentie|booking id|document|ref(?=\.)|txn|transaction (?:no|number|#|id)|trans\.? (?:no|#)|^(?:check|chk)(?:\s*#)?(?=\s*\d))(?![a-z])/;

/**
 * A first invoice numbered "1" (a small firm's or a new series'): one digit is never an identifier elsewhere, so it
 * is taken only right after an invoice-number label, and only when nothing else is found.
 */
function oneDigit(token: string, specific: boolean): boolean {
  return specific && /^#?\d$/.test(token.trim());
}

/** A running number, month and year: "2/11/2023" (Polish and Czech numbering, read as a date elsewhere). */
const SLASH_NUMBER = /^(?:[A-Z]{1,4}\/)?\d{1,6}\/\d{1,2}\/\d{4}$/;

/** A token that can be an invoice number: has a digit, is not a date, amount, IBAN, phone number or percentage. */
export function plausibleNumber(token: string, labelled = false): boolean {
  const t = token.trim();
  if (t.length < 2 || t.length > 40) return false;
  if (!/\d/.test(t)) return false;
  if (ibanShaped(t.replace(/\s/g, ''))) return false; // IBAN
  // A phone number: an area code of 0 and a non-zero digit, and seven digits at least ("0005-00011643" is a
  // zero-padded series, "014-03" a short running number).
  // Not under a number's own label ("NUMAR BON: 0217-00060"): a phone is labelled as one.
  if (!labelled && /^\+|^\(?0[1-9]\d{1,3}\)?[\s/-]\d/.test(t) && t.replace(/\D/g, '').length >= 7) return false; // phone
  if (/%$/.test(t)) return false;
  // A masked card number ("XXXXXXXXXXXX0041", "**** **** **** 1234"): the card's last digits, not the document's.
  if (/^(?:[x*•·.]{2,}[\s-]?)+\d{2,6}$/i.test(t)) return false;
  if (/^\d{1,3}([.,]\d{3})*[.,]\d{2}$/.test(t)) return false; // an amount
  if (/[€$£]/.test(t)) return false;
  const dates = findDates(t);
  if (dates.some((d) => d.length >= t.length - 1)) return false;
  if (/^[a-z]+$/i.test(t)) return false;
  return true;
}

export function firstToken(rest: string): string | null {
  // A value that starts with a date is a date ("16 de octubre de 2023"), not a number; one that runs on past the date
  // without a space ("2024-03-10t172205") is an identifier made from a timestamp.
  if (
    findDates(rest).some(
      (d) =>
        rest.slice(0, d.index).trim().replace(/[:#]/g, '') === '' &&
        !/^[\p{L}\d_]/u.test(rest.slice(d.index + d.length)),
    )
  )
    return null;
  // "Daňový doklad č. (Invoice No): 2406000590": a label's translation in brackets before the value.
  const cleaned = rest
    .replace(/^\s*\([^()\d]{1,40}\)/, '')
    // "INVOICE # | 74075710-5": a box's border OCR read as "|" or "[" between label and value.
    .replace(/^[\s:#.°º\-–|[\]]+/, '')
    .replace(/^(?:n[°oº]|no|nr|num|number)\b[.:\s]*/i, '');
  const trimmed = cleaned.trim();
  // A Brazilian NF-e's number, nine digits zero-padded in groups ("Nº 000.001.452", "000,001,452"): no amount starts so.
  const nfe = /^0\d{2}([.,])\d{3}\1\d{3}(?![\d.,])/.exec(trimmed);
  if (nfe) return nfe[0];
  const m = /^[A-Za-z0-9][\w\-/.]*[A-Za-z0-9]|^\d/.exec(trimmed);
  if (!m) return null;
  // "FA 2024-001", "INV 0042/24": a short upper-case series prefix, a space, then the digits belong together.
  const series = /^([A-Z]{1,4})\s([0-9][\w\-/.]*[A-Za-z0-9]|[0-9])(?![.,'\s]?\d)/.exec(trimmed);
  if (series && m[0] === series[1]) {
    const token = `${series[1]} ${series[2]!.replace(/[.,;]+$/, '')}`;
    return withSpacedTail(token, trimmed.slice(series[0].length));
  }
  // "2024 0042": a number printed in groups of four or more digits (an amount groups by three: "1 234,56").
  const grouped = /^\d{3,}(?: \d{4,})+(?![\d.,])/.exec(trimmed);
  if (grouped && grouped[0].length > m[0].length) return grouped[0];
  // "32,440.06": the start of an amount, not an identifier.
  if (/^[.,'\s]\d/.test(trimmed.slice(m[0].length))) return null;
  return withSpacedTail(m[0].replace(/[.,;]+$/, ''), trimmed.slice(m[0].length));
}

/**
 * A number printed with spaces around its slash ("RE 2024 / 139", "2024 / 0042"): the part after it belongs to it,
 * when it is a short run of letters and digits that ends there (not "94165608 / 30.08.2018", a number and a date).
 */
function withSpacedTail(token: string, after: string): string {
  const tail = /^\s+\/\s+([A-Za-z0-9]{2,10})(?![\w.,/-])/.exec(after);
  if (tail && /\d/.test(tail[1]!)) return `${token} / ${tail[1]}`;
  // A point of sale and its running number ("00003 - 00003668", Argentina's AFIP invoices): digits on both sides.
  const run = /^\s+[-–]\s+(\d{4,12})(?![\w.,/-])/.exec(after);
  return run && /^\d{1,6}$/.test(token) ? `${token} - ${run[1]}` : token;
}

/** Score of a column header as an invoice-number label, or null: it must name the invoice's number and nothing else. */
export function headerNumberScore(header: string): number | null {
  if (BARE_NUMBER.test(header)) return 0.6;
  const m = NUMBER_LABEL.exec(header);
  if (!m || NUMBER_NEGATIVE.test(header)) return null;
  if (/(?<![a-z])(date|datum|data|fecha|dato)(?![a-z])/.test(header)) return null;
  // Anything but a few characters around the label ("Invoice", "Invoice no.", "N° facture :") is another text.
  if (header.replace(m[0], '').replace(/[\s:#.°º]/g, '').length > 3) return null;
  return SPECIFIC.test(m[0]) || /[#°º]|\b(?:no|nr|n)\b/.test(header) ? 0.88 : 0.8;
}

/** What follows a number label that also labels the date printed after the number: "/-datum", " / Date:". */
const NUMBER_AND_DATE = /^\s*\/\s*-?\s*(?:datum|date|data|fecha)\s*:?\s*$/;

/**
 * The invoice number: the token after an invoice-number label in the same cell, the next cell, or the cell below.
 * Labels of customer, order and VAT numbers in the same cell disqualify it; the token must look like an identifier.
 */
export function findInvoiceNumber(doc: Doc): FieldGuess<string> | null {
  let best: { value: string; score: number; line: number } | null = null;
  const consider = (value: string | null, score: number, line: number, labelled = false) => {
    if (!value || !plausibleNumber(value, labelled)) return;
    if (!best || score > best.score + 1e-9) best = { value, score, line };
  };
  doc.lines.forEach((line, i) => {
    line.cells.forEach((cell, j) => {
      const f = doc.folded[i]![j]!;
      // The number of another invoice this one refers to (credit notes, corrections).
      if (INVOICE_REFERENCE.test(f)) return;
      // A value under its column header: "Invoice no. | Date" over "2024-0042 | 01.02.2024", a header wrapped over
      // two lines ("Invoice" / "No."), a label printed over its value in a side column.
      if (/\d/.test(cell.text) && !NUMBER_LABEL.test(f) && !leftLabel(doc, i, j, 8)) {
        const above = labelAbove(doc, i, j);
        const score = above === null ? null : headerNumberScore(above);
        if (score !== null) consider(firstToken(cell.text), score - 0.01 * line.rel, i);
        // "Rechnungsnummer / Datum" over "94165608 / 30.08.2018": one header for two values, part by part.
        const parts = above?.split(/\s+\/\s+/);
        const values = cell.text.split(/\s+\/\s+/);
        if (parts && parts.length > 1 && parts.length === values.length) {
          parts.forEach((part, k) => {
            const partScore = headerNumberScore(part);
            if (partScore !== null) consider(firstToken(values[k]!), partScore - 0.01 * line.rel, i);
          });
        }
      }
      // "Nummer | R338224", "Number: 2024-0042" in a meta block.
      const nextToken = BARE_NUMBER.test(f) && line.cells[j + 1] ? firstToken(line.cells[j + 1]!.text) : null;
      if (nextToken && plausibleNumber(nextToken)) {
        consider(nextToken, 0.6 - 0.01 * line.rel, i);
        return;
      }
      const bare = BARE_NUMBER_INLINE.exec(f);
      const bareToken = bare ? firstToken(cell.text.slice(bare[0].length)) : null;
      if (bareToken && plausibleNumber(bareToken)) {
        consider(bareToken, 0.6 - 0.01 * line.rel, i);
        return;
      }
      const m = NUMBER_LABEL.exec(f);
      if (m) {
        const before = f.slice(0, m.index);
        const labelText = f.slice(0, (m.index ?? 0) + m[0].length);
        if (NUMBER_NEGATIVE.test(labelText) && !/^\s*$/.test(before) && NUMBER_NEGATIVE.test(before)) return;
        if (NUMBER_NEGATIVE.test(m[0])) return;
        // "Fecha de factura", "Data fattura", "Invoice date": a date label, not a number label; "Rechnungsnr./-datum",
        // "Invoice No. / Date" label both, the number first.
        const numberAndDate = NUMBER_AND_DATE.test(f.slice((m.index ?? 0) + m[0].length));
        if (
          !numberAndDate &&
          /(?<![a-z])(date|datum|data|fecha|dato)(?![a-z])/.test(
            f.slice(Math.max(0, (m.index ?? 0) - 12), (m.index ?? 0) + m[0].length + 8),
          )
        )
          return;
        const specific = SPECIFIC.test(m[0]) || /^\s*[:#]/.test(f.slice((m.index ?? 0) + m[0].length));
        const base = specific ? 0.9 : 0.62;
        let rest = cell.text.slice((m.index ?? 0) + m[0].length);
        // A bilingual label ("Rechnung Nr. / Invoice No."): the second language's label is no value; read on.
        const second = /^\s*\/\s*/.exec(f.slice((m.index ?? 0) + m[0].length));
        if (second) {
          const after = f.slice((m.index ?? 0) + m[0].length + second[0].length);
          const again = NUMBER_LABEL.exec(after);
          if (again?.index === 0 && !after.slice(again[0].length).replace(/[\s:#.]/g, '')) rest = '';
        }
        if (numberAndDate) rest = '';
        if (/^\s*(date|datum|data|fecha|du|vom)\b/i.test(foldStart(rest))) return;
        const inCell = firstToken(rest);
        if (inCell && (specific || /^\s*[:#]?\s*\S/.test(rest)) && plausibleNumber(inCell, specific)) {
          consider(inCell, base + (line.page === 1 ? 0.02 : 0) - 0.01 * line.rel, i, specific);
          return;
        }
        // "Rechnungsnummer:6": one digit in the label's own cell, taken only when nothing else is found.
        if (inCell && oneDigit(inCell, specific)) {
          best ??= { value: inCell.trim().replace(/^#/, ''), score: base - 0.15, line: i };
          return;
        }
        // "Rechnung (380) Nr. 4711", "Facture d'acompte n° 12": a number marker shortly after the label.
        const marker = /^.{0,50}?(?<![A-Za-z_])(?:nr|no|n°|nº|num|number|#)(?![A-Za-z_])\.?\s*:?\s*(?=\S)/i.exec(rest);
        if (marker) {
          const tok = firstToken(rest.slice(marker[0].length));
          if (tok && plausibleNumber(tok)) {
            consider(tok, base + 0.1, i);
            return;
          }
        }
        // Nothing but punctuation after the label (":", "#", the "**" of text converted from Markdown).
        if (rest.trim().replace(/[:#.*\s]/g, '')) return;
        // "Beleg-Nr | : | R87654321012345": skip a cell holding only the colon.
        const nextIdx = /^[\s:#.]*$/.test(line.cells[j + 1]?.text ?? 'x') ? j + 2 : j + 1;
        const nextCell = line.cells[nextIdx];
        // A value far to the right with its own label printed above it belongs to that label (a title beside a
        // side column of label/value stacks).
        const foreign = nextCell && nextCell.x0 - cell.x1 > 8 * line.size && labelAbove(doc, i, nextIdx) !== null;
        const next = nextCell && !foreign ? firstToken(nextCell.text) : null;
        if (next && plausibleNumber(next, specific)) {
          consider(next, base - 0.01 * line.rel, i, specific);
          return;
        }
        if (next && oneDigit(next, specific)) {
          best ??= { value: next, score: base - 0.15, line: i };
          return;
        }
        const below = cellBelow(doc, i, cell.x0, cell.x1, 1);
        if (below) {
          const value = doc.lines[below[0]]!.cells[below[1]]!.text.trim();
          if (oneDigit(value, specific)) {
            best ??= { value: value.replace(/^#/, ''), score: base - 0.15, line: i };
            return;
          }
          // Polish and Czech invoices number themselves by month: "Numer faktury" over "2/11/2023".
          if (/faktur/.test(m[0]) && SLASH_NUMBER.test(value)) best ??= { value, score: base - 0.1, line: i };
          else consider(firstToken(value), base - 0.05, i);
        }
        return;
      }
      // "Handelsrechnung (380) | Nr. 471102": a bare number marker on the line of the document title.
      // The Czech "Faktura | č. 2016001" writes its marker with a dot (folded "c.").
      if (/^(?:(?:nr|no|n°|nº|num|#)\.?|c\.)\s*:?\s*\S/.test(f) && TITLE_LINE.test(doc.folded[i]!.join(' '))) {
        consider(firstToken(cell.text.replace(/^\S*?(?:(?:nr|no|n°|nº|num|#)\.?|[cč]\.)\s*:?/i, '')), 0.78, i);
      }
      // A heading "# 12345" or weak labels (booking id, reference) as a last resort.
      if (j === 0 && /^#\s*\S/.test(cell.text)) consider(firstToken(cell.text.slice(1)), 0.5, i);
      const w = WEAK_LABEL.exec(f);
      if (w && !NUMBER_NEGATIVE.test(f.slice(0, w.index))) {
        const rest = cell.text.slice((w.index ?? 0) + w[0].length);
        const tok = firstToken(rest) ?? (line.cells[j + 1] ? firstToken(line.cells[j + 1]!.text) : null);
        if (tok && plausibleNumber(tok)) consider(tok, 0.35, i);
        else {
          const below = cellBelow(doc, i, cell.x0, cell.x1, 1);
          if (below) consider(firstToken(doc.lines[below[0]]!.cells[below[1]]!.text), 0.33, i);
        }
      }
    });
  });
  const b = best as { value: string; score: number } | null;
  return b ? { value: b.value, confidence: Math.min(0.95, b.score) } : null;
}

function foldStart(s: string): string {
  return s.trim().slice(0, 12).toLowerCase();
}
