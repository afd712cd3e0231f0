import { describe, expect, it } from 'vitest';
import {
  contentTypeFor,
  driveFileName,
  driveFolderFor,
  MAX_NAME_BYTES,
  safeDriveName,
  suffixedName,
} from './drive-naming';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const mailDate = new Date('2025-11-30T23:30:00Z');

/** What every produced name must satisfy, whatever went in. */
function expectSafe(name: string) {
  expect(name.length).toBeGreaterThan(0);
  expect(bytes(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may survive
  expect(name).not.toMatch(/[/\\<>:"|?*\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  expect(name).not.toMatch(/^[.\s]/);
  expect(name).not.toMatch(/[.\s]$/);
  expect(['.', '..']).not.toContain(name);
  expect(name).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
  expect(name).toBe(name.normalize('NFC'));
  expect(name).toBe(name.trim());
  // Idempotent: the adapters apply it again to names that are already safe.
  expect(safeDriveName(name)).toBe(name);
}

describe('driveFolderFor', () => {
  it.each([
    ['2026-03-14', ['Invoices', '2026', '03']],
    ['2026-12-31T23:59:59-05:00', ['Invoices', '2026', '12']], // the date as written, not shifted to UTC
    ['2026-01-01 00:00', ['Invoices', '2026', '01']],
    ['March 7, 2024', ['Invoices', '2024', '03']],
    [null, ['Invoices', '2025', '11']],
    ['', ['Invoices', '2025', '11']],
    ['not a date', ['Invoices', '2025', '11']],
    ['2026-02-30', ['Invoices', '2025', '11']], // impossible date: the mail's date instead
    ['0001-01-01', ['Invoices', '2025', '11']], // implausible year
    ['9999-12-31', ['Invoices', '2025', '11']],
  ])('%j → %j', (date, folder) => {
    expect(driveFolderFor(date, mailDate)).toEqual(folder);
  });

  it('takes the fallback in UTC and survives an invalid fallback', () => {
    expect(driveFolderFor(null, new Date('2026-04-01T00:30:00+02:00'))).toEqual(['Invoices', '2026', '03']);
    const now = new Date();
    expect(driveFolderFor(null, new Date(Number.NaN))).toEqual([
      'Invoices',
      String(now.getUTCFullYear()),
      String(now.getUTCMonth() + 1).padStart(2, '0'),
    ]);
  });
});

describe('driveFileName', () => {
  const base = { date: '2026-03-14', vendor: 'Acme GmbH', invoiceNumber: 'INV-2026-001', originalName: 'x.pdf' };

  it.each([
    [base, '2026-03-14 Acme GmbH INV-2026-001.pdf'],
    [{ ...base, originalName: 'Scan.PDF' }, '2026-03-14 Acme GmbH INV-2026-001.pdf'],
    [{ ...base, originalName: 'invoice' }, '2026-03-14 Acme GmbH INV-2026-001'],
    [{ ...base, originalName: 'archive.tar.gz' }, '2026-03-14 Acme GmbH INV-2026-001.gz'],
    [{ ...base, originalName: 'weird.p d f' }, '2026-03-14 Acme GmbH INV-2026-001'],
    [{ ...base, originalName: 'long.extension1' }, '2026-03-14 Acme GmbH INV-2026-001'],
    [{ ...base, originalName: 'x.ÄÖÜ' }, '2026-03-14 Acme GmbH INV-2026-001'],
    [{ ...base, date: null }, 'Acme GmbH INV-2026-001.pdf'],
    [{ ...base, date: 'garbage' }, 'Acme GmbH INV-2026-001.pdf'],
    [{ ...base, vendor: null }, '2026-03-14 INV-2026-001.pdf'],
    [{ ...base, invoiceNumber: 'INV/2026/001' }, '2026-03-14 Acme GmbH INV-2026-001.pdf'],
    [{ ...base, invoiceNumber: 'A\\B|C:D' }, '2026-03-14 Acme GmbH A-B-C-D.pdf'],
    [{ ...base, vendor: '"Acme" <GmbH>?*' }, '2026-03-14 Acme GmbH INV-2026-001.pdf'],
    [{ ...base, vendor: '  Acme \n\t GmbH  ' }, '2026-03-14 Acme GmbH INV-2026-001.pdf'],
    [{ date: null, vendor: null, invoiceNumber: null, originalName: 'Rechnung März.pdf' }, 'Rechnung März.pdf'],
    [{ date: null, vendor: null, invoiceNumber: null, originalName: '.pdf' }, 'pdf'],
    [{ date: null, vendor: '', invoiceNumber: '   ', originalName: '' }, 'invoice'],
    [{ date: null, vendor: '...', invoiceNumber: '..', originalName: '../...pdf' }, '-.pdf'],
  ])('%j → %j', (input, expected) => {
    const name = driveFileName(input);
    expect(name).toBe(expected);
    expectSafe(name);
  });

  it('normalises to NFC', () => {
    const decomposed = 'Mu\u0308ller GmbH'; // u + combining diaeresis
    const name = driveFileName({ ...base, vendor: decomposed });
    expect(name).toBe('2026-03-14 Müller GmbH INV-2026-001.pdf');
    expect(name).toContain('\u00fc');
  });
});

describe('hostile names', () => {
  const cases: Array<[string, string]> = [
    ['../../etc/passwd', '-..-etc-passwd'],
    ['..\\..\\windows\\system32', '-..-windows-system32'],
    ['/etc/passwd', '-etc-passwd'],
    ['.', 'invoice'],
    ['..', 'invoice'],
    ['...', 'invoice'],
    ['.hidden.pdf', 'hidden.pdf'],
    ['a\u0000b.pdf', 'a b.pdf'],
    ['\u0000', 'invoice'],
    ['line\r\nbreak.pdf', 'line break.pdf'],
    ['invoice\u202efdp.exe', 'invoicefdp.exe'],
    ['\u2066evil\u2069\u200f.pdf', 'evil.pdf'],
    ['CON', '_CON'],
    ['con.pdf', '_con.pdf'],
    ['NUL.txt', '_NUL.txt'],
    ['Com1.tar.gz', '_Com1.tar.gz'],
    ['lpt9', '_lpt9'],
    ['CONSOLE.pdf', 'CONSOLE.pdf'],
    ['trailing dots...', 'trailing dots'],
    ['trailing space .pdf', 'trailing space.pdf'],
    ['broken \ud800 half.pdf', 'broken \ufffd half.pdf'],
    ['🧾 Receipt 👨‍👩‍👧.pdf', '🧾 Receipt 👨‍👩‍👧.pdf'],
  ];
  it.each(cases)('safeDriveName(%j) → %j', (input, expected) => {
    const name = safeDriveName(input);
    expect(name).toBe(expected);
    expectSafe(name);
  });

  it.each(cases)('driveFileName with vendor %j is safe', (vendor) => {
    expectSafe(driveFileName({ date: '2026-03-14', vendor, invoiceNumber: vendor, originalName: `${vendor}.pdf` }));
  });

  it('cuts 500-character names to 120 bytes and keeps the extension', () => {
    const name = driveFileName({
      date: '2026-03-14',
      vendor: 'A'.repeat(500),
      invoiceNumber: '1',
      originalName: 'a.pdf',
    });
    expectSafe(name);
    expect(bytes(name)).toBe(MAX_NAME_BYTES);
    expect(name.endsWith('A.pdf')).toBe(true);
    expect(name.startsWith('2026-03-14 AAAA')).toBe(true);
  });

  it('cuts multi-byte names at a character boundary, emoji sequences whole', () => {
    const family = '👨‍👩‍👧'; // 18 bytes, one grapheme
    for (let pad = 0; pad < 20; pad++) {
      const name = safeDriveName(`${'x'.repeat(pad)}${family.repeat(10)}.pdf`);
      expectSafe(name);
      expect(name).not.toContain('\ufffd');
      const stem = name.slice(pad, -'.pdf'.length);
      expect(stem.length % family.length).toBe(0);
      expect(stem.replaceAll(family, '')).toBe('');
    }
    const umlauts = safeDriveName(`${'ä'.repeat(300)}.xml`);
    expectSafe(umlauts);
    expect(umlauts).toBe(`${'ä'.repeat(58)}.xml`);
  });

  it('never ends a cut name with a space or dot', () => {
    const name = safeDriveName(`${'ab. '.repeat(60)}.pdf`);
    expectSafe(name);
  });
});

describe('suffixedName', () => {
  it.each([
    ['a.pdf', 2, 'a (2).pdf'],
    ['2026-03-14 Acme GmbH INV-2026-001.pdf', 3, '2026-03-14 Acme GmbH INV-2026-001 (3).pdf'],
    ['no extension', 2, 'no extension (2)'],
    ['archive.tar.gz', 10, 'archive.tar (10).gz'],
  ])('%j, %d → %j', (name, n, expected) => {
    expect(suffixedName(name, n)).toBe(expected);
    expectSafe(suffixedName(name, n));
  });

  it('stays within 120 bytes for a name at the limit', () => {
    const full = safeDriveName(`${'é'.repeat(200)}.pdf`);
    expect(bytes(full)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    const suffixed = suffixedName(full, 12);
    expectSafe(suffixed);
    expect(suffixed.endsWith(' (12).pdf')).toBe(true);
    expect(suffixed).not.toBe(full);
  });
});

describe('contentTypeFor', () => {
  it.each([
    ['a.pdf', 'application/pdf'],
    ['a.PDF', 'application/pdf'],
    ['factur-x.xml', 'application/xml'],
    ['scan.JPG', 'image/jpeg'],
    ['noext', 'application/octet-stream'],
    ['a.exe', 'application/octet-stream'],
  ])('%j → %j', (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});
