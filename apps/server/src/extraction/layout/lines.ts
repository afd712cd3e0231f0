import type { Cell, Line, Word } from '../extraction.types';

/**
 * A word's characters as the rules expect them: the Unicode hyphens some generators write (U+2010 hyphen, U+2011
 * non-breaking hyphen, U+2012 figure dash) as '-', so "18‐08‐2026" is a date and "INV‐42" a number; full-width
 * ASCII (Japanese and Chinese documents print "１２３" and "：") as ASCII; the ideographic space as a space.
 */
/** Spacing accents pdfTeX writes before the letter they belong to ("Num´ero", "r`eglement", "impˆots"). */
const SPACING_ACCENT: Record<string, string> = {
  '\u00b4': '\u0301',
  '`': '\u0300',
  '\u02c6': '\u0302',
  '\u00a8': '\u0308',
  '\u02dc': '\u0303',
};

/**
 * A cell's text as the rules want it: pdfTeX's spacing accents on their letters ("Numéro"; they come as words of
 * their own), dot leaders as spaces, letter-spaced words closed up.
 */
function cleanCellText(text: string): string {
  return (
    text
      // Dot leaders ("Invoice number ........ 2432") are spacing, not text; a label run into its date ("Invoice
      // dateAug 31, 2024") parts from it.
      .replace(/\.{4,}/g, ' ')
      // "N ° 15": the number sign printed apart from its N.
      .replace(/(?<![\p{L}\d])([Nn])\s+([°º])/gu, '$1$2')
      // A word letter-spaced for emphasis ("S A L D O", "I N V O I C E"): one word again (up to 12 letters, so a
      // letter-spaced line of several words is not run into one).
      .replace(/(?<![\p{L}\d])(?:\p{L} ){3,11}\p{L}(?![\p{L}\d])/gu, (m) => m.replace(/ /g, ''))
      .replace(/(?<=[a-z])(?=(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s?\d)/g, ' ')
      .replace(/\s{2,}/g, ' ')
      .trim()
      .replace(/([\u00b4`\u02c6\u00a8\u02dc])([aeiouyncAEIOUYNC])/g, (_, a: string, l: string) =>
        `${l}${SPACING_ACCENT[a]}`.normalize('NFC'),
      )
  );
}

export function normalizeWordText(text: string): string {
  return (
    text
      .replace(/[\u2010-\u2012]/g, '-')
      // Kangxi radicals for the ideographs they look like ("発 ⾏ ⽇", "12⽉31⽇"): the text layer of CJK pages that
      // browsers print. Only these blocks: NFKC over all text would also rewrite "m²" and ligatures.
      .replace(/[\u2e80-\u2fdf]/g, (c) => c.normalize('NFKC'))
      .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/\u3000/g, ' ')
  );
}

/**
 * A glyph the PDF maps to no character but a private-use code point, a control character or U+FFFD (a subset font's
 * hyphen or dash: Chromium prints "EBEB2CD6-0027" with one, Stripe's receipts "FC276A99-0017" with a NUL), standing
 * alone as a text item: a narrow one is read as a hyphen, a wide one (an icon font's phone or mail sign) as nothing.
 * Undefined for any other word.
 */
function privateGlyph(word: Word): string | undefined {
  if (!/^[\uE000-\uF8FF\ufffd\p{Cc}]$/u.test(word.text)) return undefined;
  const height = word.y1 - word.y0;
  return height > 0 && word.x1 - word.x0 <= 0.6 * height ? '-' : '';
}

/** Kana, kanji and CJK punctuation at the end or start of a word. */
const CJK_END = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]$/u;
const CJK_START = /^[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/u;

/**
 * Text printed twice a fraction of a point apart ("fake bold": "EMPRESA" and "EMPRESA EXEMPLO" from 59.4 and 59.7 pt,
 * then "EXEMPLO LTDA" from 86.7) reads once: a run that starts inside an earlier run on the same baseline and goes
 * on with the very letters that run has from there is the same print. Runs that merely touch or differ stay apart.
 */
export function mergeOverprint(words: Word[]): Word[] {
  const byBaseline = new Map<number, Word[]>();
  const out: Word[] = [];
  const slot = new Map<Word, number>();
  next: for (const w of [...words].sort((a, b) => a.x0 - b.x0 || b.x1 - a.x1)) {
    const key = Math.round(w.y1);
    for (const k of [key - 1, key, key + 1]) {
      const runs = byBaseline.get(k) ?? [];
      // Only the latest few runs of a baseline can still reach this one (runs come left to right): a page of
      // thousands of single glyphs on one line stays linear.
      for (let i = runs.length - 1; i >= Math.max(0, runs.length - 8); i -= 1) {
        const a = runs[i]!;
        const joined = overprinted(a, w);
        if (!joined) continue;
        runs[i] = joined;
        const at = slot.get(a)!;
        out[at] = joined;
        slot.set(joined, at);
        continue next;
      }
    }
    slot.set(w, out.length);
    out.push(w);
    const runs = byBaseline.get(key);
    if (runs) runs.push(w);
    else byBaseline.set(key, [w]);
  }
  return out;
}

/** Run `a` with `w` printed over it from inside it (the two joined), or null when `w` is other print. */
function overprinted(a: Word, w: Word): Word | null {
  const h = w.y1 - w.y0;
  if (Math.abs(a.y1 - w.y1) > 0.15 * h || Math.abs(a.y1 - a.y0 - h) > 0.2 * h || a.text.length < 2) return null;
  const cw = (a.x1 - a.x0) / a.text.length;
  if (w.x0 < a.x0 - 0.5 * cw || w.x0 > a.x1 - 1.5 * cw) return null;
  const at = Math.round((w.x0 - a.x0) / cw);
  const text = w.text.trimEnd();
  for (const j of [at, at - 1, at + 1]) {
    if (j < 0) continue;
    const tail = a.text.slice(j).trimEnd();
    if (tail.trim().length < 2) continue;
    if (tail.startsWith(text)) return a;
    if (w.text.startsWith(tail)) return { ...a, text: a.text.slice(0, j) + w.text, x1: Math.max(a.x1, w.x1) };
  }
  return null;
}

/**
 * Rebuilds reading-order lines and cells from positioned words (PDF text items or OCR words).
 * Words whose vertical centres are within ~half a word height share a line; a horizontal gap wider than about
 * 1.2 × the line height (12 pt at 10 pt type) starts a new cell, which separates labels from values and table columns.
 */
export function buildLines(words: Word[], pageHeights: Map<number, number>): Line[] {
  const byPage = new Map<number, Word[]>();
  for (const word of words) {
    if (!word.text.trim()) continue;
    const text = privateGlyph(word) ?? normalizeWordText(word.text);
    if (!text) continue;
    const w = text === word.text ? word : { ...word, text };
    const list = byPage.get(w.page) ?? [];
    list.push(w);
    byPage.set(w.page, list);
  }
  const lines: Line[] = [];
  for (const page of [...byPage.keys()].sort((a, b) => a - b)) {
    const ws = mergeOverprint(byPage.get(page)!).sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0);
    const height = pageHeights.get(page) ?? Math.max(...ws.map((w) => w.y1), 1);
    const groups: Word[][] = [];
    for (const w of ws) {
      const cy = (w.y0 + w.y1) / 2;
      const h = Math.max(w.y1 - w.y0, 1);
      const last = groups[groups.length - 1];
      if (last) {
        const ref = last[last.length - 1]!;
        const rcy = (ref.y0 + ref.y1) / 2;
        const rh = Math.max(ref.y1 - ref.y0, 1);
        if (Math.abs(cy - rcy) <= Math.max(2, 0.45 * Math.min(h, rh))) {
          last.push(w);
          continue;
        }
      }
      groups.push([w]);
    }
    for (const g of groups) {
      g.sort((a, b) => a.x0 - b.x0);
      const heights = g.map((w) => w.y1 - w.y0).sort((a, b) => a - b);
      const size = heights[Math.floor(heights.length / 2)] ?? 10;
      const gapLimit = Math.max(1.2 * size, 6);
      const cells: Cell[] = [];
      let cur: { parts: string[]; x0: number; x1: number } | null = null;
      for (const w of g) {
        if (cur && w.x0 - cur.x1 <= gapLimit) {
          const gap = w.x0 - cur.x1;
          // Japanese and Chinese put no spaces between words; OCR returns their characters as words of their own, and
          // receipts letter-space their labels ("合 計").
          const cjk = CJK_END.test(cur.parts[cur.parts.length - 1]!) && CJK_START.test(w.text);
          const sep = gap > 0.15 * size && !cjk ? ' ' : '';
          cur.parts.push(sep + w.text);
          cur.x1 = Math.max(cur.x1, w.x1);
        } else {
          if (cur)
            cells.push({
              text: cleanCellText(cur.parts.join('').replace(/\s+/g, ' ').trim()),
              x0: cur.x0,
              x1: cur.x1,
            });
          cur = { parts: [w.text], x0: w.x0, x1: w.x1 };
        }
      }
      if (cur)
        cells.push({ text: cleanCellText(cur.parts.join('').replace(/\s+/g, ' ').trim()), x0: cur.x0, x1: cur.x1 });
      const nonEmpty = cells.filter((c) => c.text);
      if (!nonEmpty.length) continue;
      const y0 = Math.min(...g.map((w) => w.y0));
      const y1 = Math.max(...g.map((w) => w.y1));
      lines.push({
        page,
        index: lines.length,
        y0,
        y1,
        rel: Math.min(1, Math.max(0, y0 / height)),
        cells: nonEmpty,
        text: nonEmpty.map((c) => c.text).join('  '),
        size,
      });
    }
  }
  return lines;
}

/** Lines from plain text (an already extracted .txt): one cell per run separated by 2+ spaces. */
export function linesFromPlainText(text: string): Line[] {
  const raw = normalizeWordText(text).split(/\r?\n/);
  const lines: Line[] = [];
  raw.forEach((l, i) => {
    if (!l.trim()) return;
    const cells: Cell[] = [];
    for (const m of l.matchAll(/\S+(?: \S+)*/g)) {
      cells.push({ text: m[0], x0: (m.index ?? 0) * 6, x1: ((m.index ?? 0) + m[0].length) * 6 });
    }
    lines.push({
      page: 1,
      index: lines.length,
      y0: i * 12,
      y1: i * 12 + 10,
      rel: i / Math.max(raw.length, 1),
      cells,
      text: cells.map((c) => c.text).join('  '),
      size: 10,
    });
  });
  return lines;
}
