import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { generateInvoice, mulberry32 } from '../../../eval/invoice.generator';
import { renderScan } from '../../../eval/invoice.renderers';
import { decodeImage } from './image.loader';
import {
  contentBox,
  cropToContent,
  evenOutCanvas,
  findPageQuad,
  flattenLight,
  grayThumbnail,
  homography,
  type Point,
  paperMask,
  type Quad,
  straightenPhoto,
  unevenness,
  WARP_SOURCE_LONG_SIDE,
  whitenBackground,
} from './page.detect';

/** Pixel-exact test pictures are drawn without antialiasing artefacts mattering: corners are compared to 2 px. */
function apply(H: number[], p: Point): Point {
  const z = H[6]! * p.x + H[7]! * p.y + H[8]!;
  return { x: (H[0]! * p.x + H[1]! * p.y + H[2]!) / z, y: (H[3]! * p.x + H[4]! * p.y + H[5]!) / z };
}

/**
 * A photo-like picture drawn with canvas paths only (independent of the warp under test): a dark, speckled desk, a
 * sheet at `corners` with text-like bars and a black marker square near its top-left, a shadow over one side.
 */
function synthPhoto(width: number, height: number, corners: Quad): Canvas {
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#4a3b2e';
  ctx.fillRect(0, 0, width, height);
  const rnd = mulberry32(7);
  for (let i = 0; i < 400; i++) {
    ctx.fillStyle = rnd() < 0.5 ? '#5a4a3a' : '#3a2e22';
    ctx.fillRect(rnd() * width, rnd() * height, 2 + rnd() * 20, 2 + rnd() * 6);
  }
  ctx.fillStyle = '#f4f3ee';
  ctx.beginPath();
  ctx.moveTo(corners[0].x, corners[0].y);
  for (const p of corners.slice(1)) ctx.lineTo(p.x, p.y);
  ctx.closePath();
  ctx.fill();
  // Content in page coordinates (1000 × 1414) mapped into the sheet.
  const H = homography(
    [
      { x: 0, y: 0 },
      { x: 1000, y: 0 },
      { x: 1000, y: 1414 },
      { x: 0, y: 1414 },
    ],
    corners,
  );
  const poly = (pts: Point[], fill: string) => {
    ctx.fillStyle = fill;
    ctx.beginPath();
    const q = pts.map((p) => apply(H, p));
    ctx.moveTo(q[0]!.x, q[0]!.y);
    for (const p of q.slice(1)) ctx.lineTo(p.x, p.y);
    ctx.closePath();
    ctx.fill();
  };
  const rect = (x: number, y: number, w: number, h: number, fill: string) =>
    poly(
      [
        { x, y },
        { x: x + w, y },
        { x: x + w, y: y + h },
        { x, y: y + h },
      ],
      fill,
    );
  rect(100, 100, 100, 100, '#000000'); // the marker
  for (let y = 300; y < 1300; y += 40) rect(100, y, 300 + ((y * 7) % 500), 14, '#333333');
  const g = ctx.createLinearGradient(0, 0, width, 0);
  g.addColorStop(0, 'rgba(0,0,0,0.3)');
  g.addColorStop(0.5, 'rgba(0,0,0,0)');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, width, height);
  return c;
}

const CORNERS: Quad = [
  { x: 130, y: 110 },
  { x: 460, y: 140 },
  { x: 500, y: 690 },
  { x: 80, y: 660 },
];

