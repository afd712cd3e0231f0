/**
 * Phone photos: finds the sheet of paper (a bright convex quadrilateral on a darker or busy background, taken at an
 * angle), maps it to an upright rectangle and crops the background away. Pure JS on small typed arrays, so it runs in
 * the document sandbox like the rest of the image work. The steps: a ~600 px greyscale thumbnail, blur, Otsu threshold,
 * the largest bright component, its convex hull, the largest quadrilateral in the hull, its sides refitted to the
 * component's boundary (sub-pixel corners), then a homography and a bilinear resample of the full-size image.
 * Anything short of a confident sheet (see `checkQuad`) leaves the image as it was: a scan or screenshot is never cut.
 */

type Canvas = import('@napi-rs/canvas').Canvas;

export type Point = { x: number; y: number };
/** Corners in order top-left, top-right, bottom-right, bottom-left. */
export type Quad = [Point, Point, Point, Point];

export interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Long side of the thumbnail the sheet is looked for on. */
export const DETECT_LONG_SIDE = 600;
/** Long side the photo is scaled to before its pixels are read (bounds memory and time in the sandbox). */
export const WARP_SOURCE_LONG_SIDE = 3200;

/** Separable box blur, radius r, run twice (close to a Gaussian): text and texture melt into their surroundings. */
export function blur(g: Gray, r: number): Gray {
  const { width: w, height: h } = g;
  let src = Float32Array.from(g.data);
  // One running-sum pass along `lines` lines of `n` samples `step` apart (edge samples repeated).
  const pass = (from: Float32Array, n: number, step: number, lines: number, lineStep: number) => {
    const to = new Float32Array(from.length);
    for (let l = 0; l < lines; l++) {
      const base = l * lineStep;
      let sum = 0;
      for (let k = -r; k <= r; k++) sum += from[base + Math.min(n - 1, Math.max(0, k)) * step]!;
      for (let i = 0; i < n; i++) {
        to[base + i * step] = sum / (2 * r + 1);
        sum += from[base + Math.min(n - 1, i + r + 1) * step]! - from[base + Math.max(0, i - r) * step]!;
      }
    }
    return to;
  };
  for (let k = 0; k < 2; k++) src = pass(pass(src, w, 1, h, w), h, w, w, 1);
  return { data: Uint8Array.from(src, (v) => Math.round(v)), width: w, height: h };
}

export function otsu(data: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of data) hist[v]! += 1;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let t = 128;
  for (let i = 0; i < 256; i++) {
    wB += hist[i]!;
    if (!wB) continue;
    const wF = data.length - wB;
    if (!wF) break;
    sumB += i * hist[i]!;
    const between = wB * wF * (sumB / wB - (sum - sumB) / wF) ** 2;
    if (between > best) {
      best = between;
      t = i;
    }
  }
  return t;
}

/** The largest 4-connected component of `mask`, as a 0/1 mask, and its size. */
function largestComponent(mask: Uint8Array, w: number, h: number): { mask: Uint8Array; size: number } {
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  let best = 0;
  let bestLabel = 0;
  let next = 0;
  for (let p = 0; p < w * h; p++) {
    if (!mask[p] || label[p]) continue;
    next += 1;
    let top = 0;
    let size = 0;
    stack[top++] = p;
    label[p] = next;
    const visit = (r: number) => {
      if (mask[r] && !label[r]) {
        label[r] = next;
        stack[top++] = r;
      }
    };
    while (top) {
      const q = stack[--top]!;
      size++;
      const x = q % w;
      if (x > 0) visit(q - 1);
      if (x < w - 1) visit(q + 1);
      if (q >= w) visit(q - w);
      if (q < w * (h - 1)) visit(q + w);
    }
    if (size > best) {
      best = size;
      bestLabel = next;
    }
  }
  const out = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) if (label[p] === bestLabel) out[p] = 1;
  return { mask: out, size: best };
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Convex hull (monotone chain), counter-clockwise in image coordinates read with y down. */
export function convexHull(points: Point[]): Point[] {
  const p = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (p.length < 3) return p;
  const lower: Point[] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: Point[] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, q) <= 0) upper.pop();
    upper.push(q);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

