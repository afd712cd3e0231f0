import type { GeneratedInvoice } from './invoice.generator';
import { mulberry32 } from './invoice.generator';

type Point = { x: number; y: number };

const A4 = { w: 595.28, h: 841.89 };

/** Writes a generated invoice as a text PDF with the standard Helvetica fonts (pdf-lib, dev dependency). */
export async function renderPdf(inv: Pick<GeneratedInvoice, 'pages' | 'runs'>): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages = Array.from({ length: inv.pages }, () => doc.addPage([A4.w, A4.h]));
  for (const run of inv.runs) {
    const page = pages[run.page - 1]!;
    const f = run.bold ? bold : font;
    const width = f.widthOfTextAtSize(run.text, run.size);
    const x = run.align === 'right' ? run.x - width : run.x;
    page.drawText(run.text, { x, y: A4.h - run.y, size: run.size, font: f, color: rgb(0.1, 0.1, 0.1) });
  }
  return doc.save({ useObjectStreams: false });
}

export interface ScanOptions {
  dpi: number;
  /** Skew in degrees (small, as from a flatbed) plus quarter turns (a page fed sideways or upside down). */
  skewDeg: number;
  quarterTurns: number;
  noise: number;
  blur: boolean;
  format: 'png' | 'jpeg';
  seed: number;
  /** Typeface (default DejaVu Sans); the rough statement scans vary it. */
  font?: string;
}

/** Draws a one-page invoice as a noisy, skewed raster scan (PNG or JPEG), like a phone or flatbed. */
export async function renderScan(inv: Pick<GeneratedInvoice, 'runs'>, o: ScanOptions): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const scale = o.dpi / 72;
  const W = Math.round(A4.w * scale);
  const H = Math.round(A4.h * scale);
  const page = createCanvas(W, H);
  const ctx = page.getContext('2d');
  ctx.fillStyle = '#fdfdfb';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#161616';
  // Scans are made of one-page invoices only (the dataset builder picks those).
  for (const run of inv.runs) {
    if (run.page !== 1) continue;
    ctx.font = `${run.bold ? 'bold ' : ''}${Math.round(run.size * scale)}px ${o.font ?? 'DejaVu Sans'}`;
    const width = ctx.measureText(run.text).width;
    const x = (run.align === 'right' ? run.x - width / scale : run.x) * scale;
    ctx.fillText(run.text, x, run.y * scale);
  }
  const rnd = mulberry32(o.seed);
  // Blur: downscale then upscale.
  let src = page;
  if (o.blur) {
    const small = createCanvas(Math.round(W * 0.6), Math.round(H * 0.6));
    small.getContext('2d').drawImage(page, 0, 0, small.width, small.height);
    const back = createCanvas(W, H);
    back.getContext('2d').drawImage(small, 0, 0, W, H);
    src = back;
  }
  const turns = ((o.quarterTurns % 4) + 4) % 4;
  const [cw, ch] = turns % 2 ? [H, W] : [W, H];
  const out = createCanvas(cw, ch);
  const octx = out.getContext('2d');
  octx.fillStyle = '#e9e9e4';
  octx.fillRect(0, 0, cw, ch);
  octx.translate(cw / 2, ch / 2);
  octx.rotate((turns * Math.PI) / 2 + (o.skewDeg * Math.PI) / 180);
  octx.drawImage(src, -W / 2, -H / 2);
  octx.setTransform(1, 0, 0, 1, 0, 0);
  // Speckle noise and a little grey gradient.
  const img = octx.getImageData(0, 0, cw, ch);
  const data = img.data;
  const n = Math.round(cw * ch * o.noise);
  for (let i = 0; i < n; i++) {
    const p = Math.floor(rnd() * cw * ch) * 4;
    const v = rnd() < 0.5 ? 40 : 235;
    data[p] = data[p + 1] = data[p + 2] = v;
  }
  octx.putImageData(img, 0, 0);
  const buf = o.format === 'jpeg' ? await out.encode('jpeg', 70) : await out.encode('png');
  return new Uint8Array(buf);
}

export interface PhotoOptions {
  seed: number;
  /** Background: a plain dark desk, wood-like stripes, or a busy one (scattered coloured patches). */
  background: 'desk' | 'wood' | 'busy';
}

/**
 * Draws a one-page invoice as a phone photo (JPEG): the page at ~150 dpi put in perspective (tilted camera, turned a
 * little) on a darker textured background filling 45–75 % of a 1800 × 2400 frame, a shadow across part of the frame,
 * sensor noise and a slight blur. Deterministic for a seed.
 */
