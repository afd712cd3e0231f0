import type { FieldGuess } from '../extraction.types';
import { findDates } from './date.parser';
import { columnCell, type Doc, labelAbove, leftLabel } from './document';
import { DATE_LABEL, DATE_NEGATIVE, DATE_WEAK, INVOICE_REFERENCE, NUMBER_LABEL } from './labels';

/** A connector between two date labels naming one date ("/", "=", "and", "und", "et", "bzw."), then the other label. */
const BOTH = /^\s*\(?\s*(?:[/=&+]|and|und|bzw\.?|oder|et|ou|e|y|en|si|sau)\s*(?:\p{L}+[\s.-]*){1,3}$/u;

/** A weekday name just before a date (folded). */
const WEEKDAY_TAIL =
  /(?<![a-z])(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonnabend|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica|lunes|martes|miercoles|jueves|viernes|sabado|domingo|luni|marti|miercuri|joi|vineri|sambata|duminica|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag)\.?,?\s*$/;

/** Prepositions that only introduce a date ("le", "am", "du", "vom", "del", "din", "on", "op"). */
const PREPOSITION = /^\s*(?:le|am|au|du|vom|del|din|on|op|il|el|la|per)\s*:?\s*$/;

/** A place name and a comma (optionally "den", "le", "il", "el", "op", "am") in front of a date. */
const PLACE_DATE = /^\s*\p{L}[\p{L} .'’-]{1,30},\s*(?:(?:den|le|il|el|op|am|on)\b\s*)?$/u;

const TITLE_OR_NUMBER =
  /(?<![a-z])(?:invoice|\w*rechnung(?:s-?korrektur)?|gutschrift|credit note|facture|avoir|fattura|nota di credito|factura|factuur|creditnota)(?![a-z])/;

/**
 * An order or delivery date ("Bestelldatum", "Leveringstid", "Order placed"): not the issue date, but on a receipt or
 * an order's invoice that prints no other date it is the day of the purchase, better than none (lowest score).
 */
const PURCHASE_DATE =
  /(?<![a-z])(?:order(?:ed)?|order date|order placed|bestell\w*|commande|ordine|pedido|deliver\w*|lever\w*|liefer\w*|livraison|consegna|entrega)(?![a-z])[^a-z]*$/;

/** Position just after the last match of `re` in `s`, or -1. */
function lastEnd(re: RegExp, s: string): number {
  const g = new RegExp(re.source, 'g');
  let end = -1;
  for (const m of s.matchAll(g)) end = (m.index ?? 0) + m[0].length;
  return end;
}

/** A number and its marker alone ("Nº 25-3398 ", "No. 4711 "), as stands between a document's name and "del"/"of". */
const OTHER_DOCUMENT_NUMBER = /^\s*(?:n\W{0,2}|nr\.?|no\.?|num\.?|#)?\s*[\p{L}\d./-]*\d[\p{L}\d./-]*\s*$/u;

/** The label nearest to the value decides: "Invoice date 01.02. Due date" → the due label wins for a later date. */
function labelScore(label: string): number | null {
  const tail = label.slice(-60);
  const strong = lastEnd(DATE_LABEL, tail);
  const neg = lastEnd(DATE_NEGATIVE, tail);
  const weak = lastEnd(DATE_WEAK, tail);
  const num = lastEnd(NUMBER_LABEL, tail);
  const top = Math.max(strong, neg, weak, num);
  if (top < 0) return null;
  if (strong === top || (strong >= 0 && strong >= neg)) return 0.9;
  // "Rechnungsdatum = Leistungsdatum", "Invoice date / tax point", "Date de facture et de livraison": one date for both.
  if (strong >= 0 && neg > strong && BOTH.test(tail.slice(strong, top))) return 0.85;
  if (neg === top) return null;
  // "Due date", "Order date": a negative word right before the generic "date" word.
  if (weak === top) {
    // Or another document's number between its name and the date word ("De Albarán Nº 25-3398 del", "Order No. 4711
    // of").
    if (neg >= 0 && (weak - neg < 14 || OTHER_DOCUMENT_NUMBER.test(tail.slice(neg, weak).replace(/\p{L}+\s*$/u, ''))))
      return null;
    // "Data comenzii", "Datum Lieferung": a generic date word qualified by a word we do not know.
    return /\p{L}{3}/u.test(tail.slice(weak)) ? 0.45 : 0.7;
  }
  return 0.6;
}

/** True when the line below holds a date in the same column as cell `j` of line `i`: a table's date column. */
function dateColumnRow(doc: Doc, i: number, j: number): boolean {
  const line = doc.lines[i]!;
  const next = doc.lines[i + 1];
  if (!next || next.page !== line.page) return false;
  const cell = line.cells[j]!;
  const hit = columnCell(next, cell.x0, cell.x1, 0.6 * line.size);
  if (hit < 0) return false;
  // The cell below is itself a date (not a sentence that mentions one).
  const text = next.cells[hit]!.text.trim();
  return findDates(text).some((d) => d.length >= 0.6 * text.length);
}

/**
 * The issue date: dates labelled as invoice/issue date (same cell, the cell to the left, or the cell above), then
 * dates next to a generic "date" word or the invoice number, then the first unlabelled date on the first page.
 * Due, order, delivery and service-period dates are skipped by their labels.
 */
export function findInvoiceDate(doc: Doc): FieldGuess<string> | null {
  let best: { iso: string; score: number; line: number } | null = null;
  const consider = (iso: string, score: number, line: number) => {
    if (!best || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && line < best.line)) {
      best = { iso, score, line };
    }
  };
  doc.lines.forEach((line, i) => {
    line.cells.forEach((cell, j) => {
      const dates = findDates(cell.text, doc.dayOrder);
      let prevEnd = 0;
      let prevStart = -1;
      for (const d of dates) {
        const f = doc.folded[i]![j]!;
        // "Freitag, 5. Dezember 2025", "le jeudi 5 décembre": a weekday belongs to the date, not to its label.
        let label = f.slice(prevEnd, d.index).replace(WEEKDAY_TAIL, '');
        prevEnd = d.index + d.length;
        // A date range ("01.05.14-31.05.14", "01.05. – 31.05.2024") is a service period.
        const next = dates[dates.indexOf(d) + 1];
        const gapBefore = prevStart >= 0 && /^\s*(?:[-–]|bis|to|au|al|tot|pana la)\s*$/.test(label);
        const gapAfter = next && /^\s*(?:[-–]|bis|to|au|al|tot|pana la)\s*$/.test(f.slice(prevEnd, next.index));
        prevStart = d.index;
        if (gapBefore || gapAfter) continue;
        // "1.-30.11.2017", "1-30/11": the end of a range whose start is a bare day.
        if (/(?<![\d.])\d{1,2}\.?\s?[-–]\s?$/.test(f.slice(0, d.index))) continue;
        // The date of another invoice this one refers to ("Gutschrift zu Rechnung Nr. 12 vom 05.11.2025").
        if (INVOICE_REFERENCE.test(f.slice(0, d.index))) continue;
        // The cell to the left is a label only when it is not itself a value (table rows hold values side by side).
        let left = j > 0 && !/\d/.test(doc.folded[i]![j - 1]!) ? doc.folded[i]![j - 1]! : null;
        // A far cell on the left (a title beside a side column) yields to a label printed right above the value.
        if (left && !leftLabel(doc, i, j, 8)) {
          const above = labelAbove(doc, i, j);
          if (above !== null && (labelScore(above) !== null || DATE_NEGATIVE.test(above))) left = null;
        }
        if (!/\p{L}{2}/u.test(label) && left) label = left;
        // "Date d'échéance | le 5 janvier 2026", "Fällig | am 05.02.": a bare preposition in the value's cell only
        // continues the label on its left.
        else if (left && PREPOSITION.test(label)) label = `${left} ${label}`;
        // "ZUGFeRD-Version | : 2.1 vom 24.03.2020": a bare "vom/du/of" in the value's cell reads with the label on its
        // left, which may name another date. A cell that starts with its own "Date :" is labelled by itself, whatever
        // stands left of it ("Bill To:- | Date : 10 Feb 2026").
        else if (
          left &&
          DATE_WEAK.test(label) &&
          !DATE_LABEL.test(label) &&
          !/^\s*(?:date|datum|data|fecha)\s*:/.test(label) &&
          DATE_NEGATIVE.test(left)
        )
          continue;
        let score = labelScore(label);
        // Letter style "München, den 12. März 2024", "Lyon, le 10/09/2024", "Milano, 08.10.24": the place of issue and
        // the date, near the top of the first page.
        if (
          score === null &&
          PLACE_DATE.test(label) &&
          line.page === 1 &&
          line.rel < 0.45 &&
          !DATE_NEGATIVE.test(label)
        )
          score = 0.8;
        if (score === null && !/\p{L}{2}/u.test(label)) {
          // Column header over the value: "Invoice Date: | Due Date:" over "03/20/2023 | 04/04/2023", a label wrapped
          // over two lines, or a label printed above its value.
          // A line above that holds a date of its own ("Returns with receipt thru 6/19/2010") labels that date only.
          const over = labelAbove(doc, i, j);
          const above = over !== null && findDates(over, doc.dayOrder).length ? null : over;
          // A "Date" column of a table (service dates per item): the header labels every row, not the invoice.
          if (above !== null && !dateColumnRow(doc, i, j)) {
            const s = labelScore(above);
            // A title wrapped before its date ("Gutschrift Nr. 471102 vom" over "05.03.2018") counts as the title line.
            if (s !== null) score = s < 0.9 && TITLE_OR_NUMBER.test(above) ? s + 0.06 : s - 0.02;
            else if (DATE_NEGATIVE.test(above)) {
              if (PURCHASE_DATE.test(above)) consider(d.iso, 0.01, i);
              continue;
            }
            // Under some other text (a receipt's footer, "Anzahl Artikel" over "09:48 02.03.2020"): an unlabelled date,
            // below every labelled one.
            else if (/\p{L}{3}/u.test(above)) score = 0.1;
          }
        }
        if (score === null) {
          if (/\p{L}{3}/u.test(label) && DATE_NEGATIVE.test(label)) {
            if (PURCHASE_DATE.test(label.slice(-40))) consider(d.iso, 0.01, i);
            continue;
          }
          score = line.page === 1 ? 0.35 - 0.1 * line.rel : 0.2;
        }
        // A date in running prose ("… A compter du 1er janvier 2013, tout acheteur qui …", the terms in a footer)
        // is no document date, whatever generic "du/vom/le" stands before it: below every unlabelled date.
        // Prose: at least five words of small letters before the date (a till's "KASSE 3 BON 12 Datum" is none).
        if (
          score < 0.9 &&
          f.length >= 60 &&
          (cell.text.slice(0, d.index).match(/(?<![\p{L}\d])\p{Ll}{3,}(?![\p{L}\d])/gu)?.length ?? 0) >= 5
        )
          score = 0.05;
        if (d.ambiguous) score -= 0.03;
        // A date read through an OCR slip ("vom 28.01,2020" in a leaflet's text) yields to any date printed whole.
        if (d.garbled) score = score >= 0.9 ? score - 0.45 : Math.min(score, 0.05);
        // On the title or invoice-number line ("Rechnung Nr. 4711 vom 06.10.2018") a generic "vom/du/del" is the
        // issue date; elsewhere it may be any date.
        if (score < 0.9 && TITLE_OR_NUMBER.test(doc.folded[i]!.join(' '))) score += 0.08;
        consider(d.iso, score, i);
      }
    });
  });
  const b = best as { iso: string; score: number; line: number } | null;
  return b ? { value: b.iso, confidence: Math.min(0.95, b.score) } : null;
}
