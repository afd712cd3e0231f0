import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './image.loader';

/** An APP1 Exif segment holding only IFD0 with the Orientation tag, in either byte order. */
function exifSegment(orientation: number, little: boolean): Uint8Array {
  const tiff = new Uint8Array(26);
  const v = new DataView(tiff.buffer);
  v.setUint16(0, little ? 0x4949 : 0x4d4d);
  v.setUint16(2, 42, little);
  v.setUint32(4, 8, little);
  v.setUint16(8, 1, little); // one entry
  v.setUint16(10, 0x0112, little);
  v.setUint16(12, 3, little); // SHORT
  v.setUint32(14, 1, little);
  v.setUint16(18, orientation, little);
  v.setUint32(22, 0, little); // no next IFD
  const body = new Uint8Array([...new TextEncoder().encode('Exif\0\0'), ...tiff]);
  const seg = new Uint8Array(4 + body.length);
  seg.set([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
  seg.set(body, 4);
  return seg;
}

/** The JPEG `jpeg` with an EXIF Orientation tag inserted after its SOI marker (as cameras write it). */
function withOrientation(jpeg: Uint8Array, orientation: number, little = true): Uint8Array {
  const seg = exifSegment(orientation, little);
  const out = new Uint8Array(jpeg.length + seg.length);
  out.set(jpeg.subarray(0, 2));
  out.set(seg, 2);
  out.set(jpeg.subarray(2), 2 + seg.length);
  return out;
}

/**
 * The upright picture is 120 × 60: red square top-left, blue square bottom-right. For each tag the stored pixels are
 * what a camera would write: the upright picture put through the inverse of the tag's transform.
 */
const STORED: Record<number, [number, number, number, number, number, number]> = {
  1: [1, 0, 0, 1, 0, 0],
  2: [-1, 0, 0, 1, 120, 0],
  3: [-1, 0, 0, -1, 120, 60],
  4: [1, 0, 0, -1, 0, 60],
  5: [0, 1, 1, 0, 0, 0],
  6: [0, -1, 1, 0, 0, 120], // stored turned anticlockwise; the tag turns it back clockwise
  7: [0, -1, -1, 0, 60, 120],
  8: [0, 1, -1, 0, 60, 0],
};

async function storedJpeg(orientation: number): Promise<Uint8Array> {
  const swap = orientation >= 5;
  const c = createCanvas(swap ? 60 : 120, swap ? 120 : 60);
  const ctx = c.getContext('2d');
  ctx.setTransform(...STORED[orientation]!);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 120, 60);
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, 30, 30);
  ctx.fillStyle = '#0000ff';
  ctx.fillRect(90, 30, 30, 30);
  return new Uint8Array(await c.encode('jpeg', 95));
}

function colourAt(c: import('@napi-rs/canvas').Canvas, x: number, y: number): string {
  const [r, g, b] = c.getContext('2d').getImageData(x, y, 1, 1).data;
  return r! > 180 && g! < 80 && b! < 80
    ? 'red'
    : b! > 180 && r! < 80 && g! < 80
      ? 'blue'
      : r! > 200 && g! > 200
        ? 'white'
        : 'other';
}

// @napi-rs/canvas applies the EXIF Orientation tag while decoding (a phone stores a portrait photo as landscape
// pixels plus the tag), so decodeImage turns nothing itself; these tests pin that, for every tag and both byte orders.
describe('EXIF orientation of JPEG photos', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('tag %i: the decoded image is upright', async (o) => {
    const jpeg = withOrientation(await storedJpeg(o), o, o % 2 === 0);
    const img = await decodeImage(jpeg);
    expect([img.width, img.height]).toEqual([120, 60]);
    expect(colourAt(img, 15, 15)).toBe('red');
    expect(colourAt(img, 105, 45)).toBe('blue');
    expect(colourAt(img, 105, 15)).toBe('white');
    expect(colourAt(img, 15, 45)).toBe('white');
  });

  it('a damaged EXIF block leaves the stored pixels as they are', async () => {
    const jpeg = withOrientation(await storedJpeg(1), 6);
    jpeg[12] = 0x00; // byte order mark damaged: the tag cannot be read
    const img = await decodeImage(jpeg);
    expect([img.width, img.height]).toEqual([120, 60]);
    expect(colourAt(img, 15, 15)).toBe('red');
  });
});
