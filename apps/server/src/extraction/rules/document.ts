import type { Line } from '../extraction.types';
import type { DayOrder } from './date.parser';
import { findDates } from './date.parser';
import { americanPage, findCurrencies, otherDollar } from './money.parser';

/**
 * A document prepared for the field rules: its lines with folded (lower-case, accent-free) text per cell, plus
 * document-wide hints (language, day order, number style) that settle ambiguous values.
 */
export interface Doc {
  lines: Line[];
  /** Folded cell texts, same shape as lines[i].cells; one character per UTF-16 unit so indexes line up. */
  folded: string[][];
  /** The whole text as printed, one line per line, cells joined by two spaces. */
  text: string;
  /** The same, folded (cells joined by two spaces). */
  foldedText: string;
  lang: Lang;
  dayOrder: DayOrder;
  /** Whether unambiguous dates on the page settled the day order (else the language and currency guessed it). */
  dayOrderDecided: boolean;
  decimalHint: '.' | ',' | undefined;
  currencies: Map<string, number>;
  pages: number;
}

export type Lang = 'en' | 'de' | 'fr' | 'it' | 'es' | 'ro' | 'nl' | 'pt' | 'pl' | 'cs' | 'sv' | 'vi' | 'ja' | 'zh';

/** Folds each UTF-16 unit on its own so that positions in the folded text match the original. */
export function foldAligned(s: string): string {
  let out = '';
  for (const ch of s.split('')) {
    const f = ch
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
    out += f.length === 1 ? f : ch.length === 1 ? (f[0] ?? ch) : ch;
  }
  return out;
}

const LANG_WORDS: Record<Lang, RegExp> = {
  en: /(?<![a-z])(invoice|total|date|amount|due|bill|tax|number|payment|thank)(?![a-z])/g,
  de: /(?<![a-z])(rechnung\w*|betrag|datum|summe|mwst|gesamt|zahlbar|bitte|steuer\w*|kunden\w*|und)(?![a-z])/g,
  fr: /(?<![a-z])(facture|montant|date|tva|total ttc|paiement|echeance|client|numero|votre|nous|pour|merci|caisse|reste a payer|especes)(?![a-z])/g,
  it: /(?<![a-z])(fattura|totale|importo|data|iva|pagamento|scadenza|cliente|numero|della|di)(?![a-z])/g,
  es: /(?<![a-z])(factura|importe|fecha|iva|pago|vencimiento|cliente|numero|total a pagar|de la|del)(?![a-z])/g,
  ro: /(?<![a-z])(factura|data|plata|suma|tva|cumparator|furnizor|scadenta|total de plata|si|din|catre)(?![a-z])/g,
  nl: /(?<![a-z])(factuur\w*|bedrag|datum|btw|totaal|betalen|klant\w*|vervaldatum|het|een|van)(?![a-z])/g,
  // Folded text keeps "ł" (it has no decomposition): "płatności" folds to "płatnosci".
  pt: /(?<![a-z])(fatura|nota fiscal|emissao|contribuinte|vencimento|endereco|quantidade|descricao|preco|valor|obrigad[oa]|recibo|cnpj|cpf|nao|sao|em)(?![a-z])/g,
  pl: /(?<![a-z])(faktura|sprzedawca|nabywca|razem|nip|zap[lł]aty|p[lł]atnosci|wartosc|kwota|sposob|gotowka|paragon|fiskalny|sprzedazy|stawka|jest|oraz)(?![a-z])/g,
  cs: /(?<![a-z])(faktura|dodavatel|odberatel|celkem|cislo|splatnosti|dph|vystaveni|uhrade|zaokrouhleni|ico|dic|castka|bankovni|ucet|prijemce|jsme|neni)(?![a-z])/g,
  sv: /(?<![a-z])(faktura|fakturanummer|fakturadatum|forfallodatum|betala|belopp|moms|summa|kund\w*|momsreg\w*|betalningsvillkor|drojsmalsranta|kvitto|totalt|och|att)(?![a-z])/g,
  // Vietnamese, folded (its "đ" stays): phrases of two words, which the other languages do not spell.
  vi: /(?<![a-z])(hoa [dđ]on|ban hang|thu ngan|thanh toan|thanh tien|tien khach|khach hang|cam on|so luong|[dđ]on gia|tong cong|[dđ]ia chi|[dđ]ien thoai|nhan vien)(?![a-z])/g,
  ja: /請求|合計|金額|税込|消費税|円|日付|御中|様|領収|発行|株式会社|番号|小計|振込|[\u3040-\u30ff]{2}/g,
  // Simplified Chinese (a fapiao's labels); kana never, so a Japanese page is not taken for one.
  zh: /发票|合计|价税|税额|金额|开票|购买方|销售方|纳税人|识别号|收款|复核|元|有限公司/g,
};

export function detectLanguage(foldedText: string): Lang {
  return languageEvidence(foldedText).lang;
}

