import zlib from 'node:zlib';

/**
 * Byte tools of the hostile corpus: cheap decompression bombs, seeded mutations and a ZIP writer that writes exactly
 * what it is told (names with `../`, absolute paths, symlinks, sizes that lie), which no archiving library does.
 */

/** A small deterministic random generator (mulberry32): the corpus is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fullFlushZeros = new Map<number, Buffer>();

/**
 * A raw deflate body that inflates to `bytes` zero bytes, built from one fully flushed 1 MiB block repeated, so a
 * gigabyte bomb costs milliseconds to make (deflating a gigabyte would take seconds each time).
 */
function zeroDeflateRaw(bytes: number, fill = 0): Buffer {
  const chunk = 1 << 20;
  let block = fullFlushZeros.get(fill);
  if (!block) {
    block = zlib.deflateRawSync(Buffer.alloc(chunk, fill), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
    fullFlushZeros.set(fill, block);
  }
  const whole = Math.floor(bytes / chunk);
  const rest = zlib.deflateRawSync(Buffer.alloc(bytes - whole * chunk, fill), { level: 9 });
  return Buffer.concat([...Array.from({ length: whole }, () => block), rest]);
}

/** A zlib stream (what PDF's FlateDecode and PNG's IDAT hold) inflating to `bytes` bytes of `fill`. */
export function zlibBomb(bytes: number, fill = 0): Buffer {
  // Adler-32 of `bytes` equal bytes: a = 1 + n·fill, b = n + fill·n(n+1)/2, both mod 65521.
  const n = BigInt(bytes);
  const f = BigInt(fill);
  const a = (1n + n * f) % 65521n;
  const b = (n + (f * n * (n + 1n)) / 2n) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0xda]), zeroDeflateRaw(bytes, fill), adler]);
}

/** `bytes` with `count` bytes replaced by random ones (seeded). */
export function corrupt(bytes: Uint8Array, seed: number, count: number): Buffer {
  const random = seeded(seed);
  const out = Buffer.from(bytes);
  for (let i = 0; i < count; i++) out[Math.floor(random() * out.length)] = Math.floor(random() * 256);
  return out;
}

/** `bytes` cut at `fraction` of their length. */
export function truncate(bytes: Uint8Array, fraction: number): Buffer {
  return Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));
}

export interface ZipEntry {
  name: string | Buffer;
  data?: Buffer;
  /** Store the data deflated (default) or as is. */
  method?: 'deflate' | 'store';
  /** A symbolic link to this target instead of a file. */
  symlinkTo?: string;
  /** The uncompressed size written in the headers, when it should lie. */
  claimedSize?: number;
  /** Already compressed bytes (a bomb made elsewhere) and the size they inflate to. */
  raw?: { compressed: Buffer; size: number; crc: number };
}

/** A ZIP file of `entries`, names and sizes written as given. */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = typeof entry.name === 'string' ? Buffer.from(entry.name, 'utf8') : entry.name;
    const content = entry.symlinkTo !== undefined ? Buffer.from(entry.symlinkTo) : (entry.data ?? Buffer.alloc(0));
    const deflate = entry.method !== 'store' && entry.symlinkTo === undefined;
    const compressed = entry.raw?.compressed ?? (deflate ? zlib.deflateRawSync(content) : content);
    const size = entry.claimedSize ?? entry.raw?.size ?? content.length;
    const crc = entry.raw?.crc ?? zlib.crc32(content) >>> 0;
    const method = entry.raw || deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by Unix, so the external attributes carry a mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    const mode = entry.symlinkTo !== undefined ? 0o120777 : 0o100644;
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length & 0xffff, 8);
  end.writeUInt16LE(entries.length & 0xffff, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A raw-deflate ZIP entry body inflating to `bytes` zeros, with its CRC (computed by streaming zeros once). */
const bombEntries = new Map<number, { compressed: Buffer; size: number; crc: number }>();

export function zipBombEntry(bytes: number): { compressed: Buffer; size: number; crc: number } {
  const known = bombEntries.get(bytes);
  if (known) return known;
  const chunk = Buffer.alloc(1 << 20);
  let crc = 0;
  let left = bytes;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    crc = zlib.crc32(n === chunk.length ? chunk : chunk.subarray(0, n), crc);
    left -= n;
  }
  const entry = { compressed: zeroDeflateRaw(bytes), size: bytes, crc: crc >>> 0 };
  bombEntries.set(bytes, entry);
  return entry;
}