export function polygonArea(p: Point[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i++) {
    const q = p[i]!;
    const r = p[(i + 1) % p.length]!;
    a += q.x * r.y - r.x * q.y;
  }
  return Math.abs(a) / 2;
}

/** The largest-area quadrilateral with corners among the hull's vertices (hull thinned to at most 90 vertices). */
function largestQuad(hull: Point[]): Point[] {
  const step = Math.max(1, Math.ceil(hull.length / 90));
  const h = hull.filter((_, i) => i % step === 0);
  const n = h.length;
  const tri = (a: number, b: number, c: number) => Math.abs(cross(h[a]!, h[b]!, h[c]!)) / 2;
  let best = -1;
  let quad: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let k = i + 2; k < n; k++) {
      let left = 0;
      let jBest = -1;
      for (let j = i + 1; j < k; j++) {
        const a = tri(i, j, k);
        if (a > left) {
          left = a;
          jBest = j;
        }
      }
      let right = 0;
      let lBest = -1;
      for (let l = k + 1; l < n + i; l++) {
        const a = tri(i, k, l % n);
        if (a > right) {
          right = a;
          lBest = l % n;
        }
      }
      if (jBest >= 0 && lBest >= 0 && left + right > best) {
        best = left + right;
        quad = [i, jBest, k, lBest];
      }
    }
  }
  return quad.map((i) => h[i]!);
}

/** Corners ordered top-left, top-right, bottom-right, bottom-left (by angle around the centre, then the top-left). */
export function orderQuad(p: Point[]): Quad {
  const cx = p.reduce((s, q) => s + q.x, 0) / p.length;
  const cy = p.reduce((s, q) => s + q.y, 0) / p.length;
  const s = [...p].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
  // Clockwise on screen from the top-left corner (smallest x + y).
  let first = 0;
  for (let i = 1; i < 4; i++) if (s[i]!.x + s[i]!.y < s[first]!.x + s[first]!.y) first = i;
  return [0, 1, 2, 3].map((i) => s[(first + i) % 4]!) as Quad;
}

/** Least-squares line through points (total least squares): a·x + b·y = c with a² + b² = 1. */
function fitLine(pts: Point[]): { a: number; b: number; c: number } | null {
  if (pts.length < 5) return null;
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pts) {
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
    sxy += (p.x - mx) * (p.y - my);
  }
  // Normal = eigenvector of the smaller eigenvalue of the scatter matrix.
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy); // direction of the line
  const a = -Math.sin(theta);
  const b = Math.cos(theta);
  return { a, b, c: a * mx + b * my };
}

function intersect(l1: { a: number; b: number; c: number }, l2: { a: number; b: number; c: number }): Point | null {
  const det = l1.a * l2.b - l2.a * l1.b;
  if (Math.abs(det) < 1e-9) return null;
  return { x: (l1.c * l2.b - l2.c * l1.b) / det, y: (l1.a * l2.c - l2.a * l1.c) / det };
}

/** Each side refitted as a line through the boundary points near it (middle 80 % of the side): sub-pixel corners. */
function refine(quad: Quad, boundary: Point[]): Quad {
  const lines = quad.map((p, i) => {
    const q = quad[(i + 1) % 4]!;
    const len = Math.hypot(q.x - p.x, q.y - p.y);
    const ux = (q.x - p.x) / len;
    const uy = (q.y - p.y) / len;
    const near = boundary.filter((b) => {
      const t = (b.x - p.x) * ux + (b.y - p.y) * uy;
      const d = Math.abs((b.x - p.x) * uy - (b.y - p.y) * ux);
      return t > 0.1 * len && t < 0.9 * len && d < 3;
    });
    return fitLine(near);
  });
  if (lines.some((l) => !l)) return quad;
  const out = [0, 1, 2, 3].map((i) => intersect(lines[(i + 3) % 4]!, lines[i]!));
  if (out.some((p, i) => !p || Math.hypot(p.x - quad[i]!.x, p.y - quad[i]!.y) > 6)) return quad;
  return out as Quad;
}