export async function renderPhoto(inv: Pick<GeneratedInvoice, 'runs'>, o: PhotoOptions): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const { homography, warpRgba } = await import('../src/extraction/ocr/page.detect');
  const rnd = mulberry32(o.seed);
  const scale = 150 / 72;
  const W = Math.round(A4.w * scale);
  const H = Math.round(A4.h * scale);
  const page = createCanvas(W, H);
  const pctx = page.getContext('2d');
  pctx.fillStyle = '#f7f6f1';
  pctx.fillRect(0, 0, W, H);
  pctx.fillStyle = '#1a1a1a';
  for (const run of inv.runs) {
    if (run.page !== 1) continue;
    pctx.font = `${run.bold ? 'bold ' : ''}${Math.round(run.size * scale)}px DejaVu Sans`;
    const width = pctx.measureText(run.text).width;
    pctx.fillText(run.text, (run.align === 'right' ? run.x - width / scale : run.x) * scale, run.y * scale);
  }
  const FW = 1800;
  const FH = 2400;
  const frame = createCanvas(FW, FH);
  const ctx = frame.getContext('2d');
  const base = [40 + rnd() * 60, 35 + rnd() * 50, 30 + rnd() * 50].map(Math.round);
  ctx.fillStyle = `rgb(${base.join(',')})`;
  ctx.fillRect(0, 0, FW, FH);
  if (o.background === 'wood') {
    for (let y = 0; y < FH; y += 6 + Math.floor(rnd() * 10)) {
      const d = Math.round((rnd() - 0.5) * 30);
      ctx.fillStyle = `rgb(${base.map((c) => Math.max(0, c + d + 25)).join(',')})`;
      ctx.fillRect(0, y, FW, 2 + rnd() * 5);
    }
  } else if (o.background === 'busy') {
    for (let i = 0; i < 60; i++) {
      const c = [rnd(), rnd(), rnd()].map((v) => Math.round(30 + v * 140));
      ctx.fillStyle = `rgb(${c.join(',')})`;
      ctx.fillRect(rnd() * FW, rnd() * FH, 40 + rnd() * 300, 20 + rnd() * 200);
    }
  }
  // The page's corners: centred, 45–75 % of the frame's area, turned up to ±12°, each corner moved a little and the
  // far edge narrowed (camera tilted towards the top).
  const fill = Math.sqrt(0.45 + rnd() * 0.3);
  const ph = Math.min(FH * fill, ((FW * fill) / W) * H);
  const pw = (ph / H) * W;
  const angle = ((rnd() - 0.5) * 24 * Math.PI) / 180;
  const narrow = rnd() * 0.12;
  const local = [
    { x: -pw / 2 + pw * narrow, y: -ph / 2 },
    { x: pw / 2 - pw * narrow, y: -ph / 2 },
    { x: pw / 2, y: ph / 2 },
    { x: -pw / 2, y: ph / 2 },
  ];
  const corners = local.map((p) => {
    const x = p.x + (rnd() - 0.5) * 0.04 * pw;
    const y = p.y + (rnd() - 0.5) * 0.04 * ph;
    return {
      x: FW / 2 + x * Math.cos(angle) - y * Math.sin(angle),
      y: FH / 2 + x * Math.sin(angle) + y * Math.cos(angle),
    };
  }) as [Point, Point, Point, Point];
  const rect: [Point, Point, Point, Point] = [
    { x: 0, y: 0 },
    { x: W, y: 0 },
    { x: W, y: H },
    { x: 0, y: H },
  ];
  // The page warped into the frame and laid over the background (few canvases: many large ones crash the native
  // canvas when a whole set is built in one process).
  const page1 = warpRgba(pctx.getImageData(0, 0, W, H), homography(corners, rect), FW, FH, true);
  const bg = ctx.getImageData(0, 0, FW, FH);
  for (let i = 0; i < bg.data.length; i += 4) {
    if (page1[i + 3]) for (let c = 0; c < 3; c++) bg.data[i + c] = page1[i + c]!;
  }
  ctx.putImageData(bg, 0, 0);
  // Shadow: a soft dark band across part of the frame (a hand or the phone).
  const sx = rnd() * FW;
  const g = ctx.createLinearGradient(sx, 0, sx + (rnd() - 0.5) * FW, FH);
  const depth = 0.15 + rnd() * 0.3;
  g.addColorStop(0, `rgba(0,0,0,${depth})`);
  g.addColorStop(0.35 + rnd() * 0.3, 'rgba(0,0,0,0)');
  g.addColorStop(1, 'rgba(0,0,0,0)');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, FW, FH);
  // Sensor noise, then a slight blur (3 × 3 mean).
  const px = ctx.getImageData(0, 0, FW, FH);
  const d = px.data;
  const noisy = new Float32Array(d.length);
  for (let i = 0; i < d.length; i += 4) {
    const n = (rnd() + rnd() - 1) * 14;
    for (let c = 0; c < 3; c++) noisy[i + c] = d[i + c]! + n;
  }
  for (let y = 1; y < FH - 1; y++) {
    for (let x = 1; x < FW - 1; x++) {
      const o = (y * FW + x) * 4;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += noisy[o + (dy * FW + dx) * 4 + c]!;
        d[o + c] = sum / 9;
      }
    }
  }
  ctx.putImageData(px, 0, 0);
  return new Uint8Array(await frame.encode('jpeg', 85));
}
