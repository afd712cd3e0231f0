import zlib from 'node:zlib';
import {
  BILLION_LAUGHS,
  encryptedPdf,
  hugePngHeader,
  javascriptPdf,
  manyScanJpeg,
  rawPdf,
  whitePng,
  XXE_XML,
  zeroSizePng,
} from '../extraction/bad-inputs';
import { buildMail } from '../mail/mail-builder';
import { corrupt, seeded, truncate, writeZip, zipBombEntry, zlibBomb } from './bytes';

/**
 * The hostile-input corpus (issue 12): more than a thousand malformed or malicious inputs, generated here at test
 * time (nothing binary is committed). Each item says which way it enters Invoicebox:
 * - `document`: a file read by `invoicebox extract`, and as the attachment of a mail read by `invoicebox scan` and by
 *   the server's mail upload (PDF, image, e-invoice XML; XML reaches the server inside a PDF);
 * - `mail`: raw message bytes (MIME), read by `scan` and the mail upload;
 * - `zip`: an upload of the mail import (a Google Takeout .zip);
 * - `csv`: a bank statement for `invoicebox statement` and the bank-statement upload;
 * - `api`: one HTTP request to the running server.
 * Bytes are built on first use and kept, so a sample costs only what it uses.
 */

export type Category = 'pdf' | 'image' | 'mime' | 'archive' | 'xml' | 'csv' | 'filename' | 'api';
export type Channel = 'document' | 'mail' | 'zip' | 'csv' | 'api';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below /api/v1. */
  path: string;
  contentType?: string;
  body?: Buffer | string;
  /** Sent without the bearer token. */
  anonymous?: boolean;
}

export interface HostileItem {
  id: string;
  category: Category;
  channel: Channel;
  /** File name for documents, statements and attachments. */
  filename: string;
  /** Heavy items (bombs, huge files): every one runs in the bench, a few in CI. */
  heavy?: boolean;
  bytes(): Buffer;
  request?(): ApiRequest;
}

const cache = <T>(make: () => T): (() => T) => {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
};

function item(
  category: Category,
  channel: Channel,
  id: string,
  filename: string,
  make: () => Buffer | Uint8Array | string,
  heavy = false,
): HostileItem {
  const bytes = cache(() => {
    const made = make();
    return typeof made === 'string' ? Buffer.from(made, 'latin1') : Buffer.from(made);
  });
  return { id: `${category}/${id}`, category, channel, filename, bytes, ...(heavy ? { heavy } : {}) };
}

// --- PDF -------------------------------------------------------------------------------------------------------------

const INVOICE_TEXT =
  'BT /F1 11 Tf 50 780 Td (ACME Supplies GmbH) Tj 0 -20 Td (Invoice No. HX-2041) Tj 0 -20 Td ' +
  '(Invoice date 2026-03-14) Tj 0 -20 Td (Total 1,234.56 EUR) Tj ET';

/** The objects of a one-page invoice PDF (catalog 1, pages 2, page 3, content 4, font 5); `extra` follow as 6, 7, … */
function invoiceObjects(options: { catalog?: string; page?: string; content?: string; extra?: string[] } = {}) {
  const content = options.content ?? INVOICE_TEXT;
  return [
    `<< /Type /Catalog /Pages 2 0 R ${options.catalog ?? ''}>>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> ${options.page ?? ''}>> >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...(options.extra ?? []),
  ];
}

export const validInvoicePdf = cache(() => Buffer.from(rawPdf(invoiceObjects())));

/** A PDF whose objects are given as bytes (binary streams), with a correct cross-reference table. */
function binaryPdf(objects: Array<Buffer | string>, trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${String(o).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra} >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const streamObject = (dict: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream'),
  ]);

const MB = 1024 * 1024;

/** An invoice whose object 6 is a stream of `dict` holding `data`, referenced from where `use` says. */
function pdfWithStream(use: { catalog?: string; page?: string }, dict: string, data: Buffer, more: Buffer[] = []) {
  return binaryPdf([...invoiceObjects(use), streamObject(dict, data), ...more]);
}

function embeddedFilePdf(name: string, xml: Buffer, filter = ''): Buffer {
  const data = filter ? zlib.deflateSync(xml) : xml;
  return binaryPdf([
    ...invoiceObjects({
      catalog: `/Names << /EmbeddedFiles << /Names [(${name}) 6 0 R] >> >> /AF [6 0 R] `,
    }),
    `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Alternative /EF << /F 7 0 R >> >>`,
    streamObject(`/Type /EmbeddedFile /Subtype /text#2Fxml ${filter}`, data),
  ]);
}

function embeddedBombPdf(name: string, bytes: number): Buffer {
  return binaryPdf([
    ...invoiceObjects({ catalog: `/Names << /EmbeddedFiles << /Names [(${name}) 6 0 R] >> >> ` }),
    `<< /Type /Filespec /F (${name}) /UF (${name}) /EF << /F 7 0 R >> >>`,
    streamObject('/Type /EmbeddedFile /Filter /FlateDecode', zlibBomb(bytes, 0x41)),
  ]);
}