/** The most likely language and how many of its marker words were seen (0: nothing to go on, 'en' then). */
export function languageEvidence(foldedText: string): { lang: Lang; hits: number } {
  let best: Lang = 'en';
  let bestScore = 0;
  for (const [lang, re] of Object.entries(LANG_WORDS) as Array<[Lang, RegExp]>) {
    const n = foldedText.match(re)?.length ?? 0;
    if (n > bestScore) {
      best = lang;
      bestScore = n;
    }
  }
  return { lang: best, hits: bestScore };
}

/**
 * A fapiao prints its party headings downwards, one character a line ("销 / 售 / 方" beside the seller's block), so its
 * "名称：X" line may stand a line above or below the heading's first character rather than on it. The nearest such
 * character (销 or 售: seller; 购 or 买: buyer) within two lines is put in front of "名称" ("销名称：X"), the way the
 * labels read it when they share the line.
 */
export function markFapiaoParties(lines: Line[]): Line[] {
  const heading = (l: Line | undefined) => {
    const t = l?.cells[0]?.text.trim();
    return t === '销' || t === '售' ? '销' : t === '购' || t === '买' ? '购' : null;
  };
  return lines.map((l, i) => {
    let cells = l.cells;
    // "名 | 称：X" or "购名 | 称：X": the label cut between two cells is one cell again.
    if (cells.length >= 2 && /^[购销买售]?\s*名$/.test(cells[0]!.text.trim()) && /^称/.test(cells[1]!.text.trim()))
      cells = [
        { ...cells[0]!, text: `${cells[0]!.text.trim()}${cells[1]!.text.trim()}`, x1: cells[1]!.x1 },
        ...cells.slice(2),
      ];
    const first = cells[0];
    if (!first || !/^名\s*称/.test(first.text.trim())) return cells === l.cells ? l : relined(l, cells);
    let side: string | null = null;
    for (const d of [1, -1, 2, -2]) {
      const other = lines[i + d];
      side = other && other.page === l.page ? heading(other) : null;
      if (side) break;
    }
    if (side) cells = [{ ...first, text: `${side}${first.text.trim()}` }, ...cells.slice(1)];
    return cells === l.cells ? l : relined(l, cells);
  });
}

/** The line with other cells, its text made of them again. */
function relined(l: Line, cells: Line['cells']): Line {
  return { ...l, cells, text: cells.map((c) => c.text).join(' ') };
}

export function prepareDoc(input: Line[]): Doc {
  const foldLine = (l: Line) => l.cells.map((c) => foldAligned(c.text));
  const joinFolded = (f: string[][]) => f.map((cells) => cells.join('  ')).join('\n');
  let folded = input.map(foldLine);
  let foldedText = joinFolded(folded);
  const lang = detectLanguage(foldedText);
  const lines = lang === 'zh' ? markFapiaoParties(input) : input;
  // Only the lines a fapiao's headings changed are folded again.
  if (lines.some((l, i) => l !== input[i])) {
    folded = lines.map((l, i) => (l === input[i] ? folded[i]! : foldLine(l)));
    foldedText = joinFolded(folded);
  }
  const text = lines.map((l) => l.text).join('\n');
  const currencies = new Map<string, number>();
  for (const c of findCurrencies(text)) currencies.set(c, (currencies.get(c) ?? 0) + 1);
  // Day order: unambiguous numeric dates decide; else US English documents put the month first.
  let dmy = 0;
  let mdy = 0;
  for (const d of findDates(text)) {
    if (d.order === 'dmy') dmy++;
    if (d.order === 'mdy') mdy++;
  }
  // A bare "$" on a page from Australia, New Zealand, Singapore or Hong Kong (named, or an Australian state and
  // postcode) is no American dollar, and those countries write the day first.
  const elsewhere = otherDollar(text, foldedText, true);
  // A printed dollar, or none at all beside a US address ("RICE, MN 56367"): the American month-first order.
  const usd =
    ((currencies.get('USD') ?? 0) > 0 || (currencies.size === 0 && americanPage(text, foldedText))) &&
    (elsewhere === null || elsewhere === 'CAD');
  const dayOrder: DayOrder = mdy > dmy ? 'mdy' : dmy > mdy ? 'dmy' : lang === 'en' && usd ? 'mdy' : 'dmy';
  // Number style: the separator in front of the last two digits of printed amounts.
  // (Not a date's day and month: "09.11.2025" holds "09.11" but no amount.)
  const dots = text.match(/\d[.]\d{2}(?!\d|\.\d)/g)?.length ?? 0;
  const commas = text.match(/\d[,]\d{2}(?!\d|,\d)/g)?.length ?? 0;
  const decimalHint = dots > commas * 2 ? '.' : commas > dots * 2 ? ',' : undefined;
  const pages = lines.reduce((m, l) => Math.max(m, l.page), 0);
  return {
    lines,
    folded,
    text,
    foldedText,
    lang,
    dayOrder,
    dayOrderDecided: dmy !== mdy,
    decimalHint,
    currencies,
    pages,
  };
}

