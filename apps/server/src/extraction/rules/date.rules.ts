import type { FieldGuess } from '../extraction.types';
import { findDates } from './date.parser';
import type { Doc } from './document';
import { DATE_LABEL, DATE_NEGATIVE, DATE_WEAK, NUMBER_LABEL } from './labels';

const TITLE_OR_NUMBER = /(?<![a-z])(?:invoice|\w*rechnung|gutschrift|facture|avoir|fattura|factura|factuur)(?![a-z])/;

/** Position just after the last match of `re` in `s`, or -1. */
function lastEnd(re: RegExp, s: string): number {
  const g = new RegExp(re.source, 'g');
  let end = -1;
  for (const m of s.matchAll(g)) end = (m.index ?? 0) + m[0].length;
  return end;
}

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
  if (neg === top) return null;
  // "Due date", "Order date": a negative word right before the generic "date" word.
  if (weak === top) {
    if (neg >= 0 && weak - neg < 14) return null;
    // "Data comenzii", "Datum Lieferung": a generic date word qualified by a word we do not know.
    return /\p{L}{3}/u.test(tail.slice(weak)) ? 0.45 : 0.7;
  }
  return 0.6;
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
        let label = f.slice(prevEnd, d.index);
        prevEnd = d.index + d.length;
        // A date range ("01.05.14-31.05.14", "01.05. – 31.05.2024") is a service period.
        const next = dates[dates.indexOf(d) + 1];
        const gapBefore = prevStart >= 0 && /^\s*(?:[-–]|bis|to|au|al|tot|pana la)\s*$/.test(label);
        const gapAfter = next && /^\s*(?:[-–]|bis|to|au|al|tot|pana la)\s*$/.test(f.slice(prevEnd, next.index));
        prevStart = d.index;
        if (gapBefore || gapAfter) continue;
        // The cell to the left is a label only when it is not itself a value (table rows hold values side by side).
        if (!/\p{L}{2}/u.test(label) && j > 0 && !/\d/.test(doc.folded[i]![j - 1]!)) label = doc.folded[i]![j - 1]!;
        let score = labelScore(label);
        if (score === null && !/\p{L}{2}/u.test(label)) {
          // Label in the row above: "Invoice Date: | Due Date:" over "03/20/2023 | 04/04/2023".
          const prev = doc.lines[i - 1];
          if (prev && prev.page === line.page && cell.x0 !== undefined) {
            const hit = prev.cells.findIndex((c) => c.x0 < cell.x1 + 3 && c.x1 > cell.x0 - 3);
            if (hit >= 0) {
              const above = doc.folded[i - 1]![hit]!;
              const s = labelScore(above);
              if (s !== null && !findDates(prev.cells[hit]!.text).length) score = s - 0.02;
              else if (s === null && (DATE_NEGATIVE.test(above) || /\p{L}{3}/u.test(above))) continue;
            }
          }
        }
        if (score === null) {
          if (/\p{L}{3}/u.test(label) && DATE_NEGATIVE.test(label)) continue;
          score = line.page === 1 ? 0.35 - 0.1 * line.rel : 0.2;
        }
        if (d.ambiguous) score -= 0.03;
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