function imagePdf(width: number, height: number, dict: string, data: Buffer): Buffer {
  const draw = `q ${595} 0 0 ${842} 0 0 cm /Im1 Do Q ${INVOICE_TEXT}`;
  return binaryPdf([
    ...invoiceObjects({ content: draw, page: '/XObject << /Im1 6 0 R >> ' }),
    streamObject(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} ${dict}`, data),
  ]);
}

/** A JPEG header of a baseline frame of `width` × `height` (no real data: decoders must refuse or stop early). */
function jpegHeader(width: number, height: number, progressive = false): Buffer {
  const sof = [
    0xff,
    progressive ? 0xc2 : 0xc0,
    0,
    11,
    8,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    1,
    1,
    0x11,
    0,
  ];
  const dht = [0xff, 0xc4, 0, 21, 0x00, 1, ...new Array(15).fill(0), 0];
  const sos = [0xff, 0xda, 0, 8, 1, 1, 0x00, 0, 63, 0];
  return Buffer.from([0xff, 0xd8, ...sof, ...dht, ...sos, 0x00, 0x00, 0x00, 0xff, 0xd9]);
}

function pdfItems(): HostileItem[] {
  const items: HostileItem[] = [];
  const add = (id: string, make: () => Buffer | Uint8Array | string, heavy = false) => {
    items.push(item('pdf', 'document', id, `${id.replace(/[^\w-]/g, '-')}.pdf`, make, heavy));
  };

  add('valid-control', validInvoicePdf);
  // Truncated: at 60 points of a small invoice and of an invoice with an embedded XML.
  for (let i = 1; i <= 40; i++) add(`truncated-${i}`, () => truncate(validInvoicePdf(), i / 41));
  for (let i = 1; i <= 20; i++)
    add(`truncated-embedded-${i}`, () => truncate(embeddedFilePdf('factur-x.xml', Buffer.from(UBL)), i / 21));
  // Corrupted bytes: a few to many, at seeded places.
  for (let i = 0; i < 150; i++) add(`corrupted-${i}`, () => corrupt(validInvoicePdf(), 1000 + i, 1 + (i % 30) * 3));
  for (let i = 0; i < 30; i++)
    add(`corrupted-embedded-${i}`, () => corrupt(embeddedFilePdf('factur-x.xml', Buffer.from(UBL)), 2000 + i, 1 + i));
  // Token-level mutations: numbers, names and references replaced with extreme ones.
  const tokens = [
    '-1',
    '0',
    '4294967296',
    '99999999999999999999',
    '1e308',
    '/Null',
    '[]',
    '<<>>',
    '9999 0 R',
    'null',
    '()',
  ];
  for (let i = 0; i < 60; i++) {
    add(`mutated-${i}`, () => {
      const random = seeded(3000 + i);
      const text = validInvoicePdf().toString('latin1');
      const numbers = [...text.matchAll(/\b\d+\b/g)];
      let out = text;
      for (let k = 0; k < 1 + (i % 5); k++) {
        const m = numbers[Math.floor(random() * numbers.length)]!;
        out = out.slice(0, m.index) + tokens[Math.floor(random() * tokens.length)] + out.slice(m.index! + m[0].length);
      }
      return out;
    });
  }
  // Object loops.
  add('loop-pages-kids-self', () =>
    rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] /Count 1 >>']),
  );
  add('loop-pages-two', () =>
    rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >>',
    ]),
  );
  add('loop-parent', () =>
    rawPdf(invoiceObjects().map((o, i) => (i === 1 ? '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 2 0 R >>' : o))),
  );
  add('loop-length-self', () =>
    rawPdf([...invoiceObjects({ page: '/Foo 6 0 R ' }), '<< /Length 6 0 R >>\nstream\nabc\nendstream']),
  );
  add('loop-ref-chain', () => rawPdf([...invoiceObjects({ page: '/Foo 6 0 R ' }), '7 0 R', '6 0 R']));
  add('loop-xref-prev', () => {
    const pdf = Buffer.from(rawPdf(invoiceObjects())).toString('latin1');
    const at = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    return pdf.replace('/Root 1 0 R', `/Root 1 0 R /Prev ${at}`);
  });
  add('loop-outlines', () =>
    rawPdf([
      ...invoiceObjects({ catalog: '/Outlines 6 0 R ' }),
      '<< /First 7 0 R /Last 7 0 R >>',
      '<< /Title (a) /Parent 6 0 R /Next 7 0 R /Prev 7 0 R >>',
    ]),
  );
  add('loop-names-tree', () =>
    rawPdf([...invoiceObjects({ catalog: '/Names << /EmbeddedFiles 6 0 R >> ' }), '<< /Kids [6 0 R] >>']),
  );
  add('loop-form-xobject', () => {
    const draw = `/X1 Do ${INVOICE_TEXT}`;
    return binaryPdf([
      ...invoiceObjects({ content: draw, page: '/XObject << /X1 6 0 R >> ' }),
      streamObject(
        '/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /X1 6 0 R >> >>',
        Buffer.from('/X1 Do'),
      ),
    ]);
  });
  // Deep nesting: 10,000 levels in every place a parser recurses.
  const depth = 10_000;
  add('nesting-arrays', () => rawPdf(invoiceObjects({ page: `/Foo ${'['.repeat(depth)}${']'.repeat(depth)} ` })));
  add('nesting-dicts', () =>
    rawPdf(invoiceObjects({ page: `/Foo ${'<< /A '.repeat(depth)}1${' >>'.repeat(depth)} ` })),
  );
  add('nesting-unclosed', () => rawPdf(invoiceObjects({ page: `/Foo ${'['.repeat(depth)} ` })));
  add('nesting-content-q', () =>
    rawPdf(invoiceObjects({ content: `${'q '.repeat(depth)}${INVOICE_TEXT}${' Q'.repeat(depth)}` })),
  );
  add('nesting-content-arrays', () =>
    rawPdf(invoiceObjects({ content: `${'['.repeat(depth)}${']'.repeat(depth)} ${INVOICE_TEXT}` })),
  );
  add('nesting-page-tree', () => {
    const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
    for (let i = 0; i < depth; i++)
      objects.push(`<< /Type /Pages /Kids [${i + 3} 0 R] /Count 1 ${i ? `/Parent ${i + 1} 0 R` : ''} >>`);
    objects.push(`<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 595 842] >>`);
    return rawPdf(objects);
  });
  add('nesting-100k-arrays', () =>
    rawPdf(invoiceObjects({ page: `/Foo ${'['.repeat(100_000)}${']'.repeat(100_000)} ` })),
  );
  // Flate bombs: page content, a font, an embedded file, an object stream, an image, nested filters, many streams.
  add('bomb-content-256mb', () => pdfWithStream({}, '/Filter /FlateDecode', zlibBomb(256 * MB, 0x30)), true);
  add('bomb-content-1gb', () => pdfWithStream({}, '/Filter /FlateDecode', zlibBomb(1024 * MB, 0x30)), true);
  add(
    'bomb-content-text-operators',
    () => {
      const ops = Buffer.from('BT /F1 9 Tf 50 700 Td (Invoice No. BOMB Total 12.00 EUR) Tj ET\n'.repeat(1 << 16));
      const data = zlib.deflateSync(Buffer.concat(Array.from({ length: 32 }, () => ops)));
      return binaryPdf(invoiceObjects().map((o, i) => (i === 3 ? streamObject('/Filter /FlateDecode', data) : o)));
    },
    true,
  );
  add(
    'bomb-content-used',
    () =>
      binaryPdf(
        invoiceObjects().map((o, i) => (i === 3 ? streamObject('/Filter /FlateDecode', zlibBomb(512 * MB, 0x20)) : o)),
      ),
    true,
  );
  add(
    'bomb-font-file2',
    () =>
      pdfWithStream({}, '/Filter /FlateDecode /Length1 1000', zlibBomb(512 * MB), [
        Buffer.from(
          '<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 6 0 R >>',
        ),
      ])
        .toString('latin1')
        .replace('/BaseFont /Helvetica >>', '/BaseFont /Bomb /FirstChar 32 /LastChar 126 /FontDescriptor 7 0 R >>')
        .replace(/\/Subtype \/Type1/, '/Subtype /TrueType'),
    true,
  );
  add(
    'bomb-font-file3',
    () =>
      pdfWithStream({}, '/Subtype /OpenType /Filter /FlateDecode', zlibBomb(300 * MB, 0x01), [
        Buffer.from(
          '<< /Type /FontDescriptor /FontName /Bomb /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile3 6 0 R >>',
        ),
      ])
        .toString('latin1')
        .replace('/BaseFont /Helvetica >>', '/BaseFont /Bomb /FontDescriptor 7 0 R >>'),
    true,
  );
  add('bomb-embedded-xml', () => embeddedBombPdf('factur-x.xml', 512 * MB), true);
  add('bomb-embedded-other', () => embeddedBombPdf('data.bin', 512 * MB), true);
  add(
    'bomb-image-stream',
    () => imagePdf(100, 100, '/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', zlibBomb(600 * MB)),
    true,
  );
  add(
    'bomb-double-flate',
    () => pdfWithStream({}, '/Filter [/FlateDecode /FlateDecode]', zlib.deflateSync(zlibBomb(1024 * MB, 0x30))),
    true,
  );
  add(
    'bomb-double-flate-content',
    () =>
      binaryPdf(
        invoiceObjects().map((o, i) =>
          i === 3
            ? streamObject('/Filter [/FlateDecode /FlateDecode]', zlib.deflateSync(zlibBomb(2048 * MB, 0x20)))
            : o,
        ),
      ),
    true,
  );
  add(
    'bomb-many-streams',
    () => {
      const extra = Array.from({ length: 40 }, () => streamObject('/Filter /FlateDecode', zlibBomb(20 * MB, 0x30)));
      return binaryPdf([...invoiceObjects(), ...extra]);
    },
    true,
  );
  add(
    'bomb-object-stream',
    () => {
      const data = zlibBomb(400 * MB, 0x20);
      return binaryPdf([...invoiceObjects(), streamObject('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', data)]);
    },
    true,
  );
  add(
    'bomb-lzw',
    () => {
      // An LZW stream of 9-bit codes repeating one code: small, and pdf.js decodes it in full.
      const codes = Buffer.alloc(2 * MB, 0x80);
      return pdfWithStream({}, '/Filter /LZWDecode', codes);
    },
    true,
  );
  add('bomb-runlength', () => pdfWithStream({}, '/Filter /RunLengthDecode', Buffer.alloc(4 * MB, 0x81)), true);
  // Encrypted.
  add('encrypted-rc4', encryptedPdf);
  add('encrypted-aes256', () =>
    rawPdf(
      [
        ...invoiceObjects(),
        `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /AuthEvent /DocOpen /CFM /AESV3 /Length 32 >> >> /StmF /StdCF /StrF /StdCF /O <${'B2'.repeat(48)}> /U <${'C3'.repeat(48)}> /OE <${'D4'.repeat(32)}> /UE <${'E5'.repeat(32)}> /Perms <${'F6'.repeat(16)}> /P -1028 >>`,
      ],
      '/Encrypt 6 0 R /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]',
    ),
  );
  add('encrypted-broken-dict', () => rawPdf(invoiceObjects(), '/Encrypt << /Filter /Standard /V 99 /R 99 >>'));
  add('encrypted-unknown-handler', () =>
    rawPdf(invoiceObjects(), '/Encrypt << /Filter /Adobe.PubSec /V 4 /SubFilter /adbe.pkcs7.s5 >>'),
  );
  add('encrypted-no-id', () =>
    rawPdf(
      invoiceObjects(),
      `/Encrypt << /Filter /Standard /V 1 /R 2 /O <${'A1'.repeat(32)}> /U <${'5C'.repeat(32)}> /P -4 >>`,
    ),
  );
  // JavaScript and other active content (never run).
  add('javascript-openaction', javascriptPdf);
  add('javascript-names', () =>
    rawPdf([
      ...invoiceObjects({ catalog: '/Names << /JavaScript << /Names [(a) 6 0 R] >> >> ' }),
      '<< /S /JavaScript /JS (while(true){}) >>',
    ]),
  );
  add('javascript-page-aa', () =>
    rawPdf(invoiceObjects({ page: '/AA << /O << /S /JavaScript /JS (this.exportDataObject({cName:"x"})) >> >> ' })),
  );
  add('javascript-xfa', () =>
    rawPdf([
      ...invoiceObjects({ catalog: '/AcroForm << /Fields [] /XFA 6 0 R >> ' }),
      '<< /Length 60 >>\nstream\n<xdp:xdp><script>while(1){}</script></xdp:xdp>\nendstream',
    ]),
  );
  add('javascript-launch', () => rawPdf(invoiceObjects({ catalog: '/OpenAction << /S /Launch /F (/bin/sh) >> ' })));
  add('javascript-uri', () =>
    rawPdf(invoiceObjects({ catalog: '/OpenAction << /S /URI /URI (http://169.254.169.254/latest/meta-data/) >> ' })),
  );
  add('javascript-submitform', () =>
    rawPdf(invoiceObjects({ catalog: '/OpenAction << /S /SubmitForm /F (http://127.0.0.1:1/) >> ' })),
  );
  // Huge page counts.
  add('pages-count-claims-1e9', () =>
    rawPdf(invoiceObjects().map((o, i) => (i === 1 ? '<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>' : o))),
  );
  add(
    'pages-kids-1m-refs',
    () =>
      rawPdf(
        invoiceObjects().map((o, i) =>
          i === 1 ? `<< /Type /Pages /Kids [${'3 0 R '.repeat(1_000_000)}] /Count 1000000 >>` : o,
        ),
      ),
    true,
  );
  add(
    'pages-10k-real',
    () => {
      const n = 10_000;
      const objects = [
        '<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Kids [${Array.from({ length: n }, (_, i) => `${i + 4} 0 R`).join(' ')}] /Count ${n} >>`,
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ];
      for (let i = 0; i < n; i++) objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>');
      return rawPdf(objects);
    },
    true,
  );
  add('pages-negative-count', () =>
    rawPdf(invoiceObjects().map((o, i) => (i === 1 ? '<< /Type /Pages /Kids [3 0 R] /Count -5 >>' : o))),
  );
  // Huge images and page sizes.
  add(
    'image-30000-gray-bomb',
    () =>
      imagePdf(
        30_000,
        30_000,
        '/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
        zlibBomb(30_000 * 30_000),
      ),
    true,
  );
  add(
    'image-30000-rgb-truncated',
    () =>
      imagePdf(
        30_000,
        30_000,
        '/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode',
        zlib.deflateSync(Buffer.alloc(90_000 * 10)),
      ),
    true,
  );
  add(
    'image-30000-mask',
    () => imagePdf(30_000, 30_000, '/ImageMask true /BitsPerComponent 1 /Filter /FlateDecode', zlibBomb(3750 * 30_000)),
    true,
  );
  add('image-30000-jpeg', () =>
    imagePdf(
      30_000,
      30_000,
      '/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode',
      jpegHeader(30_000, 30_000),
    ),
  );
  add('image-65535-jpeg', () =>
    imagePdf(
      65_535,
      65_535,
      '/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode',
      jpegHeader(65_535, 65_535),
    ),
  );
  add('image-zero-size', () => imagePdf(0, 0, '/ColorSpace /DeviceGray /BitsPerComponent 8', Buffer.alloc(0)));
  add('image-negative-size', () => imagePdf(-5, 1e9, '/ColorSpace /DeviceGray /BitsPerComponent 8', Buffer.alloc(10)));
  add(
    'image-scanned-no-text',
    () => {
      const draw = `q 595 0 0 842 0 0 cm /Im1 Do Q`;
      return binaryPdf([
        ...invoiceObjects({ content: draw, page: '/XObject << /Im1 6 0 R >> ' }),
        streamObject(
          '/Type /XObject /Subtype /Image /Width 30000 /Height 30000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
          zlibBomb(30_000 * 30_000, 0xff),
        ),
      ]);
    },
    true,
  );
  add('mediabox-huge', () =>
    rawPdf(invoiceObjects().map((o, i) => (i === 2 ? o.replace('[0 0 595 842]', '[0 0 14400000 14400000]') : o))),
  );
  add('mediabox-userunit', () => rawPdf(invoiceObjects({ page: '/UserUnit 75000 ' })));
  // Fonts.
  add('font-garbage-truetype', () =>
    pdfWithStream({}, '/Length1 5000', corrupt(Buffer.alloc(5000, 0x41), 7, 500), [
      Buffer.from(
        '<< /Type /FontDescriptor /FontName /G /Flags 32 /FontBBox [0 0 1 1] /ItalicAngle 0 /Ascent 1 /Descent 0 /CapHeight 1 /StemV 1 /FontFile2 6 0 R >>',
      ),
    ])
      .toString('latin1')
      .replace('/BaseFont /Helvetica >>', '/BaseFont /G /FontDescriptor 7 0 R >>')
      .replace('/Subtype /Type1', '/Subtype /TrueType'),
  );
  add('font-huge-widths', () =>
    rawPdf(
      invoiceObjects().map((o, i) =>
        i === 4
          ? `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 0 /LastChar 2000000000 /Widths [${'500 '.repeat(100_000)}] >>`
          : o,
      ),
    ),
  );
  add('font-type3-recursive', () => {
    const proc = 'BT /F1 1 Tf (a) Tj ET';
    return rawPdf(
      invoiceObjects()
        .map((o, i) =>
          i === 4
            ? `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [1 0 0 1 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Differences [0 /a 97 /a] >> /FirstChar 0 /LastChar 255 /Widths [${'1 '.repeat(256)}] /Resources << /Font << /F1 5 0 R >> >> >>`
            : o,
        )
        .concat([`<< /Length ${proc.length} >>\nstream\n${proc}\nendstream`]),
    );
  });
  add('font-cid-huge-w', () =>
    rawPdf(
      invoiceObjects().map((o, i) =>
        i === 4
          ? `<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /W [0 [${'1000 '.repeat(200_000)}] 0 4294967295 500] >>] >>`
          : o,
      ),
    ),
  );
  // Embedded e-invoice XML that attacks the XML reader.
  for (const [id, xml] of Object.entries(hostileXmlTexts())) {
    if (xml.length > 4 * MB) continue;
    add(`embedded-${id}`, () => embeddedFilePdf('factur-x.xml', Buffer.from(xml, 'utf8'), '/Filter /FlateDecode'));
  }
  // Not a PDF at all, or two of them.
  add('empty', () => Buffer.alloc(0));
  add('only-header', () => '%PDF-1.7\n');
  add('header-then-zip', () =>
    Buffer.concat([Buffer.from('%PDF-1.4\n'), writeZip([{ name: 'a.txt', data: Buffer.from('x') }])]),
  );
  add('two-pdfs', () => Buffer.concat([validInvoicePdf(), encryptedPdf()]));
  add('nul-bytes', () => Buffer.alloc(100_000));
  add('huge-xref-count', () =>
    validInvoicePdf()
      .toString('latin1')
      .replace(/xref\n0 \d+/, 'xref\n0 2147483647'),
  );
  add('startxref-negative', () =>
    validInvoicePdf()
      .toString('latin1')
      .replace(/startxref\n\d+/, 'startxref\n-99999'),
  );
  return items;
}

