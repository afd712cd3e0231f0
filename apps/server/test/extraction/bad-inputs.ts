import zlib from 'node:zlib';

/**
 * Hand-made hostile or broken files for the bad-input tests (built in memory; nothing binary is committed).
 */

/** Assembles a PDF from object bodies with a correct cross-reference table. */
export function rawPdf(objects: string[], trailerExtra = ''): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

const page = (contents = '') => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ${contents} >>`,
];

/** One A4 page drawing `stream` in Helvetica (font object 5); `extra` objects follow as 6, 7, … for the catalog. */
function helveticaPdf(stream: string, catalogExtra = '', extra: string[] = []): Uint8Array {
  return rawPdf([
    `<< /Type /Catalog /Pages 2 0 R ${catalogExtra}>>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...extra,
  ]);
}

/** Standard security handler with a user password we do not know: pdf.js asks for a password. */
export function encryptedPdf(): Uint8Array {
  const hex32 = 'A1'.repeat(32);
  return rawPdf(
    [...page(), `<< /Filter /Standard /V 1 /R 2 /O <${hex32}> /U <${'5C'.repeat(32)}> /P -4 >>`],
    `/Encrypt 4 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]`,
  );
}

/** An OpenAction running JavaScript (must never run) next to normal text. */
export function javascriptPdf(): Uint8Array {
  const stream = 'BT /F1 12 Tf 50 700 Td (Invoice No. JS-1 Total 12.00 EUR) Tj ET';
  return helveticaPdf(stream, '/OpenAction 6 0 R ', ['<< /S /JavaScript /JS (app.alert("pwned"); while(true){}) >>']);
}

/** 100 000 nested arrays in one object: a parser that recurses naively overflows its stack. */
export function deeplyNestedPdf(depth = 100_000): Uint8Array {
  return rawPdf([...page(`/Foo ${'['.repeat(depth)}${']'.repeat(depth)}`)]);
}

/** A PNG whose header claims 20 000 × 20 000 pixels (the pixel data is never reached). */
export function hugePngHeader(width = 20_000, height = 20_000): Uint8Array {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b.writeUInt8(8, 24);
  b.writeUInt8(2, 25);
  return new Uint8Array(b);
}

export const XXE_XML = `<?xml version="1.0"?>
<!DOCTYPE Invoice [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
 xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>&xxe;</cbc:ID>
</Invoice>`;

export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<Invoice><ID>&lol2;</ID></Invoice>`;

/** A page whose content stream repeats one text operator `repeats` times: pdf.js works on it for seconds. */
export function slowTextPdf(repeats = 400_000): Uint8Array {
  const stream = 'BT /F1 9 Tf 50 700 Td (Invoice No. SLOW-1 Total 12.00 EUR) Tj ET\n'.repeat(repeats);
  return helveticaPdf(stream);
}

/** Helvetica text whose words are kerned apart by TJ offsets: 0.13 em inside "Lieferant", 0.3 em between words. */
export function kernedTextPdf(): Uint8Array {
  return helveticaPdf('BT /F1 10 Tf 50 700 Td [(Liefer) -130 (ant) -300 (GmbH)] TJ ET');
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A complete RGB PNG of `width` × `height` white pixels (small on disk, large once decoded). */
export function whitePng(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3, 0xff);
  row[0] = 0;
  const deflate = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflate),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A PNG of 0 × 0 pixels: decoding it crashed the process natively (segmentation fault). */
export function zeroSizePng(): Uint8Array {
  const png = Buffer.from(whitePng(1, 1));
  png.writeUInt32BE(0, 16);
  png.writeUInt32BE(0, 20);
  return new Uint8Array(png);
}

/** A progressive JPEG frame header followed by `scans` scans: far more than any encoder writes. */
export function manyScanJpeg(scans = 5000): Uint8Array {
  const segment = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const parts = [
    0xff,
    0xd8,
    ...segment(0xc2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // SOF2: 8 × 8, one component
    ...segment(0xc4, [0x00, 1, ...new Array(15).fill(0), 0]), // a DC Huffman table with one code
  ];
  for (let i = 0; i < scans; i++) parts.push(...segment(0xda, [1, 1, 0x00, 0, 0, 0]), 0x00);
  parts.push(0xff, 0xd9);
  return new Uint8Array(parts);
}

/** One page whose content stream is `megabytes` MB of zeros compressed with Flate (a "flate bomb"). */
export function flateBombPdf(megabytes: number): Uint8Array {
  const stream = zlib.deflateSync(Buffer.alloc(megabytes * 1024 * 1024, 0x30), { level: 9 });
  const head = Buffer.from(
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>\nendobj\n' +
      `4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
    'latin1',
  );
  // No cross-reference table: pdf.js rebuilds it by scanning, as for many damaged real files.
  return new Uint8Array(
    Buffer.concat([head, stream, Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n')]),
  );
}