export type QuadCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether a found quadrilateral is confidently a sheet on a background: it covers 15–93 % of the picture, background
 * shows on every side (no corner at the picture's edge), it is convex with corners of 50–130°, it fills its own hull
 * (the shape really has four straight sides) and its rim is clearly brighter than the band just outside it.
 */
export function checkQuad(
  g: Gray,
  quad: Quad,
  stats: { hullArea: number; filledArea: number; threshold: number },
): QuadCheck {
  const { width: w, height: h } = g;
  const area = polygonArea(quad);
  const share = area / (w * h);
  if (share < 0.15 || share > 0.93) return { ok: false, reason: `covers ${(share * 100).toFixed(0)} %` };
  const margin = 0.01 * Math.max(w, h);
  if (quad.some((p) => p.x < margin || p.y < margin || p.x > w - 1 - margin || p.y > h - 1 - margin))
    return { ok: false, reason: 'touches the edge' };
  for (let i = 0; i < 4; i++) {
    const a = quad[(i + 3) % 4]!;
    const b = quad[i]!;
    const c = quad[(i + 1) % 4]!;
    const angle =
      (Math.acos(
        ((a.x - b.x) * (c.x - b.x) + (a.y - b.y) * (c.y - b.y)) /
          (Math.hypot(a.x - b.x, a.y - b.y) * Math.hypot(c.x - b.x, c.y - b.y)),
      ) *
        180) /
      Math.PI;
    if (!(angle > 50 && angle < 130)) return { ok: false, reason: `corner of ${angle.toFixed(0)}°` };
    if (cross(a, b, c) * cross(quad[3]!, quad[0]!, quad[1]!) <= 0) return { ok: false, reason: 'not convex' };
  }
  if (area / stats.hullArea < 0.96) return { ok: false, reason: 'not four straight sides' };
  if (stats.filledArea / area < 0.95) return { ok: false, reason: 'not filled' };
  // Rim contrast: points 2 % of the size inside and outside each side.
  const d = 0.02 * Math.max(w, h);
  const cx = quad.reduce((s, p) => s + p.x, 0) / 4;
  const cy = quad.reduce((s, p) => s + p.y, 0) / 4;
  let inside = 0;
  let outside = 0;
  let outsideBright = 0;
  let n = 0;
  for (let i = 0; i < 4; i++) {
    const p = quad[i]!;
    const q = quad[(i + 1) % 4]!;
    let nx = q.y - p.y;
    let ny = -(q.x - p.x);
    const len = Math.hypot(nx, ny);
    nx /= len;
    ny /= len;
    // Outward normal: pointing away from the centre.
    if ((p.x - cx) * nx + (p.y - cy) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    for (let t = 0.1; t <= 0.9; t += 0.02) {
      const x = p.x + (q.x - p.x) * t;
      const y = p.y + (q.y - p.y) * t;
      const at = (px: number, py: number) =>
        g.data[Math.min(h - 1, Math.max(0, Math.round(py))) * w + Math.min(w - 1, Math.max(0, Math.round(px)))]!;
      const vin = at(x - nx * d, y - ny * d);
      const vout = at(x + nx * d, y + ny * d);
      inside += vin;
      outside += vout;
      if (vout > stats.threshold) outsideBright++;
      n++;
    }
  }
  if ((inside - outside) / n < 25) return { ok: false, reason: 'rim contrast too low' };
  if (outsideBright / n > 0.35) return { ok: false, reason: 'bright outside the sheet' };
  return { ok: true };
}

/** The sheet's corners on a greyscale thumbnail, or why none was taken. */
export function findPageQuad(g: Gray): { quad: Quad } | { quad: null; reason: string } {
  const { width: w, height: h } = g;
  const b = blur(g, Math.max(1, Math.round(Math.max(w, h) / 300)));
  const t = otsu(b.data);
  const mask = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) mask[p] = b.data[p]! > t ? 1 : 0;
  const comp = largestComponent(mask, w, h);
  if (comp.size < 0.1 * w * h) return { quad: null, reason: 'no large bright region' };
  // Boundary: each row's and each column's first and last pixel of the component (text holes do not count).
  const boundary: Point[] = [];
  let filled = 0;
  for (let y = 0; y < h; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < w; x++)
      if (comp.mask[y * w + x]) {
        if (first < 0) first = x;
        last = x;
      }
    if (first >= 0) {
      boundary.push({ x: first, y: y + 0.5 }, { x: last + 1, y: y + 0.5 });
      filled += last - first + 1;
    }
  }
  for (let x = 0; x < w; x++) {
    let first = -1;
    let last = -1;
    for (let y = 0; y < h; y++)
      if (comp.mask[y * w + x]) {
        if (first < 0) first = y;
        last = y;
      }
    if (first >= 0) boundary.push({ x: x + 0.5, y: first }, { x: x + 0.5, y: last + 1 });
  }
  const hull = convexHull(boundary);
  if (hull.length < 4) return { quad: null, reason: 'degenerate region' };
  const quad = refine(orderQuad(largestQuad(hull)), boundary);
  const check = checkQuad(b, quad, { hullArea: polygonArea(hull), filledArea: filled, threshold: t });
  return check.ok ? { quad } : { quad: null, reason: check.reason };
}