// --- Images ----------------------------------------------------------------------------------------------------------

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

function png(width: number, height: number, idat: Buffer, color = 0, depth = 8): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width >>> 0, 0);
  header.writeUInt32BE(height >>> 0, 4);
  header.set([depth, color, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const smallPng = cache(() => Buffer.from(whitePng(200, 120)));

/** A small real JPEG (drawn with the canvas the product uses). */
async function makeJpeg(progressive: boolean): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(120, 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 120, 80);
  ctx.fillStyle = '#000';
  ctx.fillText('Invoice 42 EUR', 5, 40);
  const jpeg = await canvas.encode('jpeg', 80);
  return progressive ? Buffer.from(jpeg) : Buffer.from(jpeg);
}

let realJpeg: Buffer | null = null;
/** Call before generating image items (the canvas encoder is asynchronous). */
export async function prepareCorpus(): Promise<void> {
  realJpeg ??= await makeJpeg(false);
}
const jpeg = () => {
  if (!realJpeg) throw new Error('call prepareCorpus() first');
  return realJpeg;
};

function manyScanProgressive(scans: number, width = 8, height = 8): Buffer {
  const base = Buffer.from(manyScanJpeg(scans));
  base.writeUInt16BE(height, 7);
  base.writeUInt16BE(width, 9);
  return base;
}

function imageItems(): HostileItem[] {
  const items: HostileItem[] = [];
  const add = (id: string, ext: 'png' | 'jpg' | 'gif', make: () => Buffer | Uint8Array | string, heavy = false) => {
    items.push(item('image', 'document', id, `${id}.${ext}`, make, heavy));
  };
  add('valid-png-control', 'png', smallPng);
  add('valid-jpeg-control', 'jpg', jpeg);
  // Zero and huge dimensions.
  add('png-zero-both', 'png', zeroSizePng);
  add('png-zero-width', 'png', () => png(0, 100, zlib.deflateSync(Buffer.alloc(100))));
  add('png-zero-height', 'png', () => png(100, 0, zlib.deflateSync(Buffer.alloc(0))));
  add('png-header-30000', 'png', () => hugePngHeader(30_000, 30_000));
  add('png-header-65535', 'png', () => hugePngHeader(65_535, 65_535));
  add('png-header-2e31', 'png', () => hugePngHeader(0x7fffffff, 0x7fffffff));
  add('png-header-4e9', 'png', () => hugePngHeader(0xffffffff, 1));
  add('png-header-wide', 'png', () => hugePngHeader(1_000_000, 1));
  add('png-header-tall', 'png', () => hugePngHeader(1, 1_000_000));
  add('png-header-29999', 'png', () => hugePngHeader(29_999, 29_999));
  add('png-bomb-30000', 'png', () => png(30_000, 30_000, zlibBomb(30_001 * 30_000)), true);
  add('png-bomb-7700', 'png', () => png(7_700, 7_700, zlibBomb(7_701 * 7_700, 0)), true);
  add('png-bomb-rgba16', 'png', () => png(7_000, 7_000, zlibBomb((7_000 * 8 + 1) * 7_000), 6, 16), true);
  add('png-idat-short', 'png', () => png(5_000, 5_000, zlib.deflateSync(Buffer.alloc(100))));
  add('png-idat-long', 'png', () => png(10, 10, zlibBomb(200 * MB)), true);
  add('png-bad-depth', 'png', () => png(10, 10, zlib.deflateSync(Buffer.alloc(110)), 2, 3));
  add('png-bad-color', 'png', () => png(10, 10, zlib.deflateSync(Buffer.alloc(110)), 7, 8));
  add('png-palette-missing', 'png', () => png(10, 10, zlib.deflateSync(Buffer.alloc(110)), 3, 8));
  add(
    'png-interlaced-bomb',
    'png',
    () => {
      const b = png(20_000, 20_000, zlibBomb(20_001 * 20_000));
      b[28] = 1;
      return b;
    },
    true,
  );
  add('png-many-chunks', 'png', () => {
    const base = smallPng();
    const text = pngChunk('tEXt', Buffer.from('k\0v'));
    return Buffer.concat([base.subarray(0, 33), ...Array.from({ length: 100_000 }, () => text), base.subarray(33)]);
  });
  add(
    'png-ztxt-bomb',
    'png',
    () => {
      const base = smallPng();
      const ztxt = pngChunk('zTXt', Buffer.concat([Buffer.from('k\0\0'), zlibBomb(500 * MB)]));
      return Buffer.concat([base.subarray(0, 33), ztxt, base.subarray(33)]);
    },
    true,
  );
  add(
    'png-iccp-bomb',
    'png',
    () => {
      const base = smallPng();
      const icc = pngChunk('iCCP', Buffer.concat([Buffer.from('p\0\0'), zlibBomb(300 * MB)]));
      return Buffer.concat([base.subarray(0, 33), icc, base.subarray(33)]);
    },
    true,
  );
  // Truncated and corrupted.
  for (let i = 1; i <= 30; i++) add(`png-truncated-${i}`, 'png', () => truncate(smallPng(), i / 31));
  for (let i = 1; i <= 30; i++) add(`jpeg-truncated-${i}`, 'jpg', () => truncate(jpeg(), i / 31));
  for (let i = 0; i < 60; i++) add(`png-corrupted-${i}`, 'png', () => corrupt(smallPng(), 5000 + i, 1 + (i % 20)));
  for (let i = 0; i < 60; i++) add(`jpeg-corrupted-${i}`, 'jpg', () => corrupt(jpeg(), 6000 + i, 1 + (i % 20)));
  // Progressive JPEG with very many scans, and other JPEG structure attacks.
  for (const scans of [50, 101, 500, 1000, 5000, 20_000, 100_000])
    add(`jpeg-scans-${scans}`, 'jpg', () => manyScanProgressive(scans));
  add('jpeg-scans-5000-large', 'jpg', () => manyScanProgressive(5000, 4000, 4000));
  add('jpeg-zero-width', 'jpg', () => jpegHeader(0, 100));
  add('jpeg-zero-both', 'jpg', () => jpegHeader(0, 0));
  add('jpeg-30000', 'jpg', () => jpegHeader(30_000, 30_000));
  add('jpeg-65535', 'jpg', () => jpegHeader(65_535, 65_535));
  add('jpeg-progressive-65535', 'jpg', () => jpegHeader(65_535, 65_535, true));
  add('jpeg-two-frames', 'jpg', () =>
    Buffer.concat([jpegHeader(10, 10).subarray(0, -2), jpegHeader(20_000, 20_000).subarray(2)]),
  );
  add('jpeg-only-soi', 'jpg', () => Buffer.from([0xff, 0xd8, 0xff]));
  add('jpeg-no-sos', 'jpg', () =>
    Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 10, 0, 10, 1, 1, 0x11, 0, 0xff, 0xd9]),
  );
  add('jpeg-segment-length-0', 'jpg', () => Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0xff, 0xd9]));
  add('jpeg-fill-bytes', 'jpg', () => Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(5 * MB, 0xff)]));
  add('jpeg-restart-markers', 'jpg', () =>
    Buffer.concat([
      jpegHeader(8, 8).subarray(0, -2),
      Buffer.from(Array.from({ length: 200_000 }, (_, i) => [0xff, 0xd0 + (i % 8)]).flat()),
      Buffer.from([0xff, 0xd9]),
    ]),
  );
  add('jpeg-app-segments', 'jpg', () =>
    Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      ...Array.from({ length: 1000 }, () =>
        Buffer.concat([Buffer.from([0xff, 0xe1, 0xff, 0xff]), Buffer.alloc(65_533, 0x45)]),
      ),
      jpeg().subarray(2),
    ]),
  );
  // Wrong content for the name, and formats no reader has.
  add('gif-bomb-header', 'gif', () => Buffer.from('GIF89a\xff\xff\xff\xff\x00\x00\x00;', 'latin1'));
  add('png-named-is-pdf', 'png', validInvoicePdf);
  add('jpg-named-is-png', 'jpg', smallPng);
  add('png-empty', 'png', () => Buffer.alloc(0));
  add('png-random', 'png', () => corrupt(Buffer.alloc(50_000), 42, 50_000));
  return items;
}

