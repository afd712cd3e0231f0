/**
 * Images for OCR: size checks from the file header (before any pixel is decoded, so a 20k × 20k bomb is refused
 * cheaply), decoding with @napi-rs/canvas (lazy), scaling to an OCR-friendly size, optional rotation by quarter turns,
 * and output as a greyscale PGM (no compression cost; tesseract's leptonica reads it directly).
 */

export type ImageKind = 'png' | 'jpeg';

export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

/** Scans a progressive JPEG may have: encoders write about ten; thousands make decoders crawl or crash. */
export const MAX_JPEG_SCANS = 100;

export type ImageHeader =
  | { ok: true; kind: ImageKind; width: number; height: number }
  | { ok: false; reason: string; width?: number; height?: number };

const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * Checks an image's structure from its bytes before any decoder sees it: native decoders have crashed the process on
 * a PNG of zero width or height and on a progressive JPEG with very many scans. The rest (what a well-formed header
 * can still hide) is the document sandbox's job.
 */
export function inspectImage(bytes: Uint8Array): ImageHeader {
  const kind = sniffImage(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'png') {
    if (bytes.length < 33 || view.getUint32(8) !== 13 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') {
      return { ok: false, reason: 'the PNG header is unreadable' };
    }
    const width = view.getUint32(16);
    const height = view.getUint32(20);
    const [depth, color, compression, filter, interlace] = [24, 25, 26, 27, 28].map((i) => bytes[i]!);
    if (width === 0 || height === 0)
      return { ok: false, reason: `the PNG is ${width} × ${height} pixels`, width, height };
    if (width > 0x7fffffff || height > 0x7fffffff) return { ok: false, reason: 'the PNG size is out of range' };
    if (!PNG_DEPTHS[color!]?.includes(depth!) || compression !== 0 || filter !== 0 || interlace! > 1) {
      return { ok: false, reason: 'the PNG header is invalid', width, height };
    }
    return { ok: true, kind, width, height };
  }
  if (kind === 'jpeg') return inspectJpeg(bytes, view);
  return { ok: false, reason: 'not a PNG or JPEG image' };
}

function inspectJpeg(bytes: Uint8Array, view: DataView): ImageHeader {
  let width: number | undefined;
  let height: number | undefined;
  let frames = 0;
  let scans = 0;
  let i = 2;
  while (i + 3 < bytes.length) {
    if (bytes[i] !== 0xff) return { ok: false, reason: 'the JPEG structure is broken', width, height };
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) break; // end of image
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = view.getUint16(i + 2);
    if (length < 2) return { ok: false, reason: 'the JPEG structure is broken', width, height };
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > bytes.length) break;
      frames += 1;
      height = view.getUint16(i + 5);
      width = view.getUint16(i + 7);
    }
    i += 2 + length;
    if (marker === 0xda) {
      scans += 1;
      if (scans > MAX_JPEG_SCANS) {
        return { ok: false, reason: `the JPEG has more than ${MAX_JPEG_SCANS} scans`, width, height };
      }
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      while (
        i + 1 < bytes.length &&
        !(bytes[i] === 0xff && bytes[i + 1] !== 0 && !(bytes[i + 1]! >= 0xd0 && bytes[i + 1]! <= 0xd7))
      )
        i++;
    }
  }
  if (width === undefined || height === undefined) return { ok: false, reason: 'the JPEG has no frame header' };
  if (frames > 1) return { ok: false, reason: 'the JPEG has several frame headers', width, height };
  if (width === 0 || height === 0)
    return { ok: false, reason: `the JPEG is ${width} × ${height} pixels`, width, height };
  if (scans === 0) return { ok: false, reason: 'the JPEG has no image data', width, height };
  return { ok: true, kind: 'jpeg', width, height };
}

type Canvas = import('@napi-rs/canvas').Canvas;

/** Long side of the page image given to tesseract: about 250 dpi for A4, enough for 8 pt type and faster than 300. */
export const OCR_LONG_SIDE = 2900;

/**
 * Longest side an image is decoded to: OCR reads at most OCR_LONG_SIDE and the photo straightening at most 3,200 px,
 * so a phone's 27-megapixel photo is drawn straight into a 3,200 px canvas. Kept whole, it cost about 100 MB, and
 * every later drawImage from it another raster snapshot of that size: the sandbox's 1 GB ran out.
 */
export const DECODE_LONG_SIDE = 3200;

export async function decodeImage(bytes: Uint8Array): Promise<Canvas> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const img = await loadImage(Buffer.from(bytes));
  const scale = Math.min(1, DECODE_LONG_SIDE / Math.max(img.width, img.height));
  const width = Math.max(1, Math.round(img.width * scale));
  const height = Math.max(1, Math.round(img.height * scale));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  return canvas;
}

/**
 * Scales (long side OCR_LONG_SIDE px at most, short side at least ~ 1600 px for small screenshots), rotates by `quarterTurns`
 * and converts to an 8-bit greyscale PGM.
 */