/** The 3×3 homography (row-major, h33 = 1) mapping `from[i]` to `to[i]`, by solving the 8×8 linear system. */
export function homography(from: Quad, to: Quad): number[] {
  const A: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting.
  for (let c = 0; c < 8; c++) {
    let piv = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[piv]![c]!)) piv = r;
    [A[c], A[piv]] = [A[piv]!, A[c]!];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / A[c]![c]!;
      for (let k = c; k < 9; k++) A[r]![k]! -= f * A[c]![k]!;
    }
  }
  return [...A.map((row, i) => row[8]! / row[i]!), 1];
}

/**
 * Inverse warp with bilinear sampling: every pixel of the `outW × outH` output is mapped by `H` (output → source)
 * into the RGBA source. Coordinates are pixel-edge ones (pixel i covers [i, i + 1), its centre is i + 0.5), as are the
 * corners found on the thumbnail. Pixels that map outside the source are white, or transparent with `transparent`
 * (the eval draws a page into a photo that way).
 */
export function warpRgba(
  src: { data: Uint8ClampedArray | Uint8Array; width: number; height: number },
  H: number[],
  outW: number,
  outH: number,
  transparent = false,
): Uint8ClampedArray {
  const { data, width: w, height: h } = src;
  const out = new Uint8ClampedArray(outW * outH * 4);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const z = H[6]! * cx + H[7]! * cy + H[8]!;
      const sx = (H[0]! * cx + H[1]! * cy + H[2]!) / z - 0.5;
      const sy = (H[3]! * cx + H[4]! * cy + H[5]!) / z - 0.5;
      const o = (y * outW + x) * 4;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= w - 1 || y0 >= h - 1) {
        out[o] = out[o + 1] = out[o + 2] = 255;
        out[o + 3] = transparent ? 0 : 255;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = (y0 * w + x0) * 4;
      const j = i + w * 4;
      for (let c = 0; c < 3; c++) {
        const top = data[i + c]! + (data[i + 4 + c]! - data[i + c]!) * fx;
        const bot = data[j + c]! + (data[j + 4 + c]! - data[j + c]!) * fx;
        out[o + c] = top + (bot - top) * fy;
      }
      out[o + 3] = 255;
    }
  }
  return out;
}

/** Greyscale thumbnail of a canvas, long side `long` px at most. */
export async function grayThumbnail(src: Canvas, long: number): Promise<{ gray: Gray; scale: number }> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const scale = Math.min(1, long / Math.max(src.width, src.height));
  const w = Math.max(1, Math.round(src.width * scale));
  const h = Math.max(1, Math.round(src.height * scale));
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  ctx.drawImage(src, 0, 0, w, h);
  const d = ctx.getImageData(0, 0, w, h).data;
  const data = new Uint8Array(w * h);
  for (let i = 0, p = 0; p < w * h; i += 4, p++) data[p] = (d[i]! * 77 + d[i + 1]! * 150 + d[i + 2]! * 29) >> 8;
  return { gray: { data, width: w, height: h }, scale: w / src.width };
}