// --- XML -------------------------------------------------------------------------------------------------------------

const UBL = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>X-1</cbc:ID><cbc:IssueDate>2026-03-14</cbc:IssueDate><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>ACME</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>
  <cac:LegalMonetaryTotal><cbc:TaxInclusiveAmount currencyID="EUR">12.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="EUR">12.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
</Invoice>`;

const ublWith = (inner: string) => UBL.replace('<cbc:ID>X-1</cbc:ID>', `<cbc:ID>X-1</cbc:ID>${inner}`);

function hostileXmlTexts(): Record<string, string> {
  const laughs = ['<!ENTITY l0 "lol">'];
  for (let i = 1; i <= 9; i++) laughs.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
  return {
    xxe: XXE_XML,
    'xxe-parameter': `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><Invoice/>`,
    'xxe-public': `<?xml version="1.0"?><!DOCTYPE Invoice PUBLIC "-//X//EN" "file:///etc/shadow"><Invoice/>`,
    'xxe-after-comment': `<?xml version="1.0"?><!-- hi --><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]><Invoice><ID>&x;</ID></Invoice>`,
    'xxe-lowercase': `<?xml version="1.0"?>\n<!doctype Invoice [<!entity x SYSTEM "file:///etc/passwd">]><Invoice><ID>&x;</ID></Invoice>`,
    'billion-laughs': `<?xml version="1.0"?><!DOCTYPE lolz [${laughs.join('')}]><Invoice><ID>&l9;</ID></Invoice>`,
    'billion-laughs-short': BILLION_LAUGHS,
    'quadratic-blowup': `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "${'x'.repeat(50_000)}">]><Invoice><ID>${'&a;'.repeat(50_000)}</ID></Invoice>`,
    'entity-undeclared': ublWith('<cbc:Note>&undeclared;&#0;&#xFFFFFFFF;&#99999999999;</cbc:Note>'),
    'nesting-10k': ublWith(`${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}`),
    'nesting-100k': ublWith(`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`),
    'nesting-unclosed': ublWith('<a>'.repeat(10_000)),
    'attributes-100k': ublWith(`<cbc:Note ${Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`),
    'elements-1m': ublWith('<cbc:Note>1</cbc:Note>'.repeat(1_000_000)),
    'text-30mb': ublWith(`<cbc:Note>${'x'.repeat(30 * MB)}</cbc:Note>`),
    'cdata-unclosed': ublWith('<cbc:Note><![CDATA[ never closed'),
    'pi-flood': `<?xml version="1.0"?>${'<?x y?>'.repeat(200_000)}<Invoice/>`,
    'comment-unclosed': `<?xml version="1.0"?><!-- ${'x'.repeat(1000)}<Invoice/>`,
    'invalid-utf8': `<?xml version="1.0" encoding="UTF-8"?><Invoice><ID>\xff\xfe\xc3\x28</ID></Invoice>`,
    'wrong-encoding-label': `<?xml version="1.0" encoding="x-made-up-charset"?><Invoice><ID>1</ID></Invoice>`,
    'utf7-label': `<?xml version="1.0" encoding="UTF-7"?>+ADw-Invoice+AD4-+ADw-/Invoice+AD4-`,
    'proto-pollution': ublWith(
      '<__proto__><polluted>1</polluted></__proto__><constructor><prototype>1</prototype></constructor>',
    ),
    'namespace-flood': `<Invoice ${Array.from({ length: 50_000 }, (_, i) => `xmlns:n${i}="u${i}"`).join(' ')}/>`,
    'root-only-text': 'just text, no xml',
    'empty-doc': '<?xml version="1.0"?>',
    'huge-number': ublWith('').replace(
      '12.00</cbc:TaxInclusiveAmount>',
      `${'9'.repeat(100_000)}.00</cbc:TaxInclusiveAmount>`,
    ),
    'amount-nan': ublWith('').replace('12.00</cbc:TaxInclusiveAmount>', 'NaN</cbc:TaxInclusiveAmount>'),
    xinclude: ublWith(
      '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>',
    ),
    'xslt-pi': `<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="http://127.0.0.1:1/x.xsl"?>${UBL.slice(UBL.indexOf('<Invoice'))}`,
  };
}

function xmlItems(): HostileItem[] {
  const items: HostileItem[] = [];
  for (const [id, text] of Object.entries(hostileXmlTexts())) {
    const heavy = text.length > 4 * MB;
    items.push(
      item(
        'xml',
        'document',
        id,
        `${id}.xml`,
        () => Buffer.from(text, id === 'invalid-utf8' ? 'latin1' : 'utf8'),
        heavy,
      ),
    );
  }
  items.push(item('xml', 'document', 'valid-ubl-control', 'valid-ubl.xml', () => UBL));
  items.push(
    item('xml', 'document', 'utf16-bom', 'utf16.xml', () =>
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(XXE_XML, 'utf16le')]),
    ),
  );
  items.push(
    item('xml', 'document', 'gzip-bomb-named-xml', 'factur-x.xml', () => zlib.gzipSync(Buffer.alloc(50 * MB))),
  );
  for (let i = 0; i < 20; i++)
    items.push(
      item('xml', 'document', `truncated-${i}`, `truncated-${i}.xml`, () => truncate(Buffer.from(UBL), (i + 1) / 21)),
    );
  for (let i = 0; i < 20; i++)
    items.push(
      item('xml', 'document', `corrupted-${i}`, `corrupted-${i}.xml`, () => corrupt(Buffer.from(UBL), 7000 + i, 1 + i)),
    );
  return items;
}

// --- MIME ------------------------------------------------------------------------------------------------------------

const header = (subject: string, extra = '') =>
  `From: Billing <billing@vendor.example>\nTo: me@example.org\nSubject: ${subject}\nDate: Mon, 02 Nov 2026 10:00:00 +0100\n` +
  `Message-ID: <${subject.replace(/\W/g, '')}@hostile.example>\nMIME-Version: 1.0\n${extra}`;

function nestedRfc822(depth: number): string {
  let inner = `${header('Invoice innermost')}Content-Type: text/plain\n\nhello\n`;
  for (let i = 0; i < depth; i++) {
    inner = `${header(`Invoice level ${i}`)}Content-Type: message/rfc822\n\n${inner}`;
  }
  return inner;
}

function nestedMultipart(depth: number): string {
  let body = 'Content-Type: text/plain\n\nleaf\n';
  for (let i = 0; i < depth; i++)
    body = `Content-Type: multipart/mixed; boundary="b${i}"\n\n--b${i}\n${body}\n--b${i}--\n`;
  return header('Invoice nested multipart') + body;
}

function mimeItems(): HostileItem[] {
  const items: HostileItem[] = [];
  const add = (id: string, make: () => Buffer | string, heavy = false) => {
    items.push(item('mime', 'mail', id, `${id}.eml`, make, heavy));
  };
  const pdf64 = () => validInvoicePdf().toString('base64');
  add(
    'unterminated-boundary',
    () =>
      `${header('Invoice unterminated')}Content-Type: multipart/mixed; boundary="zz"\n\n--zz\nContent-Type: application/pdf; name="a.pdf"\nContent-Transfer-Encoding: base64\n\n${pdf64()}\n`,
  );
  add(
    'boundary-never-used',
    () => `${header('Invoice nobound')}Content-Type: multipart/mixed; boundary="zz"\n\nbody without parts\n`,
  );
  add(
    'boundary-empty',
    () => `${header('Invoice emptybound')}Content-Type: multipart/mixed; boundary=""\n\n--\n\n--\n`,
  );
  add(
    'boundary-missing',
    () => `${header('Invoice nobound2')}Content-Type: multipart/mixed\n\n--x\nContent-Type: text/plain\n\nx\n--x--\n`,
  );
  add(
    'boundary-70k',
    () =>
      `${header('Invoice longbound')}Content-Type: multipart/mixed; boundary="${'b'.repeat(70_000)}"\n\n--${'b'.repeat(70_000)}\nContent-Type: text/plain\n\nx\n`,
  );
  for (const parts of [1000, 10_000]) {
    add(
      `parts-${parts}`,
      () => {
        const lines = [`${header(`Invoice parts ${parts}`)}Content-Type: multipart/mixed; boundary="p"\n`];
        for (let i = 0; i < parts; i++)
          lines.push(
            `--p\nContent-Type: application/pdf; name="p${i}.pdf"\nContent-Disposition: attachment; filename="p${i}.pdf"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n`,
          );
        lines.push('--p--\n');
        return lines.join('');
      },
      parts > 1000,
    );
  }
  add(
    'parts-10000-empty',
    () =>
      `${header('Invoice empties')}Content-Type: multipart/mixed; boundary="p"\n\n${'--p\n\n'.repeat(10_000)}--p--\n`,
  );
  for (const depth of [10, 100, 1000]) add(`rfc822-depth-${depth}`, () => nestedRfc822(depth), depth > 100);
  for (const depth of [100, 1000, 10_000]) add(`multipart-depth-${depth}`, () => nestedMultipart(depth), depth > 100);
  add(
    'header-line-5mb',
    () => `${header('Invoice bigheader', `X-Long: ${'a'.repeat(5 * MB)}\n`)}Content-Type: text/plain\n\nx\n`,
    true,
  );
  add('subject-5mb', () => `${header(`Invoice ${'s'.repeat(5 * MB)}`)}Content-Type: text/plain\n\nx\n`, true);
  add(
    'header-fields-100k',
    () => `${header('Invoice fields', 'X-A: b\n'.repeat(100_000))}Content-Type: text/plain\n\nx\n`,
  );
  add(
    'folded-header-100k',
    () => `${header('Invoice folded', `X-Fold: a${'\n b'.repeat(100_000)}\n`)}Content-Type: text/plain\n\nx\n`,
  );
  add('no-blank-line', () => header('Invoice noblank').repeat(1000));
  add('nul-in-headers', () => `${header('Invoice \0nul\0')}Content-Type: text/plain\n\nbody\0with nul\n`);
  add('nul-in-filename', () =>
    buildMail({
      subject: 'Invoice nul name',
      attachments: [{ filename: 'in\0voice.pdf', content: validInvoicePdf() }],
    }),
  );
  add('nul-everywhere', () =>
    Buffer.from(
      buildMail({ subject: 'Invoice nuls', attachments: [{ filename: 'invoice.pdf', content: validInvoicePdf() }] })
        .toString('latin1')
        .replace(/e/g, 'e\0'),
      'latin1',
    ),
  );
  // Transfer encodings.
  add(
    'base64-invalid',
    () =>
      `${header('Invoice badb64')}Content-Type: multipart/mixed; boundary="q"\n\n--q\nContent-Type: application/pdf; name="a.pdf"\nContent-Disposition: attachment; filename="a.pdf"\nContent-Transfer-Encoding: base64\n\n!!!!****not base64 at all****====\n\u00ff\u00fe\n--q--\n`,
  );
  add(
    'base64-no-padding-huge-line',
    () =>
      `${header('Invoice b64line')}Content-Type: multipart/mixed; boundary="q"\n\n--q\nContent-Type: application/pdf; name="a.pdf"\nContent-Disposition: attachment; filename="a.pdf"\nContent-Transfer-Encoding: base64\n\n${Buffer.alloc(3 * MB, 1).toString('base64')}===\n--q--\n`,
    true,
  );
  add(
    'qp-invalid',
    () =>
      `${header('Invoice qp')}Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n=ZZ=\n=0=\n${'='.repeat(100_000)}\n`,
  );
  add(
    'uuencode',
    () =>
      `${header('Invoice uu')}Content-Type: application/pdf; name="a.pdf"\nContent-Transfer-Encoding: x-uuencode\n\nbegin 644 a.pdf\nM!!!!garbage\nend\n`,
  );
  add(
    'unknown-transfer-encoding',
    () =>
      `${header('Invoice enc')}Content-Type: application/pdf; name="a.pdf"\nContent-Disposition: attachment; filename="a.pdf"\nContent-Transfer-Encoding: x-evil\n\n${pdf64()}\n`,
  );
  // Charsets.
  for (const charset of [
    'x-unknown',
    'utf-7',
    'utf-16',
    'utf-32',
    'iso-2022-jp',
    'gb18030',
    'shift_jis',
    'koi8-r',
    'windows-1252',
    'big5',
    '"; drop',
    '',
  ]) {
    add(
      `charset-${charset.replace(/\W/g, '') || 'empty'}`,
      () =>
        `${header('Invoice charset', `Content-Type: text/plain; charset=${charset}\n`)}\n\xff\xfe\x00A\x1b$B\x1b(B \xe4\xf6\xfc\n`,
    );
  }
  add(
    'charset-utf16-odd',
    () =>
      `${header('Invoice u16')}Content-Type: text/plain; charset=utf-16le\nContent-Transfer-Encoding: base64\n\n${Buffer.from([0x41, 0x00, 0x42]).toString('base64')}\n`,
  );
  // RFC 2047 garbage.
  const words = [
    '=?utf-8?B?!!!?=',
    '=?utf-8?Q?=ZZ=?=',
    '=?x-unknown?B?SW52b2ljZQ==?=',
    '=?utf-8?X?abc?=',
    '=?utf-8?B?',
    `=?utf-8?B?${Buffer.alloc(1 * MB, 0x61).toString('base64')}?=`,
    `${'=?utf-8?Q?a?= '.repeat(100_000)}`,
    '=?utf-8*en?Q?=00=00?=',
    '=?utf-16?B?2D3YPQ==?=',
    '=??B?SW52?=',
  ];
  words.forEach((word, i) => {
    add(
      `rfc2047-subject-${i}`,
      () => `${header(`Invoice ${word}`)}Content-Type: text/plain\n\nx\n`,
      word.length > 100_000,
    );
    add(
      `rfc2047-from-${i}`,
      () =>
        `From: ${word} <${word.slice(0, 50).replace(/[^\w]/g, 'x')}@vendor.example>\nSubject: Invoice from\nMessage-ID: <f${i}@x>\nContent-Type: text/plain\n\nx\n`,
      word.length > 100_000,
    );
    add(
      `rfc2047-filename-${i}`,
      () =>
        `${header(`Invoice fn${i}`)}Content-Type: multipart/mixed; boundary="q"\n\n--q\nContent-Type: application/pdf; name="${word}"\nContent-Disposition: attachment; filename="${word}.pdf"\nContent-Transfer-Encoding: base64\n\n${pdf64()}\n--q--\n`,
      word.length > 100_000,
    );
  });
  // RFC 2231 garbage.
  const params = [
    "filename*=utf-8''%ZZ%00.pdf",
    "filename*=x-unknown'en'abc.pdf",
    "filename*0*=utf-8''a; filename*99999=b.pdf",
    `filename*0=a; ${Array.from({ length: 5000 }, (_, i) => `filename*${i + 1}=b`).join('; ')}`,
    "filename*=utf-8''%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "filename*=''",
    "filename*=utf-8'",
    "filename*=utf-8''%E2%80%AEfdp.exe",
  ];
  for (const [i, param] of params.entries()) {
    add(
      `rfc2231-${i}`,
      () =>
        `${header(`Invoice 2231 ${i}`)}Content-Type: multipart/mixed; boundary="q"\n\n--q\nContent-Type: application/pdf\nContent-Disposition: attachment; ${param}\nContent-Transfer-Encoding: base64\n\n${pdf64()}\n--q--\n`,
    );
  }
  // Content types and structure.
  add('content-type-garbage', () => `${header('Invoice ctype')}Content-Type: ;;;===;;;\n\nx\n`);
  add(
    'content-type-huge-params',
    () =>
      `${header('Invoice params')}Content-Type: text/plain; ${Array.from({ length: 50_000 }, (_, i) => `p${i}=v`).join('; ')}\n\nx\n`,
  );
  add('attachment-empty', () =>
    buildMail({ subject: 'Invoice empty att', attachments: [{ filename: 'invoice.pdf', content: Buffer.alloc(0) }] }),
  );
  add(
    'attachment-40mb',
    () =>
      buildMail({
        subject: 'Invoice big att',
        attachments: [{ filename: 'invoice.pdf', content: Buffer.alloc(40 * MB, 0x25) }],
      }),
    true,
  );
  add('bare-cr', () =>
    buildMail({ subject: 'Invoice cr', attachments: [{ filename: 'invoice.pdf', content: validInvoicePdf() }] })
      .toString('latin1')
      .replace(/\n/g, '\r'),
  );
  add('mixed-eol', () =>
    buildMail({ subject: 'Invoice eol', attachments: [{ filename: 'invoice.pdf', content: validInvoicePdf() }] })
      .toString('latin1')
      .replace(/\n/g, (_m, at: number) => (at % 3 ? '\r\n' : '\n')),
  );
  add(
    'tnef',
    () =>
      `${header('Invoice tnef')}Content-Type: application/ms-tnef; name="winmail.dat"\nContent-Transfer-Encoding: base64\n\n${Buffer.from([0x78, 0x9f, 0x3e, 0x22, 0xff, 0xff, 0xff, 0xff]).toString('base64')}\n`,
  );
  add('only-from-line', () => 'From x\n');
  add('binary-garbage', () => corrupt(Buffer.alloc(100_000), 99, 100_000));
  for (let i = 0; i < 30; i++) {
    add(`corrupted-mail-${i}`, () =>
      corrupt(
        buildMail({
          subject: `Invoice corrupt ${i}`,
          messageId: `<c${i}@x>`,
          attachments: [{ filename: 'invoice.pdf', content: validInvoicePdf() }],
        }),
        8000 + i,
        1 + i * 3,
      ),
    );
    add(`truncated-mail-${i}`, () =>
      truncate(
        buildMail({
          subject: `Invoice trunc ${i}`,
          messageId: `<t${i}@x>`,
          attachments: [{ filename: 'invoice.pdf', content: validInvoicePdf() }],
        }),
        (i + 1) / 31,
      ),
    );
  }
  return items;
}

// --- File names ------------------------------------------------------------------------------------------------------

export const HOSTILE_FILENAMES: Record<string, string> = {
  dotdot: '../../../../../../tmp/invoicebox-hostile-escape.pdf',
  'dotdot-backslash': '..\\..\\..\\windows\\system32\\invoice.pdf',
  absolute: '/tmp/invoicebox-hostile-absolute.pdf',
  nul: 'invoice\0.pdf.exe.pdf',
  'rtl-override': 'invoice\u202Efdp.exe.pdf',
  'long-4000': `${'a'.repeat(3996)}.pdf`,
  'long-4000-multibyte': `${'ä'.repeat(3996)}.pdf`,
  'only-dots': '...pdf',
  dot: '.pdf',
  'windows-device': 'CON.pdf',
  newline: 'inv\r\nX-Injected: 1\r\n.pdf',
  html: '<img src=x onerror=alert(1)>.pdf',
  sql: "x'); drop table invoices;--.pdf",
  shell: '$(rm -rf ~)`id`.pdf',
  percent: '%2e%2e%2f%00.pdf',
  'lone-surrogate': 'inv\ud800oice.pdf',
  'emoji-zwj': '👩‍👩‍👧‍👦\u200d\u200b\ufeff.pdf',
  'control-chars': 'inv\u0001\u0007\u001b[31moice.pdf',
  'unicode-slash': 'inv\u2215oice\u2044x.pdf',
  'trailing-space-dot': 'invoice.pdf. . .',
  empty: '',
  'format-string': '%s%s%n%x.pdf',
};

function filenameItems(): HostileItem[] {
  const items: HostileItem[] = [];
  for (const [id, name] of Object.entries(HOSTILE_FILENAMES)) {
    // As an attachment name, written plainly, with RFC 2231 and with RFC 2047.
    for (const style of ['plain', 'rfc2231', 'rfc2047'] as const) {
      items.push(
        item('filename', 'mail', `${id}-${style}`, `${id}.eml`, () =>
          buildMail({
            subject: `Invoice name ${id} ${style}`,
            messageId: `<fn-${id}-${style}@hostile.example>`,
            attachments: [
              { filename: name, content: validInvoicePdf(), nameStyle: style, contentType: 'application/pdf' },
            ],
          }),
        ),
      );
    }
    // As the name of a statement upload (JSON) and of a document given to the CLI.
    items.push({
      ...item('filename', 'api', `${id}-statement-upload`, name, () => Buffer.alloc(0)),
      request: () => ({
        method: 'POST',
        path: '/bank-statements/upload',
        contentType: 'application/json',
        body: JSON.stringify({
          filename: name,
          file_data: Buffer.from('Date,Amount\n2026-01-01,-12.00\n').toString('base64'),
        }),
      }),
    });
  }
  return items;
}

// --- Archives (the mail import's Takeout .zip) -----------------------------------------------------------------------

const takeoutMbox = (tag: string) =>
  Buffer.concat([
    Buffer.from(`From sender@vendor.example Mon Jan  1 00:00:00 2024\n`),
    buildMail({
      subject: `Invoice zip ${tag}`,
      messageId: `<zip-${tag}@hostile.example>`,
      attachments: [{ filename: 'invoice.pdf', content: validInvoicePdf() }],
    }),
    Buffer.from('\n'),
  ]);

function archiveItems(): HostileItem[] {
  const items: HostileItem[] = [];
  const add = (id: string, make: () => Buffer, heavy = false) => {
    items.push(item('archive', 'zip', id, `${id}.zip`, make, heavy));
  };
  const mbox = 'Takeout/Mail/All mail Including Spam and Trash.mbox';
  add('valid-control', () => writeZip([{ name: mbox, data: takeoutMbox('control') }]));
  for (const name of [
    '../../../../tmp/invoicebox-hostile-zip.mbox',
    '/tmp/invoicebox-hostile-zip-abs.mbox',
    '..\\..\\evil.mbox',
    'Takeout/../../../evil.mbox',
    'C:\\evil.mbox',
    './././x.mbox',
    `${'a/'.repeat(2000)}x.mbox`,
  ]) {
    add(`name-${name.slice(0, 30).replace(/[^\w]/g, '_')}`, () =>
      writeZip([
        { name, data: takeoutMbox(`name-${name.length}`) },
        { name: mbox, data: takeoutMbox(`beside-${name.length}`) },
      ]),
    );
  }
  add('name-nul', () =>
    writeZip([
      { name: Buffer.from('Takeout/Mail/a\0.mbox'), data: takeoutMbox('nul') },
      { name: mbox, data: takeoutMbox('nul-beside') },
    ]),
  );
  add('name-invalid-utf8', () =>
    writeZip([{ name: Buffer.from([0x54, 0xff, 0xfe, 0x2e, 0x6d, 0x62, 0x6f, 0x78]), data: takeoutMbox('utf8') }]),
  );
  add('symlink-etc-passwd', () =>
    writeZip([
      { name: 'Takeout/Mail/link.mbox', symlinkTo: '/etc/passwd' },
      { name: mbox, data: takeoutMbox('symlink') },
    ]),
  );
  add('symlink-then-write', () =>
    writeZip([
      { name: 'Takeout/Mail', symlinkTo: '/tmp' },
      { name: 'Takeout/Mail/x.mbox', data: takeoutMbox('symlink-dir') },
    ]),
  );
  add('symlink-relative', () =>
    writeZip([{ name: 'Takeout/Mail/up.mbox', symlinkTo: '../../../../../../etc/shadow' }]),
  );
  for (const gb of [1, 4]) {
    add(`bomb-${gb}gb`, () => writeZip([{ name: mbox, raw: zipBombEntry(gb * 1024 * MB) }]), true);
    add(
      `bomb-${gb}gb-size-lies`,
      () => writeZip([{ name: mbox, raw: zipBombEntry(gb * 1024 * MB), claimedSize: 1000 }]),
      true,
    );
  }
  add(
    'bomb-many-entries',
    () =>
      writeZip(Array.from({ length: 2000 }, (_, i) => ({ name: `Takeout/Mail/${i}.mbox`, raw: zipBombEntry(8 * MB) }))),
    true,
  );
  add(
    'entries-100k-tiny',
    () =>
      writeZip(
        Array.from({ length: 65_000 }, (_, i) => ({
          name: `Takeout/Mail/${i}.eml`,
          data: Buffer.from('x'),
          method: 'store' as const,
        })),
      ),
    true,
  );
  add('entries-same-name', () =>
    writeZip(Array.from({ length: 50 }, (_, i) => ({ name: mbox, data: takeoutMbox(`dup-${i}`) }))),
  );
  add('nested-zip', () =>
    writeZip([
      { name: 'Takeout/Mail/inner.zip', data: writeZip([{ name: mbox, data: takeoutMbox('inner') }]) },
      { name: mbox, data: takeoutMbox('outer') },
    ]),
  );
  add('size-lie-small', () => writeZip([{ name: mbox, data: takeoutMbox('lie'), claimedSize: 3 }]));
  add('size-lie-large', () => writeZip([{ name: mbox, data: takeoutMbox('lie2'), claimedSize: 0xfffffff0 }]));
  add('crc-wrong', () => {
    const zip = writeZip([{ name: mbox, data: takeoutMbox('crc') }]);
    zip.writeUInt32LE(0xdeadbeef, 14);
    return zip;
  });
  add('truncated-central', () => truncate(writeZip([{ name: mbox, data: takeoutMbox('tc') }]), 0.9));
  add('only-local-header', () => writeZip([{ name: mbox, data: takeoutMbox('olh') }]).subarray(0, 200));
  add('eocd-only', () =>
    Buffer.concat([
      Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      Buffer.alloc(18),
      Buffer.from([0x50, 0x4b, 0x05, 0x06]),
      Buffer.alloc(18),
    ]),
  );
  add('eocd-count-lies', () => {
    const zip = writeZip([{ name: mbox, data: takeoutMbox('eocd') }]);
    zip.writeUInt16LE(0xffff, zip.length - 12);
    zip.writeUInt16LE(0xffff, zip.length - 14);
    return zip;
  });
  add('offset-loop', () => {
    const zip = writeZip([{ name: mbox, data: takeoutMbox('loop') }]);
    zip.writeUInt32LE(0, zip.length - 6); // central directory "at" the first local header
    return zip;
  });
  add('stored-garbage-mbox', () =>
    writeZip([{ name: mbox, data: corrupt(Buffer.alloc(100_000), 5, 100_000), method: 'store' }]),
  );
  add('mbox-of-hostile-mime', () =>
    writeZip([
      {
        name: mbox,
        data: Buffer.concat([
          Buffer.from('From a@b Mon Jan  1 00:00:00 2024\n'),
          Buffer.from(nestedRfc822(100)),
          takeoutMbox('after-hostile'),
        ]),
      },
    ]),
  );
  add('encrypted-entry', () => {
    const zip = writeZip([{ name: mbox, data: takeoutMbox('enc') }]);
    zip.writeUInt16LE(0x0801, 6); // "encrypted" in the local header
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(0x0801, central + 8);
    return zip;
  });
  for (let i = 0; i < 40; i++)
    add(`corrupted-${i}`, () =>
      corrupt(
        writeZip([
          { name: mbox, data: takeoutMbox(`zc${i}`) },
          { name: 'Takeout/Mail/b.eml', data: takeoutMbox(`zc${i}b`) },
        ]),
        9000 + i,
        1 + i,
      ),
    );
  return items;
}

// --- CSV (bank statements) -------------------------------------------------------------------------------------------

const STATEMENT =
  'Date,Description,Amount,Currency\n2026-03-14,ACME Supplies GmbH HX-2041,-1234.56,EUR\n2026-03-15,Salary,3000.00,EUR\n';

function csvItems(): HostileItem[] {
  const items: HostileItem[] = [];
  const add = (id: string, make: () => Buffer | string, heavy = false) => {
    items.push(item('csv', 'csv', id, `${id}.csv`, make, heavy));
  };
  add('valid-control', () => STATEMENT);
  add(
    'rows-1m',
    () => `Date,Description,Amount,Currency\n${'2026-03-14,Coffee shop purchase,-3.20,EUR\n'.repeat(1_000_000)}`,
    true,
  );
  add('rows-100k', () => `Date,Description,Amount,Currency\n${'2026-03-14,Coffee,-3.20,EUR\n'.repeat(100_000)}`);
  add('columns-10k', () => `${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n${'1,'.repeat(9_999)}1\n`);
  add('field-10mb', () => `Date,Description,Amount\n2026-01-01,${'x'.repeat(10 * MB)},-1.00\n`, true);
  add('line-no-newline-5mb', () => 'a'.repeat(5 * MB), true);
  add(
    'quote-unbalanced',
    () => `Date,Description,Amount\n2026-01-01,"never closed,-1.00\n${'2026-01-02,x,-1\n'.repeat(1000)}`,
  );
  add('quotes-nested', () => `Date,Description,Amount\n2026-01-01,"a""b""""c""",-1.00\n`);
  add('nul-bytes', () => `Date,Description,Amount\n2026-01-01,AC\0ME,-1.00\n\0\0\0\n`);
  add('mixed-encodings', () =>
    Buffer.concat([
      Buffer.from('Date,Description,Amount\n2026-01-01,Café UTF-8,-1.00\n'),
      Buffer.from('2026-01-02,Caf\xe9 latin1,-2.00\n', 'latin1'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('2026-01-03,utf16,-3.00\n', 'utf16le'),
    ]),
  );
  add('utf16le-bom', () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(STATEMENT, 'utf16le')]));
  add('utf16be-bom', () => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(STATEMENT, 'utf16le').swap16()]));
  add('utf8-bom-twice', () => `\ufeff\ufeff${STATEMENT}`);
  add('utf32', () =>
    Buffer.concat([
      Buffer.from([0xff, 0xfe, 0, 0]),
      ...[...STATEMENT].map((c) => {
        const b = Buffer.alloc(4);
        b.writeUInt32LE(c.codePointAt(0)!);
        return b;
      }),
    ]),
  );
  add('invalid-utf8', () =>
    Buffer.from('Date,Description,Amount\n2026-01-01,\xc3\x28\xa0\xa1\xf0\x28\x8c\xbc,-1.00\n', 'latin1'),
  );
  add('cr-only', () => STATEMENT.replace(/\n/g, '\r'));
  add(
    'formula-injection',
    () =>
      "Date,Description,Amount\n2026-01-01,\"=cmd|' /C calc'!A0\",-1.00\n2026-01-02,@SUM(1+1)*cmd|' /C calc'!A0,+1\n2026-01-03,-2+3+cmd|' /C calc'!A0,-1\n",
  );
  add(
    'amounts-extreme',
    () =>
      `Date,Description,Amount\n2026-01-01,a,-${'9'.repeat(400)}\n2026-01-02,b,1e308\n2026-01-03,c,NaN\n2026-01-04,d,-Infinity\n2026-01-05,e,0x10\n`,
  );
  add(
    'dates-extreme',
    () =>
      'Date,Description,Amount\n0000-00-00,a,-1\n9999-99-99,b,-1\n-271821-04-19,c,-1\n2026-02-30,d,-1\n99999999999999,e,-1\n',
  );
  add('only-header', () => 'Date,Description,Amount\n');
  add('empty', () => '');
  add('binary', () => corrupt(Buffer.alloc(200_000), 77, 200_000));
  add('pdf-named-csv', validInvoicePdf);
  add('delimiter-chaos', () => `Date;Description\tAmount|Currency\n2026-01-01;x\t-1|EUR\n`.repeat(1000));
  add('blank-lines-1m', () => `Date,Description,Amount\n${'\n'.repeat(1_000_000)}2026-01-01,x,-1\n`, true);
  add(
    'injection-strings',
    () =>
      `Date,Description,Amount\n2026-01-01,"'; drop table bank_transactions;--",-1\n2026-01-02,<script>alert(1)</script>,-1\n2026-01-03,\${7*7}{{7*7}},-1\n`,
  );
  for (let i = 0; i < 20; i++)
    add(`corrupted-${i}`, () => corrupt(Buffer.from(STATEMENT.repeat(20)), 9500 + i, 1 + i * 2));
  for (let i = 0; i < 10; i++) add(`truncated-${i}`, () => truncate(Buffer.from(STATEMENT.repeat(20)), (i + 1) / 11));
  return items;
}

