import { describe, expect, it } from 'vitest';
import type { Word } from '../extraction.types';
import { buildLines, mergeOverprint } from './lines';

/** Words on one line of page 1, 20 px high, from [text, x0, x1] triples. */
const row = (y: number, ...parts: Array<[string, number, number]>): Word[] =>
  parts.map(([text, x0, x1]) => ({ text, x0, x1, y0: y, y1: y + 20, page: 1 }));

describe('lines and cells from positioned words', () => {
  it('joins Latin words with a space and starts a new cell at a wide gap', () => {
    const [line] = buildLines(row(100, ['Invoice', 0, 70], ['date', 76, 110], ['05.03.2024', 300, 400]), new Map());
    expect(line!.cells.map((c) => c.text)).toEqual(['Invoice date', '05.03.2024']);
  });

  it('joins Japanese characters OCR returned one by one, and letter-spaced labels, without spaces', () => {
    const lines = buildLines(
      [
        ...row(100, ['株', 0, 18], ['式', 22, 40], ['会社', 44, 80], ['御中', 86, 122]),
        ...row(200, ['合', 0, 20], ['計', 40, 60], ['¥4,500', 300, 380]),
        ...row(300, ['請求書番号', 0, 100], [':', 104, 108], ['20251205-1', 112, 220]),
      ],
      new Map(),
    );
    expect(lines.map((l) => l.cells.map((c) => c.text))).toEqual([
      ['株式会社御中'],
      ['合計', '¥4,500'],
      ['請求書番号 : 20251205-1'],
    ]);
  });

  it("puts pdfTeX's spacing accents on their letters and reads dot leaders as spaces", () => {
    const lines = buildLines(
      [
        ...row(100, ['Num', 0, 20], ['´', 20, 24], ['ero', 24, 40], ['de', 44, 56], ['facture', 60, 100]),
        ...row(200, ['.........Invoice', 0, 90], ['dateAug', 94, 140], ['31,', 144, 160], ['2024', 164, 190]),
      ],
      new Map(),
    );
    expect(lines.map((l) => l.text)).toEqual(['Numéro de facture', 'Invoice date Aug 31, 2024']);
  });

  it('reads a narrow private-use glyph between two words as a hyphen, and a wide one (an icon) as nothing', () => {
    const lines = buildLines(
      [
        ...row(100, ['EBEB2CD6', 0, 80], ['\ue088', 80, 89], ['0027', 89, 130]),
        ...row(200, ['May 1', 0, 50], ['\ue088', 56, 66], ['May 31, 2025', 72, 190]),
        ...row(300, ['\uf095', 0, 20], ['+49 30 1234567', 26, 160]),
      ],
      new Map(),
    );
    expect(lines.map((l) => l.text)).toEqual(['EBEB2CD6-0027', 'May 1 - May 31, 2025', '+49 30 1234567']);
  });

  it('reads a NUL glyph between two words as a hyphen too (a Stripe receipt\'s "FC276A99-0017")', () => {
    const lines = buildLines(row(100, ['FC276A99', 0, 80], ['\u0000', 80, 85], ['0017', 85, 120]), new Map());
    expect(lines.map((l) => l.text)).toEqual(['FC276A99-0017']);
  });

  it('closes up a number sign printed apart from its N ("N ° 15")', () => {
    const [line] = buildLines(row(100, ['N', 0, 10], ['°', 16, 22], ['15', 28, 44]), new Map());
    expect(line!.text).toBe('N° 15');
  });
});

describe('text printed twice (fake bold)', () => {
  it('reads runs overprinted a fraction of a point apart once, however the two passes split them', () => {
    const [line] = buildLines(
      row(100, ['EMPRESA', 59.4, 85.1], ['EMPRESA EXEMPLO', 59.7, 111.7], ['EXEMPLO LTDA', 86.7, 126.7]),
      new Map(),
    );
    expect(line!.text).toBe('EMPRESA EXEMPLO LTDA');
    const [same] = buildLines(row(100, ['Total 12,00', 18.2, 90.4], ['Total 12,00', 18.5, 90.7]), new Map());
    expect(same!.text).toBe('Total 12,00');
  });

  it('reads a line of twenty thousand single glyphs, each printed twice, as the glyphs once', () => {
    const glyphs = Array.from({ length: 20_000 }, (_, i) => [
      { text: `${'AB'[i % 2]}${i % 10}`, x0: 10 * i, x1: 10 * i + 8, y0: 100, y1: 120, page: 1 },
      { text: `${'AB'[i % 2]}${i % 10}`, x0: 10 * i + 0.3, x1: 10 * i + 8.3, y0: 100, y1: 120, page: 1 },
    ]).flat();
    expect(mergeOverprint(glyphs)).toHaveLength(20_000);
  });

  it('keeps runs that only touch, or that differ where they overlap', () => {
    const words = row(100, ['12,00', 0, 40], ['12,00', 41, 81], ['AB', 100, 120], ['XY', 105, 125]);
    expect(mergeOverprint(words).map((w) => w.text)).toEqual(['12,00', '12,00', 'AB', 'XY']);
  });
});
