/**
 * A mail whose every header and name carries characters PostgreSQL refuses: NUL through RFC 2047 encoded words and
 * RFC 2231 file names (`filename*=UTF-8''invoice%00.pdf`), lone surrogates through UTF-16 encoded words, a NUL byte in
 * the body. Raw NUL in the header block is refused by the parser as not a mail, so it is only encoded here.
 */
const lone = (bytes: number[]) => Buffer.from(bytes).toString('base64');
// "A" U+D800 "B" in UTF-16BE: a lone high surrogate once decoded.
const SURROGATE_WORD = `=?UTF-16BE?B?${lone([0x00, 0x41, 0xd8, 0x00, 0x00, 0x42])}?=`;

export function refusedCharactersMail(n: number): Buffer {
  const pdf = Buffer.from(`%PDF-1.4\n% refused characters ${n}\n`).toString('base64');
  return Buffer.from(
    [
      `From: =?UTF-8?Q?Ev=00il_Vendor_${n}?= <billing${n}@vendor.example>`,
      'To: =?UTF-8?Q?me=00?= <me@example.com>',
      `Subject: =?UTF-8?Q?Invoice=00_${n}?= ${SURROGATE_WORD}`,
      `Message-ID: <refused-${n}@vendor.example>`,
      'Date: Mon, 1 Jan 2024 10:00:00 +0000',
      `X-Note: =?UTF-8?B?${Buffer.from('a\u0000b').toString('base64')}?=`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="part"',
      '',
      '--part',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Your invoice\u0000 number ${n} is attached.`,
      '--part',
      "Content-Type: application/pdf; name*=UTF-8''invoice%00.pdf",
      "Content-Disposition: attachment; filename*=UTF-8''invoice%00.pdf",
      'Content-Transfer-Encoding: base64',
      '',
      pdf,
      '--part',
      'Content-Type: application/pdf',
      `Content-Disposition: attachment; filename="${SURROGATE_WORD}.pdf"`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(`%PDF-1.4\n% second ${n}\n`).toString('base64'),
      '--part--',
      '',
    ].join('\r\n'),
  );
}