// --- API payloads ----------------------------------------------------------------------------------------------------

/** JSON endpoints that take a body, with a well-formed body each: the payloads below replace or twist it. */
const ENDPOINTS: Array<{ method: ApiRequest['method']; path: string; body: Record<string, unknown> }> = [
  {
    method: 'POST',
    path: '/auth/local/signin',
    body: { email: 'owner@hostile.example', password: 'a-long-password-1' },
  },
  {
    method: 'POST',
    path: '/bank-statements/upload',
    body: { filename: 'statement.csv', file_data: Buffer.from(STATEMENT).toString('base64') },
  },
  { method: 'PUT', path: '/settings/preferences', body: { attachments_required: true } },
  { method: 'POST', path: '/sync/gmail', body: { user_ids: [] } },
  {
    method: 'POST',
    path: '/gmail/accounts/imap',
    body: { email: 'a@b.example', host: '127.0.0.1', port: 1, secure: false, password: 'x' },
  },
  {
    method: 'PUT',
    path: '/drive/connection',
    body: { kind: 'webdav', url: 'http://127.0.0.1:1/dav/', username: 'u', password: 'p' },
  },
];

const INJECTIONS = [
  "' OR '1'='1' --",
  "'; drop table invoices; --",
  '" OR ""="',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection, on purpose
  '${7*7}{{7*7}}<%= 7*7 %>',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'a\0b',
  '\u0000',
  '\ud800',
  '\u202e',
  '%00',
  '$where: 1',
  '__proto__',
  'x'.repeat(100_000),
  '\\u0000',
  '\r\nSet-Cookie: x=1',
];