/**
 * A photographed sheet straightened and cropped; the canvas itself when no sheet is confidently found. The photo is
 * first scaled to WARP_SOURCE_LONG_SIDE at most, so a 50-megapixel photo costs no more than a 10-megapixel one.
 */
export async function straightenPhoto(src: Canvas): Promise<{ canvas: Canvas; quad: Quad | null; reason?: string }> {
  const { createCanvas } = await import('@napi-rs/canvas');
  // The photo is scaled down once and everything else is drawn from that copy: every drawImage from a full-size
  // canvas makes the canvas library take a raster snapshot of it (about 100 MB for a 27-megapixel photo).
  const s2 = Math.min(1, WARP_SOURCE_LONG_SIDE / Math.max(src.width, src.height));
  const sw = Math.round(src.width * s2);
  const sh = Math.round(src.height * s2);
  const base = s2 < 1 ? createCanvas(sw, sh) : src;
  if (base !== src) base.getContext('2d').drawImage(src, 0, 0, sw, sh);
  const thumb = await grayThumbnail(base, DETECT_LONG_SIDE);
  const gray = thumb.gray;
  const scale = thumb.scale * s2;
  const found = findPageQuad(gray);
  if (!found.quad) return { canvas: src, quad: null, reason: found.reason };
  const pixels = base.getContext('2d').getImageData(0, 0, sw, sh);
  // Thumbnail corners (pixel-edge coordinates) into the scaled source.
  const k = s2 / scale;
  const q = found.quad.map((p) => ({ x: p.x * k, y: p.y * k })) as Quad;
  const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  let outW = Math.max(dist(q[0], q[1]), dist(q[3], q[2]));
  let outH = Math.max(dist(q[0], q[3]), dist(q[1], q[2]));
  const cap = Math.min(1, WARP_SOURCE_LONG_SIDE / Math.max(outW, outH));
  outW = Math.max(1, Math.round(outW * cap));
  outH = Math.max(1, Math.round(outH * cap));
  const rect: Quad = [
    { x: 0, y: 0 },
    { x: outW, y: 0 },
    { x: outW, y: outH },
    { x: 0, y: outH },
  ];
  const H = homography(rect, q);
  const out = createCanvas(outW, outH);
  const ctx = out.getContext('2d');
  const img = ctx.createImageData(outW, outH);
  img.data.set(flattenLight(warpRgba(pixels, H, outW, outH), outW, outH));
  ctx.putImageData(img, 0, 0);
  return { canvas: out, quad: q };
}

/** Square erosion (op 'min') or dilation ('max') of a 0/1 mask by `r` pixels, as two passes of a running window. */
function morph(mask: Uint8Array, w: number, h: number, r: number, op: 'min' | 'max'): Uint8Array {
  const pass = (src: Uint8Array, horizontal: boolean): Uint8Array => {
    const out = new Uint8Array(w * h);
    const [n, m] = horizontal ? [h, w] : [w, h];
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < m; b++) {
        let v = op === 'min' ? 1 : 0;
        for (let k = Math.max(0, b - r); k <= Math.min(m - 1, b + r); k++) {
          const x = src[horizontal ? a * w + k : k * w + a]!;
          if (op === 'min' ? x === 0 : x === 1) {
            v = x;
            break;
          }
        }
        out[horizontal ? a * w + b : b * w + a] = v;
      }
    }
    return out;
  };
  return pass(pass(mask, true), false);
}

/**
 * Where the paper is on a photo whose sheet could not be straightened (a curled or torn edge, a corner out of the
 * picture): the largest bright region once thin bridges to the background are cut (a desk's light wood grain
 * touching the sheet), widened back by a margin, each row filled between its ends (print is dark, and inside the
 * sheet). Thumbnail pixels, 1 = paper; null when no such region is clearly a sheet on a darker ground.
 */