describe('sheet detection on a photo', () => {
  it('finds the corners of a sheet photographed at an angle within 2 px', async () => {
    const photo = synthPhoto(600, 800, CORNERS);
    const { gray, scale } = await grayThumbnail(photo, 800);
    expect(scale).toBe(1);
    const found = findPageQuad(gray);
    expect(found.quad).not.toBeNull();
    found.quad!.forEach((p, i) => {
      expect(Math.abs(p.x - CORNERS[i]!.x)).toBeLessThan(2);
      expect(Math.abs(p.y - CORNERS[i]!.y)).toBeLessThan(2);
    });
  });

  it('straightens and crops the sheet: upright rectangle, background gone, marker where the page has it', async () => {
    // Drawn at 2.5× so that detection works on a thumbnail and the corners are scaled back.
    const k = 2.5;
    const photo = synthPhoto(1500, 2000, CORNERS.map((p) => ({ x: p.x * k, y: p.y * k })) as Quad);
    const { canvas, quad } = await straightenPhoto(photo);
    expect(quad).not.toBeNull();
    quad!.forEach((p, i) => {
      expect(Math.abs(p.x - CORNERS[i]!.x * k)).toBeLessThan(5);
      expect(Math.abs(p.y - CORNERS[i]!.y * k)).toBeLessThan(5);
    });
    // The sides are ~ 1040 × 1400 px: the output keeps the longer of each pair of opposite sides.
    expect(canvas.height / canvas.width).toBeGreaterThan(1.25);
    expect(canvas.height / canvas.width).toBeLessThan(1.5);
    const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const lum = (x: number, y: number) => {
      const i = (Math.round(y) * canvas.width + Math.round(x)) * 4;
      return (d[i]! + d[i + 1]! + d[i + 2]!) / 3;
    };
    const sx = canvas.width / 1000;
    const sy = canvas.height / 1414;
    expect(lum(150 * sx, 150 * sy)).toBeLessThan(60); // inside the marker
    expect(lum(250 * sx, 150 * sy)).toBeGreaterThan(120); // paper right of it (shadowed side)
    // No desk left along the borders: every rim pixel is paper-bright (the shadow darkens it somewhat).
    for (let t = 0.05; t < 0.95; t += 0.05) {
      expect(lum(t * canvas.width, 3)).toBeGreaterThan(120);
      expect(lum(t * canvas.width, canvas.height - 4)).toBeGreaterThan(120);
      expect(lum(canvas.width - 4, t * canvas.height)).toBeGreaterThan(120);
    }
  });

  it('maps the four corners exactly (homography)', () => {
    const to = CORNERS;
    const from: Quad = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 20 },
      { x: 0, y: 20 },
    ];
    const H = homography(from, to);
    from.forEach((p, i) => {
      const q = apply(H, p);
      expect(q.x).toBeCloseTo(to[i]!.x, 6);
      expect(q.y).toBeCloseTo(to[i]!.y, 6);
    });
  });
});

describe('light evened out on a straightened sheet', () => {
  it('a shadow across the sheet: paper comes out white on both sides, ink stays dark', () => {
    const w = 400;
    const h = 300;
    const rgba = new Uint8ClampedArray(w * h * 4);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const paper = 120 + (130 * x) / w; // 120 on the shadowed left, 250 on the right
        const ink = y % 30 < 4 && x % 50 > 5; // text-like lines
        const v = ink ? paper * 0.25 : paper;
        const i = (y * w + x) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = v;
        rgba[i + 3] = 255;
      }
    }
    const out = flattenLight(rgba, w, h);
    const at = (x: number, y: number) => out[(y * w + x) * 4]!;
    expect(at(20, 15)).toBeGreaterThan(235); // paper in the shadow
    expect(at(380, 15)).toBeGreaterThan(235);
    expect(at(20, 31)).toBeLessThan(90); // ink in the shadow
    expect(at(380, 31)).toBeLessThan(90);
    expect(rgba[(15 * w + 20) * 4]!).toBeLessThan(130); // the input's shadowed paper: darker than mid-grey
  });
});

describe('uneven light on any page', () => {
  /** A page with text-like lines; `shade(x, y)` is the paper's brightness (1 = white) at each point. */
  function page(shade: (x: number, y: number) => number): Canvas {
    const w = 600;
    const h = 800;
    const c = createCanvas(w, h);
    const ctx = c.getContext('2d');
    const img = ctx.createImageData(w, h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const paper = 245 * shade(x, y);
        const ink = y % 24 < 6 && x % 40 > 8 && x > 40 && x < 560;
        const i = (y * w + x) * 4;
        img.data[i] = img.data[i + 1] = img.data[i + 2] = ink ? paper * 0.2 : paper;
        img.data[i + 3] = 255;
      }
    }
    ctx.putImageData(img, 0, 0);
    return c;
  }

  it('scores an evenly lit scan near 0, a shadowed or darkening page far above the 0.15 threshold', async () => {
    const score = async (c: Canvas) => unevenness((await grayThumbnail(c, 600)).gray);
    expect(await score(page(() => 1))).toBeLessThan(0.05);
    expect(await score(page((x) => (x < 300 ? 0.55 : 1)))).toBeGreaterThan(0.3); // a shadow over the left half
    expect(await score(page((_, y) => 1 - (0.5 * y) / 800))).toBeGreaterThan(0.25); // the far end darker
  });

  it('evens out a shadowed page: paper white on both sides, ink dark', async () => {
    const out = await evenOutCanvas(page((x) => (x < 300 ? 0.55 : 1)));
    const px = (x: number, y: number) => out.getContext('2d').getImageData(x, y, 1, 1).data[0]!;
    expect(px(100, 12)).toBeGreaterThan(230); // paper in the shadow (was 135)
    expect(px(450, 12)).toBeGreaterThan(230);
    expect(px(100, 3)).toBeLessThan(80); // ink in the shadow
    expect(px(450, 3)).toBeLessThan(80);
    expect(unevenness((await grayThumbnail(out, 600)).gray)).toBeLessThan(0.05);
  });
});

