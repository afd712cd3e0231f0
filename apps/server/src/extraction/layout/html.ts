/**
 * HTML (an invoice mail's body, a saved web receipt) as plain text with its layout kept for the rules: every block
 * (paragraph, row, list item, line break) on a line of its own and table cells apart by three spaces, which
 * linesFromPlainText reads as cells. Scripts, styles and the head are dropped; entities are decoded.
 */

const BLOCK =
  /<\/?(?:p|div|tr|li|ul|ol|h[1-6]|table|tbody|thead|tfoot|section|article|header|footer|address|blockquote|pre|center|dl|dt|dd|hr)\b[^>]*>|<br\s*\/?>/gi;
const CELL_END = /<\/(?:td|th)\s*>/gi;
const NAMED: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  copy: '©',
  reg: '®',
  ndash: '–',
  mdash: '—',
  middot: '·',
  szlig: 'ß',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|head|title|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    // Whitespace in HTML source means nothing; the tags below decide the lines and cells.
    .replace(/\s+/g, ' ')
    .replace(CELL_END, '\uE000')
    .replace(BLOCK, '\n')
    .replace(/<[^>]*>/g, ' ');
  return decodeEntities(text)
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((line) =>
      line
        .replace(/ {2,}/g, ' ')
        .replace(/\s*\uE000\s*/g, '\uE000')
        .replace(/^\uE000+|\uE000+$/g, '')
        .replace(/\uE000+/g, '   ')
        .trim(),
    )
    .filter((line) => line)
    .join('\n');
}

/** Whether bytes that are text look like an HTML document (not e-invoice XML). */
export function looksLikeHtml(head: string, filename: string): boolean {
  if (/\.x?html?$/i.test(filename)) return true;
  return /^\s*(?:\uFEFF)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<meta[\s>]|<table[\s>]|<div[\s>])/i.test(
    head,
  );
}