const WRONG_TYPES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  [],
  [1, 2],
  {},
  { $gt: '' },
  'string',
  '',
  Number.MAX_SAFE_INTEGER,
];

/** Every byte percent-encoded (a lone surrogate too, which encodeURIComponent refuses). */
const percent = (value: string) => [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

function apiItems(): HostileItem[] {
  const items: HostileItem[] = [];
  const add = (id: string, request: () => ApiRequest, heavy = false) => {
    items.push({ ...item('api', 'api', id, id, () => Buffer.alloc(0), heavy), request });
  };
  for (const endpoint of ENDPOINTS) {
    const tag = endpoint.path.replace(/\W+/g, '-').replace(/^-|-$/g, '');
    const json = (body: unknown) => ({
      method: endpoint.method,
      path: endpoint.path,
      contentType: 'application/json',
      body: JSON.stringify(body),
    });
    const keys = Object.keys(endpoint.body);
    // Wrong types for every field, and for the whole body.
    for (const key of keys) {
      for (const [i, value] of WRONG_TYPES.entries()) {
        add(`${tag}/type-${key}-${i}`, () => json({ ...endpoint.body, [key]: value }));
      }
      for (const [i, value] of INJECTIONS.entries()) {
        add(`${tag}/inject-${key}-${i}`, () => json({ ...endpoint.body, [key]: value }));
      }
    }
    for (const [i, value] of [null, [], 'text', 42, [{}]].entries()) add(`${tag}/body-type-${i}`, () => json(value));
    add(`${tag}/invalid-json`, () => ({ ...json({}), body: '{"a": ' }));
    add(`${tag}/json-nul-raw`, () => ({ ...json({}), body: `{"${keys[0] ?? 'a'}": "x\u0000y"}` }));
    add(`${tag}/json-nul-key`, () => json({ ...endpoint.body, 'k\0': 1 }));
    add(`${tag}/proto`, () => ({
      ...json({}),
      body: `{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}, ${JSON.stringify(endpoint.body).slice(1)}`,
    }));
    add(`${tag}/deep-10k`, () => ({ ...json({}), body: `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}` }));
    add(`${tag}/deep-arrays-100k`, () => ({ ...json({}), body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }));
    add(`${tag}/huge-60mb`, () => json({ ...endpoint.body, pad: 'x'.repeat(60 * MB) }), true);
    add(`${tag}/many-keys`, () => json(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]))));
    add(`${tag}/wrong-content-type`, () => ({ ...json(endpoint.body), contentType: 'text/plain' }));
    add(`${tag}/form-encoded`, () => ({
      ...json(endpoint.body),
      contentType: 'application/x-www-form-urlencoded',
      body: 'a=1&a=2&a[b]=3',
    }));
    add(`${tag}/xml-body`, () => ({ ...json(endpoint.body), contentType: 'application/xml', body: XXE_XML }));
    add(`${tag}/charset-utf16`, () => ({
      ...json(endpoint.body),
      contentType: 'application/json; charset=utf-16',
      body: Buffer.from(JSON.stringify(endpoint.body), 'utf16le'),
    }));
    add(`${tag}/anonymous`, () => ({ ...json(endpoint.body), anonymous: true }));
  }
  // Query strings and path parameters.
  for (const [i, value] of INJECTIONS.entries()) {
    const q = percent(value);
    add(`query/invoices-search-${i}`, () => ({ method: 'GET', path: `/invoices?search=${q}&limit=5` }));
    add(`query/invoices-sort-${i}`, () => ({ method: 'GET', path: `/invoices?sort=${q}&order=${q}` }));
    add(`path/invoice-id-${i}`, () => ({ method: 'GET', path: `/invoices/${q}` }));
    add(`path/bank-statement-id-${i}`, () => ({ method: 'GET', path: `/bank-statements/${q}` }));
    add(`query/import-account-${i}`, () => ({
      method: 'POST',
      path: `/imports/mail?account_email=${q}`,
      contentType: 'application/mbox',
      body: takeoutMbox(`q${i}`),
    }));
  }
  for (const [i, value] of WRONG_TYPES.entries()) {
    const q = percent(JSON.stringify(value));
    add(`query/invoices-limit-${i}`, () => ({ method: 'GET', path: `/invoices?limit=${q}&offset=${q}` }));
  }
  add('query/limit-huge', () => ({ method: 'GET', path: '/invoices?limit=99999999999999999999&offset=-1' }));
  add('query/array-params', () => ({ method: 'GET', path: '/invoices?limit=1&limit=2&search[]=a&search[b]=c' }));
  add('query/10k-params', () => ({
    method: 'GET',
    path: `/invoices?${Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join('&')}`,
  }));
  add('path/very-long', () => ({ method: 'GET', path: `/invoices/${'a'.repeat(60_000)}` }));
  add('path/dotdot', () => ({ method: 'GET', path: '/../../../../etc/passwd' }));
  add('path/encoded-dotdot', () => ({ method: 'GET', path: '/%2e%2e/%2e%2e/etc/passwd' }));
  add('upload/mail-empty', () => ({
    method: 'POST',
    path: '/imports/mail',
    contentType: 'application/mbox',
    body: '',
  }));
  add('upload/mail-json', () => ({
    method: 'POST',
    path: '/imports/mail',
    contentType: 'application/json',
    body: '{"path": "/etc/passwd"}',
  }));
  add('upload/mail-pdf', () => ({
    method: 'POST',
    path: '/imports/mail',
    contentType: 'application/octet-stream',
    body: validInvoicePdf(),
  }));
  add('upload/statement-bad-base64', () => ({
    method: 'POST',
    path: '/bank-statements/upload',
    contentType: 'application/json',
    body: JSON.stringify({ filename: 's.csv', file_data: '!!!not base64***' }),
  }));
  add('upload/statement-empty', () => ({
    method: 'POST',
    path: '/bank-statements/upload',
    contentType: 'application/json',
    body: JSON.stringify({ filename: 's.csv', file_data: '' }),
  }));
  return items;
}

