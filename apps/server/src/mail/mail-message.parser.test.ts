import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedCharactersMail } from '../../test/faults/refused-characters-mail';
import { buildMail, FAKE_PDF, FAKE_PNG, mailDatasets } from '../../test/mail/mail-builder';
import type { MailMessage, MailReadResult } from './mail-message';
import { parseMailMessage } from './mail-message.parser';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function ok(result: MailReadResult): MailMessage {
  if (!result.ok) throw new Error(`expected a message, got ${result.error.code}: ${result.error.message}`);
  return result.message;
}

async function parse(source: Buffer | string, limits = {}) {
  return ok(await parseMailMessage(Buffer.from(source), 'test.eml', limits));
}

interface TruthEntry {
  subject?: string | null;
  from?: Array<{ name: string | null; address: string | null }> | null;
  date?: string | null;
  attachments?: Array<{ filename: string | null; content_type: string | null; size: number | null }>;
  expected_file: string | null;
}
const truth: Record<string, TruthEntry> = JSON.parse(readFileSync(path.join(mailDatasets, 'truth.json'), 'utf8'));
const withExpectations = Object.entries(truth).filter(([, entry]) => entry.expected_file !== null);

/** Where we differ from the stalwart parser's expectations on purpose. */
const EXTRA_ATTACHMENTS: Record<string, string[]> = {
  // The forwarded message is inline, so its image is found inside it.
  'stalwart-mail-parser/rfc-002.eml': ['map_of_Argentina.gif'],
};

