import { describe, expect, it } from 'vitest';
import { brightSheetBox, type Gray } from './page.detect';

/** A 436 × 600 scan: a black strip left, a grey board, and (optionally) a white receipt with dark text lines. */
function scan(receipt: { x0: number; y0: number; x1: number; y1: number } | null, text = true): Gray {
  const w = 436;
  const h = 600;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = x < 120 ? 15 : 170 + ((x * 7 + y * 13) % 9);
  if (receipt) {
    for (let y = receipt.y0; y < receipt.y1; y++) for (let x = receipt.x0; x < receipt.x1; x++) data[y * w + x] = 245;
    if (text)
      // Thin print: 2-pixel strokes in short words, lines 14 pixels apart (a receipt at thumbnail scale).
      for (let y = receipt.y0 + 10; y < receipt.y1 - 10; y += 14)
        for (let yy = y; yy < y + 2; yy++)
          for (let x = receipt.x0 + 10; x < receipt.x1 - 10; x++) if (x % 3 === 0 && x % 40 < 28) data[yy * w + x] = 30;
  }
  return { data, width: w, height: h };
}

describe('brightSheetBox', () => {
  it('finds a receipt lying on a darker board at the edge of a scan', () => {
    const b = brightSheetBox(scan({ x0: 280, y0: 0, x1: 436, y1: 370 }))!;
    expect(b).not.toBeNull();
    expect(Math.abs(b.x0 - 280)).toBeLessThanOrEqual(3);
    expect(b.y0).toBeLessThanOrEqual(3);
    expect(b.x1).toBeGreaterThanOrEqual(433);
    expect(Math.abs(b.y1 - 370)).toBeLessThanOrEqual(3);
  });

  it('is null for a plain white page with text, and for a bright patch without print', () => {
    const page: Gray = { data: new Uint8Array(436 * 600).fill(245), width: 436, height: 600 };
    for (let y = 40; y < 560; y += 12) for (let x = 40; x < 400; x++) if (x % 5) page.data[y * 436 + x] = 30;
    expect(brightSheetBox(page)).toBeNull();
    expect(brightSheetBox(scan({ x0: 280, y0: 0, x1: 436, y1: 370 }, false))).toBeNull();
    expect(brightSheetBox(scan(null))).toBeNull();
  });
});
