import type { GeneratedInvoice } from './invoice.generator';
import { mulberry32 } from './invoice.generator';

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
    ctx.font = `${run.bold ? 'bold ' : ''}${Math.round(run.size * scale)}px DejaVu Sans`;
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