/** Every item of the corpus, in a stable order. */
export function hostileCorpus(): HostileItem[] {
  return [
    ...pdfItems(),
    ...imageItems(),
    ...xmlItems(),
    ...mimeItems(),
    ...filenameItems(),
    ...archiveItems(),
    ...csvItems(),
    ...apiItems(),
  ];
}

/**
 * A fast, representative sample for CI: the named items (each kind of attack once, among them the bombs that broke
 * the server before) and `perCategory` seeded picks of the light ones of every category.
 */
export function hostileSample(all: HostileItem[], named: string[], perCategory: number, seed = 12): HostileItem[] {
  const random = seeded(seed);
  const chosen = new Map<string, HostileItem>();
  for (const id of named) {
    const found = all.find((i) => i.id === id);
    if (!found) throw new Error(`no corpus item ${id}`);
    chosen.set(id, found);
  }
  const byCategory = new Map<Category, HostileItem[]>();
  for (const i of all)
    if (!i.heavy && !chosen.has(i.id)) byCategory.set(i.category, [...(byCategory.get(i.category) ?? []), i]);
  for (const list of byCategory.values()) {
    for (let k = 0; k < perCategory && list.length > 0; k++) {
      const [picked] = list.splice(Math.floor(random() * list.length), 1);
      chosen.set(picked!.id, picked!);
    }
  }
  return [...chosen.values()];
}
