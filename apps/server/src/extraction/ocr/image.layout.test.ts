import { describe, expect, it } from 'vitest';
import { type GrayPixels, inkBox, receiptRegion } from './image.loader';

/** A white page of `w` × `h` with text-like dark bars (`lines` rows of them) inside the rectangle x0..x1, y0..y1. */
function page(w: number, h: number, x0: number, y0: number, x1: number, y1: number, lines = 30): GrayPixels {
  const data = new Uint8Array(w * h).fill(245);
  const pitch = (y1 - y0) / lines;
  for (let l = 0; l < lines; l++) {
    const top = Math.round(y0 + l * pitch);
    // Lines of varying length, like a receipt's items and prices.
    const right = l % 3 === 0 ? x1 : Math.round(x0 + (x1 - x0) * (0.4 + 0.15 * (l % 4)));
    for (let y = top; y < top + Math.max(2, pitch * 0.45); y++)
      for (let x = x0; x < right; x++) if ((x >> 1) % 3 !== 0) data[y * w + x] = 20;
  }
  return { data, width: w, height: h };
}

describe('inkBox', () => {
  it('bounds the text and ignores a few specks far away', () => {
    const g = page(400, 600, 100, 50, 300, 550);
    g.data[5 * 400 + 5] = 0;
    g.data[590 * 400 + 395] = 0;
    const box = inkBox(g)!;
    expect(box.x0).toBeGreaterThanOrEqual(98);
    expect(box.x0).toBeLessThanOrEqual(110);
    expect(box.x1).toBeGreaterThanOrEqual(290);
    expect(box.x1).toBeLessThanOrEqual(302);
    expect(box.y0).toBeGreaterThanOrEqual(48);
    expect(box.y1).toBeLessThanOrEqual(552);
  });

  it('is null on a blank page', () => {
    expect(inkBox({ data: new Uint8Array(200 * 300).fill(250), width: 200, height: 300 })).toBeNull();
  });
});

describe('receiptRegion', () => {
  it('finds a narrow receipt on an A4 scan and keeps a margin round its ink', () => {
    // 437 × 600 thumbnail of an A4 scan; the receipt's text runs 150..290 wide and 40..560 tall.
    const r = receiptRegion(page(437, 600, 150, 40, 290, 560, 60))!;
    expect(r).not.toBeNull();
    expect(r.x0).toBeLessThan(150);
    expect(r.x0).toBeGreaterThan(130);
    expect(r.x1).toBeGreaterThan(285);
    expect(r.x1).toBeLessThan(310);
    expect(r.y0).toBeLessThan(45);
    expect(r.y1).toBeGreaterThan(550);
  });

  it('takes a tall narrow receipt scan as a receipt', () => {
    expect(receiptRegion(page(180, 600, 10, 10, 170, 590, 70))).not.toBeNull();
  });

  it('leaves a full invoice page, a landscape page and a blank page alone', () => {
    expect(receiptRegion(page(424, 600, 40, 40, 384, 560, 40))).toBeNull();
    expect(receiptRegion(page(600, 424, 40, 40, 560, 384, 25))).toBeNull();
    expect(receiptRegion({ data: new Uint8Array(200 * 600).fill(250), width: 200, height: 600 })).toBeNull();
  });
});