export function paperMask(g: Gray): Uint8Array | null {
  const { width: w, height: h } = g;
  const b = blur(g, Math.max(1, Math.round(Math.max(w, h) / 300)));
  const t = otsu(b.data);
  const bright = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) bright[p] = b.data[p]! > t ? 1 : 0;
  const r = Math.max(2, Math.round(Math.max(w, h) / 150));
  const comp = largestComponent(morph(bright, w, h, r, 'min'), w, h);
  const share = comp.size / (w * h);
  if (share < 0.1 || share > 0.85) return null;
  const grown = morph(comp.mask, w, h, r + Math.round(Math.max(w, h) / 120), 'max');
  const out = new Uint8Array(w * h);
  let inside = 0;
  let outside = 0;
  let nIn = 0;
  let ink = 0;
  for (let y = 0; y < h; y++) {
    let first = -1;
    let last = -1;
    for (let x = 0; x < w; x++)
      if (grown[y * w + x]) {
        if (first < 0) first = x;
        last = x;
      }
    for (let x = 0; x < w; x++) {
      const on = first >= 0 && x >= first && x <= last;
      out[y * w + x] = on ? 1 : 0;
      if (on) {
        inside += b.data[y * w + x]!;
        nIn++;
        if (g.data[y * w + x]! < t - 40) ink++;
      } else outside += b.data[y * w + x]!;
    }
  }
  const nOut = w * h - nIn;
  // The ground must be clearly darker than the sheet, and take a fair part of the picture; the sheet carries print
  // (a picture's blank white margin around a photo is no sheet).
  if (nOut < 0.1 * w * h || inside / nIn - outside / nOut < 40 || ink < 0.01 * nIn) return null;
  return out;
}

/**
 * The photo with everything outside its sheet painted in the paper's shade (paperMask), the canvas itself when no
 * sheet stands out: OCR's page layout reads a desk's texture as pictures and drops the blocks of print beside it.
 * `maxLongSide` scales the result down (a second reading at a lower resolution costs OCR less memory).
 */
export async function whitenBackground(src: Canvas, maxLongSide = Number.POSITIVE_INFINITY): Promise<Canvas> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const thumb = await grayThumbnail(src, DETECT_LONG_SIDE);
  const mask = paperMask(thumb.gray);
  if (!mask) return src;
  const { width: tw, height: th } = thumb.gray;
  const k = Math.min(1, maxLongSide / Math.max(src.width, src.height));
  const out = createCanvas(Math.round(src.width * k), Math.round(src.height * k));
  const ctx = out.getContext('2d');
  ctx.drawImage(src, 0, 0, out.width, out.height);
  // The paper's own shade, not white: OCR binarises the page with one threshold, and a grey sheet beside white
  // would read as dark. The median of the sheet's brighter half (the paper, not its print).
  const shades: number[] = [];
  for (let p = 0; p < tw * th; p += 7) if (mask[p]) shades.push(thumb.gray.data[p]!);
  shades.sort((a, b) => a - b);
  const paper = shades[Math.floor(shades.length * 0.75)] ?? 255;
  ctx.fillStyle = `rgb(${paper},${paper},${paper})`;
  // Row by row in thumbnail units: the runs outside the sheet.
  const sx = out.width / tw;
  const sy = out.height / th;
  for (let y = 0; y < th; y++) {
    let x = 0;
    while (x < tw) {
      if (mask[y * tw + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < tw && !mask[y * tw + x]) x++;
      ctx.fillRect(Math.floor(start * sx), Math.floor(y * sy), Math.ceil((x - start) * sx) + 1, Math.ceil(sy) + 1);
    }
  }
  return out;
}

/** A crop's share of the image above which cropping is not worth it (a full page of text). */
const CROP_MAX_SHARE = 0.6;

/**
 * The part of a scan that holds the document, in thumbnail pixels; null when that is (nearly) all of it. A till
 * receipt scanned on a flatbed fills a strip of an A4 image: on a dark background (the lid left open) it is the bright
 * region, on white paper the region its ink covers.
 */