describe('no sheet: the image is left as it was', () => {
  it('a flatbed scan (page filling the picture, slightly skewed) is not cropped', async () => {
    const inv = generateInvoice(500_003, 'en');
    const jpeg = await renderScan(inv, {
      dpi: 150,
      skewDeg: 1.5,
      quarterTurns: 0,
      noise: 0.003,
      blur: false,
      format: 'jpeg',
      seed: 3,
    });
    const scan = await decodeImage(jpeg);
    const r = await straightenPhoto(scan);
    expect(r.quad).toBeNull();
    expect(r.canvas).toBe(scan);
  });

  it('a screenshot with a dark header band and a grey sidebar is not cropped', async () => {
    const c = createCanvas(1200, 900);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 1200, 900);
    ctx.fillStyle = '#1f3a5f';
    ctx.fillRect(0, 0, 1200, 120);
    ctx.fillStyle = '#d0d0d0';
    ctx.fillRect(0, 120, 220, 780);
    ctx.fillStyle = '#222222';
    for (let y = 180; y < 860; y += 36) ctx.fillRect(260, y, 500 + ((y * 13) % 380), 12);
    const r = await straightenPhoto(c);
    expect(r.quad).toBeNull();
    expect(r.canvas).toBe(c);
  });

  it('a page with a framed box in it is not cropped to the box', async () => {
    const c = createCanvas(850, 1100);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 850, 1100);
    ctx.fillStyle = '#111111';
    for (let y = 60; y < 220; y += 30) ctx.fillRect(60, y, 400, 12);
    ctx.lineWidth = 6;
    ctx.strokeStyle = '#000000';
    ctx.strokeRect(50, 260, 750, 700);
    for (let y = 300; y < 920; y += 30) ctx.fillRect(80, y, 600, 12);
    const r = await straightenPhoto(c);
    expect(r.quad).toBeNull();
  });
});

describe('bounds', () => {
  it('a huge photo is scaled down before its pixels are read: the output stays within the warp size', {
    timeout: 120_000,
  }, async () => {
    const k = 8; // 4800 × 6400 = 31 megapixels
    const photo = synthPhoto(4800, 6400, CORNERS.map((p) => ({ x: p.x * k, y: p.y * k })) as Quad);
    const { canvas, quad } = await straightenPhoto(photo);
    expect(quad).not.toBeNull();
    expect(Math.max(canvas.width, canvas.height)).toBeLessThanOrEqual(WARP_SOURCE_LONG_SIDE);
    // Corners are reported in the scaled source's coordinates (long side WARP_SOURCE_LONG_SIDE).
    const s = WARP_SOURCE_LONG_SIDE / 6400;
    expect(Math.abs(quad![2].x - 500 * k * s)).toBeLessThan(8);
  });
});