/** Index of the first line of the cell directly below `cell` (x ranges overlap), within `maxLines` lines. */
export function cellBelow(doc: Doc, lineIdx: number, x0: number, x1: number, maxLines = 2): [number, number] | null {
  const line = doc.lines[lineIdx]!;
  let counted = 0;
  for (let k = lineIdx + 1; k < doc.lines.length && counted < maxLines; k++) {
    const next = doc.lines[k]!;
    if (next.page !== line.page) return null;
    if (next.y0 - line.y1 > 4 * line.size) return null;
    const tol = 0.5 * line.size;
    for (let j = 0; j < next.cells.length; j++) {
      const c = next.cells[j]!;
      if (c.x0 < x1 + tol && c.x1 > x0 - tol) return [k, j];
    }
    // A line of another column only (two columns in other type sizes interleave their lines): not counted.
    if (next.cells.some((c) => c.x0 < x1 + 4 * line.size && c.x1 > x0 - 4 * line.size)) counted += 1;
  }
  return null;
}

/**
 * A value cell: digits with hardly any words (amounts, dates, identifiers), or a cell that is mostly a date
 * ("Fr, 22.01.2024"); a sentence that mentions a date ("Outstanding on 04.03.2014") is a label.
 */
export function isValueCell(text: string): boolean {
  if (!/\d/.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  if (letters <= 3) return true;
  return findDates(text).some((d) => letters <= 12 || d.length >= 0.4 * text.trim().length);
}

/** The cell of `line` in the same column as [x0, x1]: overlapping, or aligned on the left or right edge. */
export function columnCell(line: Line, x0: number, x1: number, tol: number): number {
  let best = -1;
  let bestScore = -Infinity;
  line.cells.forEach((c, j) => {
    const overlap = Math.min(c.x1, x1) - Math.max(c.x0, x0);
    const aligned = Math.abs(c.x0 - x0) < tol || Math.abs(c.x1 - x1) < tol;
    if (overlap <= 0 && !aligned) return;
    const score = overlap + (aligned ? tol : 0);
    if (score > bestScore) {
      best = j;
      bestScore = score;
    }
  });
  if (best >= 0) return best;
  // A header row of text cells over right-aligned values in wider columns (FatturaPA's "Totale documento" over
  // "3.687,08" printed at its column's right edge): the header whose column the value falls in, from its left edge
  // to the next header's.
  if (line.cells.length < 3 || line.cells.some((c) => /\d/.test(c.text))) return -1;
  for (let j = line.cells.length - 1; j >= 0; j--) {
    const c = line.cells[j]!;
    if (c.x0 > x0) continue;
    const next = line.cells[j + 1];
    const within = next ? next.x0 > x1 : x0 - c.x1 < 25 * line.size;
    return within ? j : -1;
  }
  return -1;
}

/**
 * The column header over a value: the label cells stacked directly above cell `j` of line `i` (a header row over a
 * row of values, a label printed over its value, a label wrapped over two lines), joined top to bottom, folded.
 * Stops at another value (a table row), a complete "Label:" above, a wide vertical gap or the page's edge; allows
 * one line without a cell in this column (a neighbour's label wrapped onto two lines).
 */
export function labelAbove(doc: Doc, i: number, j: number): string | null {
  const line = doc.lines[i]!;
  const cell = line.cells[j]!;
  const parts: string[] = [];
  let lastTop = line.y0;
  let skipped = 0;
  for (let k = i - 1; k >= 0 && k >= i - 5; k--) {
    const l = doc.lines[k]!;
    // The value may sit a few lines' height under its label; the lines of one wrapped label touch each other.
    const maxGap = parts.length ? 0.8 * Math.max(line.size, l.size) : 3 * Math.max(line.size, l.size);
    if (l.page !== line.page || lastTop - l.y1 > maxGap) break;
    const hit = columnCell(l, cell.x0, cell.x1, 0.6 * line.size);
    if (hit < 0) {
      if (parts.length || ++skipped > 1) break;
      continue;
    }
    const text = l.cells[hit]!.text;
    // A value (a table row) ends the header; so does a complete "Label:" above the label already found, and a title
    // in much larger type.
    if (isValueCell(text) || !/[\p{L}#°º]/u.test(text) || (parts.length && /:\s*$|\d/.test(text))) break;
    if (l.size > 1.6 * line.size) break;
    parts.unshift(doc.folded[k]![hit]!);
    lastTop = l.y0;
    if (parts.length >= 3) break;
  }
  return parts.length ? parts.join(' ') : null;
}

/** The label cell left of cell `j` on its line (folded), when it is text, not a value, and not far away. */
export function leftLabel(doc: Doc, i: number, j: number, maxGap = 12): string | null {
  if (j === 0) return null;
  const line = doc.lines[i]!;
  const left = line.cells[j - 1]!;
  if (/\d/.test(left.text) || !/\p{L}{2}/u.test(left.text)) return null;
  if (line.cells[j]!.x0 - left.x1 > maxGap * line.size) return null;
  return doc.folded[i]![j - 1]!;
}

/** Levenshtein distance (short strings only). */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