export function contentBox(g: Gray): { x: number; y: number; width: number; height: number } | null {
  const { width: w, height: h, data } = g;
  if (w < 50 || h < 50) return null;
  const t = otsu(data);
  let bright = 0;
  for (const v of data) if (v > t) bright++;
  let box: { x0: number; x1: number; y0: number; y1: number };
  if (bright / (w * h) < 0.7) {
    // Dark background: the columns, then the rows, that are mostly paper.
    const colBright = new Float64Array(w);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (data[y * w + x]! > t) colBright[x]! += 1 / h;
    const cols = [...colBright.keys()].filter((x) => colBright[x]! > 0.5);
    if (!cols.length) return null;
    const x0 = cols[0]!;
    const x1 = cols[cols.length - 1]!;
    const rows: number[] = [];
    for (let y = 0; y < h; y++) {
      let n = 0;
      for (let x = x0; x <= x1; x++) if (data[y * w + x]! > t) n++;
      if (n > 0.5 * (x1 - x0 + 1)) rows.push(y);
    }
    if (!rows.length) return null;
    box = { x0, x1, y0: rows[0]!, y1: rows[rows.length - 1]! };
  } else {
    // White background: the ink, less the outermost 0.5 % of it on each side (specks, a scanner's edge).
    const xs = new Float64Array(w);
    const ys = new Float64Array(h);
    let ink = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        if (data[y * w + x]! <= t) {
          xs[x]! += 1;
          ys[y]! += 1;
          ink++;
        }
    if (ink < 100) return null;
    const trim = (hist: Float64Array): [number, number] => {
      let acc = 0;
      let lo = 0;
      while (lo < hist.length - 1 && acc + hist[lo]! <= ink * 0.005) acc += hist[lo++]!;
      acc = 0;
      let hi = hist.length - 1;
      while (hi > lo && acc + hist[hi]! <= ink * 0.005) acc += hist[hi--]!;
      return [lo, hi];
    };
    const [x0, x1] = trim(xs);
    const [y0, y1] = trim(ys);
    box = { x0, x1, y0, y1 };
  }
  const margin = Math.round(0.02 * Math.max(w, h));
  const x = Math.max(0, box.x0 - margin);
  const y = Math.max(0, box.y0 - margin);
  const width = Math.min(w, box.x1 + margin + 1) - x;
  const height = Math.min(h, box.y1 + margin + 1) - y;
  if (width < 0.05 * w || height < 0.05 * h || width * height > CROP_MAX_SHARE * w * h) return null;
  return { x, y, width, height };
}

/**
 * The scan cropped to its document (contentBox), so that OCR's image size limit applies to the document rather than
 * the empty page around it; the canvas itself when there is nothing to crop or its long side is at most `minLongSide`.
 */
export async function cropToContent(src: Canvas, minLongSide: number): Promise<Canvas> {
  if (Math.max(src.width, src.height) <= minLongSide) return src;
  const { gray, scale } = await grayThumbnail(src, DETECT_LONG_SIDE);
  const box = contentBox(gray);
  if (!box) return src;
  const { createCanvas } = await import('@napi-rs/canvas');
  const x = Math.floor(box.x / scale);
  const y = Math.floor(box.y / scale);
  const w = Math.max(1, Math.min(src.width - x, Math.ceil(box.width / scale)));
  const h = Math.max(1, Math.min(src.height - y, Math.ceil(box.height / scale)));
  const out = createCanvas(w, h);
  out.getContext('2d').drawImage(src, x, y, w, h, 0, 0, w, h);
  return out;
}

/** Block size of the paper-brightness estimate: larger than a stroke, smaller than a shadow's soft edge. */
const LIGHT_BLOCK = 8;

/**
 * Evens out the light on a photographed sheet (a shadow across it, a darker far end): each pixel's grey is divided by
 * the local paper brightness, estimated as the brightest value of its 8 × 8 block, spread to the 5 × 5 blocks around
 * (so ink and small dark areas are bridged), smoothed and interpolated back. Tesseract binarises with one threshold
 * per page, which otherwise turns a shadowed band into solid black. Returns greyscale RGBA (OCR reads grey anyway).
 */