describe('a document that fills only part of a scan', () => {
  /** A grey image: background `bg`, a rectangle of paper `paper` at [x0, x1) × [y0, y1) with text-like ink rows. */
  function scan(w: number, h: number, bg: number, rect: [number, number, number, number], paper = 240) {
    const data = new Uint8Array(w * h).fill(bg);
    const [x0, y0, x1, y1] = rect;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const ink = y % 12 < 4 && x % 7 < 5 && x > x0 + 5 && x < x1 - 5 && y > y0 + 5 && y < y1 - 5;
        data[y * w + x] = ink ? 20 : paper;
      }
    return { data, width: w, height: h };
  }

  it('finds a receipt strip on a dark flatbed background (the lid left open)', () => {
    const box = contentBox(scan(437, 600, 40, [300, 0, 430, 600]));
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(285);
    expect(box!.x).toBeLessThanOrEqual(300);
    expect(box!.x + box!.width).toBeGreaterThanOrEqual(430);
    expect(box!.width).toBeLessThan(160);
  });

  it('finds the printed part of a receipt on white paper', () => {
    // White page, a receipt's ink in the upper left quarter.
    const g = scan(437, 600, 250, [40, 30, 200, 330], 250);
    const box = contentBox(g);
    expect(box).not.toBeNull();
    expect(box!.x).toBeLessThan(50);
    expect(box!.x + box!.width).toBeGreaterThan(190);
    expect(box!.y + box!.height).toBeGreaterThan(320);
    expect(box!.width * box!.height).toBeLessThan(0.35 * 437 * 600);
  });

  it('leaves a full page, a blank page and a small image alone', () => {
    expect(contentBox(scan(437, 600, 250, [10, 10, 427, 590], 250))).toBeNull();
    expect(contentBox({ data: new Uint8Array(437 * 600).fill(250), width: 437, height: 600 })).toBeNull();
    expect(contentBox({ data: new Uint8Array(30 * 30).fill(0), width: 30, height: 30 })).toBeNull();
  });

  it('crops the canvas in its own pixels, and returns a canvas under the size limit as it was', async () => {
    const c = createCanvas(1200, 1600);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#282828';
    ctx.fillRect(0, 0, 1200, 1600);
    ctx.fillStyle = '#f4f4f4';
    ctx.fillRect(800, 0, 360, 1600);
    ctx.fillStyle = '#000000';
    for (let y = 40; y < 1560; y += 40) ctx.fillRect(830, y, 300, 12);
    const crop = await cropToContent(c, 0);
    expect(crop).not.toBe(c);
    expect(crop.width).toBeGreaterThan(355);
    expect(crop.width).toBeLessThan(480);
    expect(crop.height).toBe(1600);
    expect(await cropToContent(c, 2000)).toBe(c);
  });
});

describe('a slip with no straight outline: the desk around it painted over', () => {
  /** A curled slip on a wood desk: light grain streaks cross the desk and touch the slip; it runs off the bottom. */
  function slipOnWood(): Canvas {
    const c = createCanvas(600, 800);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#5b4633';
    ctx.fillRect(0, 0, 600, 800);
    for (let y = 10; y < 800; y += 37) {
      ctx.fillStyle = '#a88f73';
      ctx.fillRect(0, y, 600, 3);
    }
    ctx.fillStyle = '#e9e6df';
    ctx.beginPath();
    ctx.moveTo(150, 60);
    ctx.quadraticCurveTo(300, 40, 450, 70);
    ctx.lineTo(470, 800);
    ctx.lineTo(130, 800);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = '#222222';
    for (let y = 120; y < 760; y += 30) ctx.fillRect(180, y, 120 + ((y * 7) % 150), 10);
    return c;
  }
  const pixel = (c: Canvas, x: number, y: number) => [...c.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3)];

  it('masks the slip, not the grain that touches it, and the quadrilateral check still refuses it', async () => {
    const photo = slipOnWood();
    expect((await straightenPhoto(photo)).quad).toBeNull();
    const { gray } = await grayThumbnail(photo, 600);
    const mask = paperMask(gray)!;
    expect(mask).not.toBeNull();
    const s = gray.width / photo.width;
    const at = (x: number, y: number) => mask[Math.round(y * s) * gray.width + Math.round(x * s)];
    expect(at(300, 400)).toBe(1);
    expect(at(200, 125)).toBe(1); // print inside the slip
    expect(at(40, 400)).toBe(0);
    expect(at(40, 47)).toBe(0); // a grain streak
    expect(at(560, 700)).toBe(0);
  });

  it("paints the desk in the paper's shade and leaves the slip's print as it was", async () => {
    const photo = slipOnWood();
    const out = await whitenBackground(photo);
    expect(out).not.toBe(photo);
    const paper = pixel(photo, 300, 400);
    for (const [x, y] of [
      [40, 400],
      [560, 700],
      [20, 47],
    ] as const)
      for (const [k, v] of pixel(out, x, y).entries()) expect(Math.abs(v - paper[k]!)).toBeLessThan(12);
    expect(pixel(out, 185, 125)).toEqual(pixel(photo, 185, 125));
  });

  it('leaves a flatbed scan and a screenshot alone (no darker ground around a sheet)', async () => {
    const c = createCanvas(800, 1000);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 800, 1000);
    ctx.fillStyle = '#222222';
    for (let y = 80; y < 940; y += 30) ctx.fillRect(60, y, 400 + ((y * 13) % 300), 11);
    expect(await whitenBackground(c)).toBe(c);
  });
});