describe('the dataset mails (stalwart mail-parser expectations)', () => {
  it('has the fixtures', () => {
    expect(withExpectations.length).toBeGreaterThanOrEqual(30);
  });

  it.each(withExpectations)('%s', async (file, expected) => {
    const message = ok(await parseMailMessage(readFileSync(path.join(mailDatasets, file)), file));
    expect(message.subject).toBe(expected.subject ?? null);
    expect(message.date).toBe(expected.date ? new Date(expected.date).toISOString() : null);
    const sender = expected.from?.[0];
    expect(message.from).toEqual(sender ? { name: sender.name, address: sender.address } : null);

    const named = (expected.attachments ?? []).filter((a) => a.filename !== null);
    const names = message.attachments.map((a) => a.filename);
    // The source kept an undecodable Latin-1 byte as U+FFFD; we decode it (HasenundFrösche.txt).
    const pattern = (name: string) =>
      new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\uFFFD/g, '.')}$`);
    expect(names.length).toBe(named.length + (EXTRA_ATTACHMENTS[file]?.length ?? 0));
    for (const [i, attachment] of named.entries()) {
      expect(names[i]).toMatch(pattern(attachment.filename ?? ''));
      const ours = message.attachments[i]!;
      expect(ours.size).toBe(ours.content.length);
      expect(ours.sha256).toBe(sha256(ours.content));
      // Binary parts decode to the same bytes; text parts differ by line-ending handling between parsers.
      if (attachment.content_type?.startsWith('image/') && attachment.size !== null) {
        expect(ours.size).toBe(attachment.size);
        expect(ours.contentType).toBe(attachment.content_type);
      }
    }
    for (const extra of EXTRA_ATTACHMENTS[file] ?? []) expect(names).toContain(extra);
  });
});

describe('the other dataset mails', () => {
  const files = ['nodemailer-mailparser', 'postal-mime'].flatMap((dir) =>
    readdirSync(path.join(mailDatasets, dir))
      .filter((name) => name.endsWith('.eml'))
      .map((name) => `${dir}/${name}`),
  );

  it.each(files)('%s parses', async (file) => {
    const result = await parseMailMessage(readFileSync(path.join(mailDatasets, file)), file);
    expect(result.ok).toBe(true);
  });

  it.each([
    ['nodemailer-mailparser/nodemailer.eml', ['image.png', 'nyan cat ✔.gif', 'notes.txt']],
    ['nodemailer-mailparser/base64encodedroot.eml', ['screenshot.png']],
    ['postal-mime/calendar-event.eml', ['invite.ics']],
    [
      'postal-mime/mimetorture.eml',
      ['foo.gz', 'blah.gz', 'blah1.gz', 'htmlfile.html', 'smiley-3.png', 'dot.gif', 'signature.asc'],
    ],
    ['postal-mime/bounce.eml', []],
  ])('%s has the named leaves %j', async (file, names) => {
    const message = ok(await parseMailMessage(readFileSync(path.join(mailDatasets, file)), file));
    expect(message.attachments.map((a) => a.filename)).toEqual(names);
  });

  it('reads the unicode-heavy Nodemailer sample', async () => {
    const file = 'nodemailer-mailparser/nodemailer.eml';
    const message = ok(await parseMailMessage(readFileSync(path.join(mailDatasets, file)), file));
    expect(message).toMatchObject({
      messageId: '<012d606e-3550-2d94-b566-6cd996de88e3@kreata.ee>',
      from: { name: 'Andris Kreata', address: 'andris@kreata.ee' },
      subject: 'Nodemailer is unicode friendly ✔ (1476358788189)',
      date: '2016-10-13T11:39:48.000Z',
      skippedParts: [],
    });
    expect(message.textSnippet).toMatch(/^Hello to myself!/);
  });
});

describe('generated mails', () => {
  it('reads the fields and every attachment with its hash', async () => {
    const message = await parse(
      buildMail({
        attachments: [
          { filename: 'invoice.pdf', contentType: 'application/pdf', content: FAKE_PDF },
          { filename: 'logo.png', contentType: 'image/png', content: FAKE_PNG, disposition: 'inline' },
        ],
      }),
    );
    expect(message).toMatchObject({
      origin: 'test.eml',
      messageId: '<msg-1@acme.com>',
      from: { name: 'Acme Billing', address: 'billing@acme.com' },
      subject: 'Your invoice',
      date: '2026-11-02T09:00:00.000Z',
      textSnippet: 'Please find your invoice attached.',
      skippedParts: [],
    });
    expect(message.attachments.map(({ content: _content, ...rest }) => rest)).toEqual([
      { filename: 'invoice.pdf', contentType: 'application/pdf', size: FAKE_PDF.length, sha256: sha256(FAKE_PDF) },
      { filename: 'logo.png', contentType: 'image/png', size: FAKE_PNG.length, sha256: sha256(FAKE_PNG) },
    ]);
    expect(message.attachments[0]?.content.equals(FAKE_PDF)).toBe(true);
  });

  it('gives the same result for CRLF and LF line endings', async () => {
    const mail = { attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: FAKE_PDF }] };
    const lf = await parse(buildMail(mail));
    const crlf = await parse(buildMail({ ...mail, eol: '\r\n' }));
    expect({ ...crlf, attachments: crlf.attachments.map((a) => a.sha256) }).toEqual({
      ...lf,
      attachments: lf.attachments.map((a) => a.sha256),
    });
  });

  it.each([
    ['rfc2231', 'Rechnung März 2026.pdf'],
    ['rfc2047', 'facture_été_n°12.pdf'],
    ['plain', 'receipt (1).pdf'],
  ] as const)('decodes %s filenames', async (nameStyle, filename) => {
    const message = await parse(buildMail({ attachments: [{ filename, nameStyle, content: FAKE_PDF }] }));
    expect(message.attachments.map((a) => a.filename)).toEqual([filename]);
    // application/octet-stream is refined from the extension.
    expect(message.attachments[0]?.contentType).toBe('application/pdf');
  });

  it('joins RFC 2231 continuations', async () => {
    const message = await parse(
      [
        'From: a@b.example',
        'Subject: split name',
        'Content-Type: multipart/mixed; boundary=b',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'hi',
        '--b',
        'Content-Type: application/pdf',
        "Content-Disposition: attachment; filename*0*=utf-8''Fa%C3%A7tura%20;",
        ' filename*1*=n%C2%BA%201.pdf',
        'Content-Transfer-Encoding: base64',
        '',
        FAKE_PDF.toString('base64'),
        '--b--',
      ].join('\r\n'),
    );
    expect(message.attachments.map((a) => a.filename)).toEqual(['Façtura nº 1.pdf']);
  });

  it('finds leaves in nested multiparts, inline named text parts and message/rfc822 parts', async () => {
    const inner = buildMail({
      from: 'Vendor <v@vendor.example>',
      subject: 'Original invoice',
      attachments: [{ filename: 'inner-invoice.pdf', contentType: 'application/pdf', content: FAKE_PDF }],
    }).toString();
    const message = await parse(
      [
        'From: Forwarder <fwd@example.org>',
        'Subject: Fwd: invoices',
        'Date: Tue, 03 Nov 2026 08:00:00 -0800 (PST)',
        'Message-ID: no-brackets@example.org',
        'Content-Type: multipart/mixed; boundary=outer',
        '',
        '--outer',
        'Content-Type: multipart/alternative; boundary=alt',
        '',
        '--alt',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'See the forwarded mails.',
        '--alt',
        'Content-Type: multipart/related; boundary=rel',
        '',
        '--rel',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>See <img src="cid:logo"></p>',
        '--rel',
        'Content-Type: image/png; name=logo.png',
        'Content-ID: <logo>',
        'Content-Disposition: inline; filename=logo.png',
        'Content-Transfer-Encoding: base64',
        '',
        FAKE_PNG.toString('base64'),
        '--rel--',
        '--alt--',
        '--outer',
        'Content-Type: text/plain; charset=utf-8; name=notes.txt',
        'Content-Disposition: inline; filename=notes.txt',
        '',
        'Inline notes with a name.',
        '--outer',
        'Content-Type: message/rfc822',
        'Content-Disposition: inline',
        '',
        inner,
        '--outer',
        'Content-Type: message/rfc822; name=forwarded.eml',
        'Content-Disposition: attachment; filename=forwarded.eml',
        '',
        inner,
        '--outer',
        'Content-Type: application/octet-stream',
        'Content-Disposition: attachment',
        'Content-Transfer-Encoding: base64',
        '',
        FAKE_PDF.toString('base64'),
        '--outer--',
        '',
      ].join('\n'),
    );
    expect(message.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['logo.png', 'image/png'],
      ['notes.txt', 'text/plain'],
      ['inner-invoice.pdf', 'application/pdf'],
      ['forwarded.eml', 'message/rfc822'],
    ]);
    expect(message.messageId).toBe('<no-brackets@example.org>');
    expect(message.date).toBe('2026-11-03T16:00:00.000Z');
    // mailparser appends the text of an inline forwarded message to the body.
    expect(message.textSnippet).toMatch(/^See the forwarded mails\. From: "Vendor" <v@vendor\.example>/);
  });

  it('records an oversize attachment as skipped and keeps the rest', async () => {
    const big = Buffer.alloc(5000, 0x41);
    const message = await parse(
      buildMail({
        attachments: [
          { filename: 'huge-invoice.pdf', contentType: 'application/pdf', content: big },
          { filename: 'invoice.pdf', contentType: 'application/pdf', content: FAKE_PDF },
        ],
      }),
      { maxAttachmentBytes: 1000 },
    );
    expect(message.attachments.map((a) => a.filename)).toEqual(['invoice.pdf']);
    expect(message.skippedParts).toEqual([
      {
        filename: 'huge-invoice.pdf',
        contentType: 'application/pdf',
        size: 5000,
        reason: 'too_large',
        detail: '5000 bytes, over the 1000-byte attachment limit',
      },
    ]);
  });

  it('keeps the headers and earlier parts when a later part is malformed', async () => {
    // Big enough that the parser hands the parts over before it reaches the broken one.
    const pdf = Buffer.concat([FAKE_PDF, Buffer.alloc(200_000, 0x20)]);
    const part = (name: string) => [
      '--b',
      `Content-Type: application/pdf; name=${name}`,
      'Content-Transfer-Encoding: base64',
      '',
      pdf.toString('base64').replace(/.{76}/g, '$&\n'),
    ];
    const message = await parse(
      [
        'From: Acme <billing@acme.com>',
        'Subject: partly broken',
        'Content-Type: multipart/mixed; boundary=b',
        '',
        ...part('invoice.pdf'),
        ...part('second.pdf'),
        '--b',
        `X-Huge: ${'x'.repeat(5000)}`,
        'Content-Type: text/plain',
        '',
        'never read',
        '--b--',
      ].join('\n'),
      { maxHeaderBytes: 2000 },
    );
    expect(message.subject).toBe('partly broken');
    expect(message.attachments.map((a) => [a.filename, a.size])).toEqual([['invoice.pdf', pdf.length]]);
    // The part being read when the parser failed never ended, so it cannot be trusted to be whole.
    expect(message.skippedParts).toEqual([
      {
        filename: 'second.pdf',
        contentType: 'application/pdf',
        size: expect.any(Number),
        reason: 'malformed',
        detail: 'Max header size for a MIME node exceeded',
      },
      {
        filename: null,
        contentType: null,
        size: 0,
        reason: 'malformed',
        detail: 'the rest of the message could not be parsed: Max header size for a MIME node exceeded',
      },
    ]);
  });

  it('reads the HTML as plain text when there is no text part', async () => {
    const message = await parse(
      'From: a@b.example\nContent-Type: text/html\n\n<html><head><style>p{}</style></head><body><p>Total&nbsp;due:</p>\n<b>12 &amp; 13</b></body></html>',
    );
    expect(message.textSnippet).toBe('Total due: 12 & 13');
  });

  it('skips a leading mbox envelope line', async () => {
    const message = await parse(
      Buffer.concat([Buffer.from('From billing@acme.com Mon Nov  2 10:00:00 2026\n'), buildMail()]),
    );
    expect(message.subject).toBe('Your invoice');
  });

  it.each([
    ['no Date header', ['From: a@b.example', 'Subject: x'], null],
    ['an unreadable Date', ['From: a@b.example', 'Date: sometime last week'], null],
    [
      'a Date with a comment',
      ['From: a@b.example', 'Date: Fri, 19 May 2000 00:36:58 -0400 (EDT)'],
      '2000-05-19T04:36:58.000Z',
    ],
  ])('dates: %s', async (_label, headers, expected) => {
    const message = await parse(`${headers.join('\n')}\n\nbody`);
    expect(message.date).toBe(expected);
  });

  it('reads a sender without a display name and an address group', async () => {
    expect((await parse('From: billing@acme.com\n\nx')).from).toEqual({ name: null, address: 'billing@acme.com' });
    expect((await parse('From: Billing team: Ann <ann@acme.com>;\n\nx')).from).toEqual({
      name: 'Ann',
      address: 'ann@acme.com',
    });
    expect((await parse('From: =?utf-8?Q?Soci=C3=A9t=C3=A9_G=C3=A9n=C3=A9rale?= <sg@sg.fr>\n\nx')).from).toEqual({
      name: 'Société Générale',
      address: 'sg@sg.fr',
    });
  });
});

describe('characters PostgreSQL refuses', () => {
  it('are cleaned from every text of the message: no NUL, no lone surrogate', async () => {
    const message = await parse(refusedCharactersMail(7));
    expect(message.from).toEqual({ name: 'Evil Vendor 7', address: 'billing7@vendor.example' });
    expect(message.subject).toBe('Invoice 7A\uFFFDB'); // adjacent encoded words join (RFC 2047)
    expect(message.textSnippet).toBe('Your invoice number 7 is attached.');
    expect(message.attachments.map((a) => a.filename)).toEqual(['invoice.pdf', 'A\uFFFDB.pdf']);
    const text = JSON.stringify(message, (key, value) => (key === 'content' ? undefined : value));
    expect(text).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i);
  });
});

describe('unreadable input is an error record, never a throw', () => {
  const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

  it.each([
    ['an empty file', Buffer.alloc(0), 'empty_message'],
    ['only whitespace', Buffer.from(' \r\n\r\n \n'), 'empty_message'],
    ['only an envelope line', Buffer.from('From x@y Mon Nov  2 10:00:00 2026\n'), 'empty_message'],
    ['binary junk', junk, 'not_a_message'],
    ['text without headers', Buffer.from('hello world\nthis is not a mail\n'), 'not_a_message'],
    ['a header block of unknown fields only', Buffer.from('Foo: bar\nBaz: qux\n\nbody'), 'not_a_message'],
    ['NUL bytes in the headers', Buffer.from('From: a@b.example\nX-Bad: \0\0\0\n\nbody'), 'not_a_message'],
    [
      'a header block with no end past the limit',
      Buffer.from(`From: a@b.example\nX-Long: ${'folded line\n '.repeat(200_000)}`),
      'header_too_large',
    ],
  ])('%s → %s', async (_label, source, code) => {
    const result = await parseMailMessage(source, 'bad.eml');
    expect(result).toMatchObject({ ok: false, error: { origin: 'bad.eml', code } });
    if (!result.ok) expect(result.error.message).not.toBe('');
  });

  it('reports a message over the size limit', async () => {
    const result = await parseMailMessage(buildMail(), 'big.eml', { maxMessageBytes: 100 });
    expect(result).toMatchObject({ ok: false, error: { code: 'message_too_large' } });
  });

  it('reports a part header over the limit when it is the top-level one', async () => {
    const result = await parseMailMessage(
      Buffer.from(`From: a@b.example\nX-Long: ${'y'.repeat(5000)}\n\nbody`),
      'h.eml',
      { maxHeaderBytes: 2000 },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'header_too_large' } });
  });

  it('survives many hostile variations', async () => {
    const base = buildMail({ attachments: [{ filename: 'invoice.pdf', content: FAKE_PDF }] });
    const variants = [
      base.subarray(0, base.length / 2),
      Buffer.concat([base.subarray(0, 200), junk]),
      Buffer.from(base.toString().replace(/boundary="[^"]+"/, 'boundary=""')),
      Buffer.from(base.toString().replace(/--[^\n]*--\n?$/, '')),
      Buffer.from(`From: a@b.example\nContent-Type: multipart/mixed; boundary=x\n\n${'--x\n'.repeat(3000)}`),
      Buffer.from('From: a@b.example\nContent-Type: multipart/mixed\n\n--\n--\n'),
      Buffer.from('From: a@b.example\nContent-Transfer-Encoding: base64\n\n!!!!====****'),
    ];
    for (const variant of variants) {
      const result = await parseMailMessage(variant, 'variant.eml');
      expect(typeof result.ok).toBe('boolean');
    }
  });
});