export async function toOcrImage(
  src: Canvas,
  quarterTurns = 0,
  maxLongSide = OCR_LONG_SIDE,
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const long = Math.max(src.width, src.height);
  const short = Math.min(src.width, src.height);
  let scale = 1;
  if (long > maxLongSide) scale = maxLongSide / long;
  else if (short < 1600 && maxLongSide >= OCR_LONG_SIDE) scale = Math.min(2.5, 1600 / short, maxLongSide / long);
  const w = Math.round(src.width * scale);
  const h = Math.round(src.height * scale);
  const turns = ((quarterTurns % 4) + 4) % 4;
  const [cw, ch] = turns % 2 ? [h, w] : [w, h];
  const canvas = createCanvas(cw, ch);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, cw, ch);
  ctx.translate(cw / 2, ch / 2);
  ctx.rotate((turns * Math.PI) / 2);
  ctx.drawImage(src, -w / 2, -h / 2, w, h);
  const rgba = ctx.getImageData(0, 0, cw, ch).data;
  const header = new TextEncoder().encode(`P5\n${cw} ${ch}\n255\n`);
  const out = new Uint8Array(header.length + cw * ch);
  out.set(header, 0);
  for (let i = 0, p = header.length; i < rgba.length; i += 4, p++) {
    out[p] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
  }
  return { bytes: out, width: cw, height: ch };
}

/**
 * True when the text lines run vertically (a page scanned sideways). Text lines make the row-ink profile of an
 * upright page alternate sharply (lines and gaps) while its column profile stays smooth; sideways it is the reverse.
 * Works on a ~800 px thumbnail, so it costs a few milliseconds.
 */
export async function looksSideways(src: Canvas): Promise<boolean> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const scale = 800 / Math.max(src.width, src.height);
  const w = Math.max(1, Math.round(src.width * scale));
  const h = Math.max(1, Math.round(src.height * scale));
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  ctx.drawImage(src, 0, 0, w, h);
  const d = ctx.getImageData(0, 0, w, h).data;
  const rows = new Float64Array(h);
  const cols = new Float64Array(w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      const ink = 255 - (d[i]! * 77 + d[i + 1]! * 150 + d[i + 2]! * 29) / 256;
      if (ink > 96) {
        rows[y]! += 1;
        cols[x]! += 1;
      }
    }
  }
  const roughness = (p: Float64Array) => {
    let diff = 0;
    let total = 0;
    for (let i = 1; i < p.length; i++) {
      diff += (p[i]! - p[i - 1]!) ** 2;
      total += p[i]!;
    }
    // Times the profile's length: diff / total² alone falls with the length, so a narrow receipt's short column
    // profile looked rougher than its long row profile and the receipt was taken for a sideways page.
    return total ? (p.length * diff) / (total * total) : 0;
  };
  return roughness(cols) > 1.5 * roughness(rows);
}

/** True when a page image has (almost) no ink: an empty page, or one whose only image was too large to draw. */
export async function looksBlank(src: Canvas): Promise<boolean> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const scale = 400 / Math.max(src.width, src.height, 1);
  const w = Math.max(1, Math.round(src.width * scale));
  const h = Math.max(1, Math.round(src.height * scale));
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(src, 0, 0, w, h);
  const d = ctx.getImageData(0, 0, w, h).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (255 - (d[i]! * 77 + d[i + 1]! * 150 + d[i + 2]! * 29) / 256 > 64) ink++;
  }
  return ink < (w * h) / 2000;
}

/** The horizontal band (rows) of a PGM page image with the most ink, `frac` of its height: where a probe reads text. */
export function densestBand(pgm: { bytes: Uint8Array; width: number; height: number }, frac: number) {
  const { bytes, width, height } = pgm;
  const offset = bytes.length - width * height;
  const rows = new Float64Array(height);
  for (let y = 0; y < height; y += 2) {
    let n = 0;
    for (let x = 0; x < width; x += 3) if (bytes[offset + y * width + x]! < 128) n++;
    rows[y] = n;
  }
  const band = Math.max(1, Math.round(height * frac));
  let sum = 0;
  for (let y = 0; y < band; y++) sum += rows[y]!;
  let best = sum;
  let top = 0;
  for (let y = band; y < height; y++) {
    sum += rows[y]! - rows[y - band]!;
    if (sum > best) {
      best = sum;
      top = y - band + 1;
    }
  }
  return { left: 0, top, width, height: band };
}

/** Rows `top .. top + height` of a PGM image as a new PGM. */
export function cropPgmRows(pgm: { bytes: Uint8Array; width: number; height: number }, top: number, height: number) {
  const offset = pgm.bytes.length - pgm.width * pgm.height;
  const header = new TextEncoder().encode(`P5\n${pgm.width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + pgm.width * height);
  out.set(header, 0);
  out.set(pgm.bytes.subarray(offset + top * pgm.width, offset + (top + height) * pgm.width), header.length);
  return { bytes: out, width: pgm.width, height };
}
