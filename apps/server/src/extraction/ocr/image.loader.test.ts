import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../eval/invoice.generator';
import { looksSideways } from './image.loader';

/** Text-like lines (character-sized bars, words, lines of varying length) on white paper, optionally turned 90°. */
function textPage(width: number, height: number, lineGap: number, turned = false, edges = false): Canvas {
  const c = createCanvas(turned ? height : width, turned ? width : height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = '#202020';
  if (turned) {
    ctx.translate(c.width, 0);
    ctx.rotate(Math.PI / 2);
  }
  // The paper's edges as a scanner shows them: thin dark lines along the long sides.
  if (edges) for (const x of [2, width - 6]) ctx.fillRect(x, 0, 4, height);
  const rnd = mulberry32(3);
  for (let y = lineGap; y < height - lineGap; y += lineGap) {
    // Characters of varying width (not on a grid), words apart, lines of varying length.
    let x = width * (0.04 + 0.04 * rnd());
    const end = width * (0.5 + 0.45 * rnd());
    while (x < end) {
      const w = lineGap * (0.25 + 0.35 * rnd());
      ctx.fillRect(x, y, w, lineGap * 0.5);
      x += w + lineGap * (rnd() < 0.2 ? 0.6 : 0.12);
    }
  }
  return c;
}

describe('sideways pages from the ink profile', () => {
  it('a narrow upright receipt with its edges is not taken for a sideways page; turned by 90° it is', async () => {
    expect(await looksSideways(textPage(900, 2800, 40, false, true))).toBe(false);
    expect(await looksSideways(textPage(900, 2800, 40, true, true))).toBe(true);
  });

  it('an A4 page upright and turned', async () => {
    expect(await looksSideways(textPage(850, 1200, 24))).toBe(false);
    expect(await looksSideways(textPage(850, 1200, 24, true))).toBe(true);
  });
});
