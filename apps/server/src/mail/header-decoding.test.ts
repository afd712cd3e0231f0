import { describe, expect, it } from 'vitest';
import { decodedHeader, decodeHeaderValue, decodeUtf7, headerBlock, headerFields, rawHeader } from './header-decoding';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decodeHeaderValue', () => {
  it.each([
    ['plain ASCII', 'Your invoice', 'Your invoice'],
    ['B word', '=?utf-8?B?UmVjaG51bmcgTnIuIDQy?=', 'Rechnung Nr. 42'],
    ['Q word with underscores', '=?iso-8859-1?Q?Die_Hasen_und_die_Fr=F6sche?=', 'Die Hasen und die Frösche'],
    ['raw 8-bit byte inside a Q word', '=?iso-8859-1?Q?Fr\xf6sche?=', 'Frösche'],
    ['UTF-7 word', '=?utf-7?Q?Die_Hasen_und_die_Fr+APY-sche_=28Outlook=29?=', 'Die Hasen und die Frösche (Outlook)'],
    ['lowercase encoding letter', '=?UTF-8?q?caf=C3=A9?=', 'café'],
    ['words joined, space between dropped', '=?utf-8?Q?Invoice_?= =?utf-8?Q?2026?=', 'Invoice 2026'],
    ['text around a word kept', 'Re: =?utf-8?B?w6k=?= done', 'Re: é done'],
    ['UTF-8 character split across two words', '=?utf-8?B?ww==?= =?utf-8?B?qQ==?=', 'é'],
    ['different charsets side by side', '=?iso-8859-1?Q?=E9?= =?utf-8?Q?=C3=A9?=', 'éé'],
    ['RFC 2231 language suffix', '=?utf-8*en?Q?Hello?=', 'Hello'],
    ['windows-1252 word', '=?windows-1252?Q?=80_12?=', '€ 12'],
    ['iso-8859-1 word read as Windows-1252', '=?iso-8859-1?Q?=93quoted=94?=', '\u201cquoted\u201d'],
    ['iso-8859-2 word', '=?iso-8859-2?Q?=A3=F3d=BC?=', 'Łódź'],
    ['koi8-r word', '=?koi8-r?B?8NLJ18XU?=', 'Привет'],
    ['raw Windows-1252 outside words', 'Price \x80 12', 'Price € 12'],
    ['unknown charset, valid UTF-8 bytes', '=?x-unknown?Q?=C3=A9?=', 'é'],
    ['raw UTF-8 outside words (RFC 6532)', 'Fr\xc3\xb6sche', 'Frösche'],
    ['raw Latin-1 outside words', 'Fr\xf6sche', 'Frösche'],
    ['not an encoded word', '=?broken', '=?broken'],
  ])('%s', (_label, raw, expected) => {
    expect(decodeHeaderValue(latin1(raw))).toBe(expected);
  });
});

describe('decodeUtf7', () => {
  it.each([
    ['Fr+APY-sche', 'Frösche'],
    ['1 +- 1', '1 + 1'],
    ['Hi Mom -+Jjo--!', 'Hi Mom -☺-!'],
    ['+ZeVnLIqe-', '日本語'],
    ['no shifts', 'no shifts'],
  ])('%s → %s', (input, expected) => {
    expect(decodeUtf7(input)).toBe(expected);
  });
});

describe('header blocks and fields', () => {
  const message = latin1(
    'Subject: first\r\n part\r\nX-Empty:\r\nFrom: a@b.c\r\nsubject: second\r\n\r\nSubject: body, not a header\r\n',
  );

  it('stops at the first empty line, LF or CRLF', () => {
    expect(headerBlock(message).toString()).toBe(
      'Subject: first\r\n part\r\nX-Empty:\r\nFrom: a@b.c\r\nsubject: second',
    );
    expect(headerBlock(latin1('A: 1\n\nbody')).toString()).toBe('A: 1');
    expect(headerBlock(latin1('A: 1\nB: 2')).toString()).toBe('A: 1\nB: 2');
  });

  it('unfolds fields and keeps their order', () => {
    expect(headerFields(headerBlock(message)).map((f) => [f.name, f.value.toString()])).toEqual([
      ['subject', 'first part'],
      ['x-empty', ''],
      ['from', 'a@b.c'],
      ['subject', 'second'],
    ]);
  });

  it('finds the first field of a name, case-insensitively, never in the body', () => {
    expect(rawHeader(message, 'SUBJECT')?.toString()).toBe('first part');
    expect(rawHeader(message, 'date')).toBeUndefined();
    expect(decodedHeader(message, 'from')).toBe('a@b.c');
    expect(decodedHeader(message, 'date')).toBeNull();
  });
});