export function flattenLight(rgba: Uint8ClampedArray, w: number, h: number): Uint8ClampedArray {
  const gw = Math.ceil(w / LIGHT_BLOCK);
  const gh = Math.ceil(h / LIGHT_BLOCK);
  const grey = new Uint8Array(w * h);
  const block = new Uint8Array(gw * gh);
  for (let y = 0, p = 0; y < h; y++) {
    const row = ((y / LIGHT_BLOCK) | 0) * gw;
    for (let x = 0; x < w; x++, p++) {
      const v = (rgba[p * 4]! * 77 + rgba[p * 4 + 1]! * 150 + rgba[p * 4 + 2]! * 29) >> 8;
      grey[p] = v;
      const b = row + ((x / LIGHT_BLOCK) | 0);
      if (v > block[b]!) block[b] = v;
    }
  }
  const spread = new Uint8Array(gw * gh);
  for (let by = 0; by < gh; by++) {
    for (let bx = 0; bx < gw; bx++) {
      let m = 0;
      for (let dy = -2; dy <= 2; dy++) {
        const yy = by + dy;
        if (yy < 0 || yy >= gh) continue;
        for (let dx = -2; dx <= 2; dx++) {
          const xx = bx + dx;
          if (xx >= 0 && xx < gw && block[yy * gw + xx]! > m) m = block[yy * gw + xx]!;
        }
      }
      spread[by * gw + bx] = m;
    }
  }
  const bg = blur({ data: spread, width: gw, height: gh }, 2).data;
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0, p = 0; y < h; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y + 0.5) / LIGHT_BLOCK - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(gh - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < w; x++, p++) {
      const fx = Math.min(gw - 1, Math.max(0, (x + 0.5) / LIGHT_BLOCK - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(gw - 1, x0 + 1);
      const tx = fx - x0;
      const top = bg[y0 * gw + x0]! + (bg[y0 * gw + x1]! - bg[y0 * gw + x0]!) * tx;
      const bot = bg[y1 * gw + x0]! + (bg[y1 * gw + x1]! - bg[y1 * gw + x0]!) * tx;
      const light = Math.max(32, top + (bot - top) * ty);
      const v = (grey[p]! * 255) / light;
      out[p * 4] = out[p * 4 + 1] = out[p * 4 + 2] = v;
      out[p * 4 + 3] = 255;
    }
  }
  return out;
}

/** A canvas with its light evened out (flattenLight), as a new greyscale canvas. */
export async function evenOutCanvas(src: Canvas): Promise<Canvas> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const { width: w, height: h } = src;
  const pixels = src.getContext('2d').getImageData(0, 0, w, h);
  const out = createCanvas(w, h);
  const ctx = out.getContext('2d');
  const img = ctx.createImageData(w, h);
  img.data.set(flattenLight(pixels.data, w, h));
  ctx.putImageData(img, 0, 0);
  return out;
}

/**
 * How unevenly the paper is lit, 0..1: the spread (10th to 90th percentile) of the local paper brightness over a
 * thumbnail, relative to the brightest paper. A flatbed scan or a rendered page scores about 0–0.07, a phone photo with
 * a shadow or a darker far end 0.2 and more.
 */
export function unevenness(g: Gray): number {
  const B = 8;
  const gw = Math.ceil(g.width / B);
  const gh = Math.ceil(g.height / B);
  const block = new Uint8Array(gw * gh);
  for (let y = 0; y < g.height; y++)
    for (let x = 0; x < g.width; x++) {
      const b = ((y / B) | 0) * gw + ((x / B) | 0);
      const v = g.data[y * g.width + x]!;
      if (v > block[b]!) block[b] = v;
    }
  // Paper brightness bridges ink: the brightest block within two blocks around.
  const paper: number[] = [];
  for (let by = 0; by < gh; by++)
    for (let bx = 0; bx < gw; bx++) {
      let m = 0;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const yy = by + dy;
          const xx = bx + dx;
          if (yy >= 0 && yy < gh && xx >= 0 && xx < gw && block[yy * gw + xx]! > m) m = block[yy * gw + xx]!;
        }
      paper.push(m);
    }
  paper.sort((a, b) => a - b);
  const p10 = paper[Math.floor(paper.length * 0.1)]!;
  const p90 = paper[Math.floor(paper.length * 0.9)]!;
  return p90 ? (p90 - p10) / p90 : 0;
}
