/**
 * HEIC/HEIF photos (what an iPhone camera saves) decoded with heic-decode (libheif compiled to WebAssembly, so no
 * native code and nothing outside the document sandbox's permissions). The size is read from the container first and
 * checked against the pixel limit before a single pixel is decoded.
 */
type Canvas = import('@napi-rs/canvas').Canvas;

/** ISO base media with a HEIF brand (the brands heic-decode reads). */
export function isHeic(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16)).toString('latin1');
  return text.slice(4, 8) === 'ftyp' && /^(heic|heix|hevc|hevx|mif1|msf1)/.test(text.slice(8, 12));
}

/** The first image of a HEIC file on a white canvas; `check` sees its size before it is decoded and may throw. */
export async function decodeHeic(bytes: Uint8Array, check: (width: number, height: number) => void): Promise<Canvas> {
  const heic = await import('heic-decode');
  // A CommonJS module: its export is the default (and, bundled, sometimes the namespace itself).
  const decode = (heic.default ?? heic) as typeof heic.default;
  const images = await decode.all({ buffer: bytes });
  try {
    const first = images[0];
    if (!first) throw new Error('the HEIC file holds no image');
    check(first.width, first.height);
    const { width, height, data } = await first.decode();
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    const image = ctx.createImageData(width, height);
    image.data.set(data);
    ctx.putImageData(image, 0, 0);
    return canvas;
  } finally {
    images.dispose();
  }
}
