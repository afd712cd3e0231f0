import { describe, expect, it } from 'vitest';
import {
  attachmentContentType,
  attachmentContentTypeFromBytes,
  decodeBase64Prefix,
  isPreviewableDataUrl,
  sniffContentTypeFromBase64,
  sniffContentTypeFromBytes,
} from './attachment-content-type';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => Uint8Array.from(value, (char) => char.charCodeAt(0));

describe('sniffContentTypeFromBase64', () => {
  it.each([
    ['iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB', 'image/png'],
    ['/9j/4AAQSkZJRgABAQAAAQABAAD', 'image/jpeg'],
    ['_9j_4AAQSkZJRgABAQAAAQABAAD', 'image/jpeg'], // URL-safe alphabet
    ['JVBERi0xLjQKJcOkw7zDtsOf', 'application/pdf'],
    ['JVBERi0xLjQ', 'application/pdf'], // unpadded
    ['R0lGODlhAQABAIAAAP', 'image/gif'],
    ['UEsDBBQAAAAIAA', 'application/zip'],
    ['PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=', 'image/svg+xml'], // <svg xmlns="..."/>
    ['PD94bWwgdmVyc2lvbj0iMS4wIj8+PHN2Zz48L3N2Zz4=', 'image/svg+xml'], // <?xml version="1.0"?><svg></svg>
    ['0M8R4KGxGuEAAAAAAAAAAA', 'application/msword'],
    ['SUkqAAgAAAA', 'image/tiff'],
    ['TU0AKgAAAAg', 'image/tiff'],
    ['SGVsbG8sIHdvcmxkIQ==', 'text/plain'], // Hello, world!
    ['R3LDvMOfZSBhdXMgS8O2bG4K', 'text/plain'], // UTF-8 text
    ['PD94bWwgdmVyc2lvbj0iMS4wIj8+PEludm9pY2UvPg==', 'text/plain'], // XML that is not SVG
    ['AAECAwQFBgc=', 'application/octet-stream'],
    ['/////w==', 'application/octet-stream'],
    ['', 'application/octet-stream'],
    ['!!!not base64', 'application/octet-stream'],
  ])('%s → %s', (data, expected) => {
    expect(sniffContentTypeFromBase64(data)).toBe(expected);
  });

  it('reads the type of a data URL from its prefix', () => {
    expect(sniffContentTypeFromBase64('data:application/PDF;base64,AAAA')).toBe('application/pdf');
  });
});

describe('sniffContentTypeFromBytes', () => {
  it.each([
    [bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), 'image/png'],
    [bytes(0xff, 0xd8, 0xff, 0xe0), 'image/jpeg'],
    [text('%PDF-1.7\n'), 'application/pdf'],
    [text('GIF89a'), 'image/gif'],
    [bytes(0x50, 0x4b, 0x03, 0x04, 0x14), 'application/zip'],
    [bytes(0x50, 0x4b, 0x05, 0x06, 0), 'application/zip'],
    [bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), 'application/msword'],
    [bytes(0x49, 0x49, 0x2a, 0x00), 'image/tiff'],
    [bytes(0x4d, 0x4d, 0x00, 0x2a), 'image/tiff'],
    [text('  \n<svg viewBox="0 0 1 1"></svg>'), 'image/svg+xml'],
    [text('<!-- made by hand --><svg/>'), 'image/svg+xml'],
    [text('Total due: 12.00 EUR\r\n'), 'text/plain'],
    [bytes(0x47, 0x72, 0xc3, 0xbc, 0xc3), 'text/plain'], // UTF-8 cut mid-character at the end
    [bytes(0x47, 0x72, 0xfc, 0x65), 'application/octet-stream'], // Latin-1 byte, not UTF-8
    [bytes(0x41, 0x00, 0x42), 'application/octet-stream'],
    [bytes(0x41, 0x7f), 'application/octet-stream'],
    [bytes(0xc3, 0x28), 'application/octet-stream'],
    [bytes(), 'application/octet-stream'],
  ])('%#: → %s', (input, expected) => {
    expect(sniffContentTypeFromBytes(input)).toBe(expected);
  });
});

describe('decodeBase64Prefix', () => {
  it('decodes standard, URL-safe and wrapped base64', () => {
    expect([...decodeBase64Prefix('SGk=')]).toEqual([0x48, 0x69]);
    expect([...decodeBase64Prefix('-_8')]).toEqual([0xfb, 0xff]);
    expect([...decodeBase64Prefix('SG\r\nk=')]).toEqual([0x48, 0x69]);
  });
  it('stops at maxBytes', () => {
    expect(decodeBase64Prefix('QUFBQUFBQUFBQUFB', 4).length).toBe(4);
  });
});

describe('attachmentContentType', () => {
  it('prefers the declared mimeType', () => {
    expect(attachmentContentType({ mimeType: 'application/pdf', data: 'iVBORw0KGgo' })).toBe('application/pdf');
    expect(attachmentContentTypeFromBytes(text('%PDF-'), 'image/png')).toBe('image/png');
  });
  it('guesses when the mimeType is missing or blank', () => {
    expect(attachmentContentType({ data: 'iVBORw0KGgo' })).toBe('image/png');
    expect(attachmentContentType({ mimeType: '  ', data: 'JVBERi0' })).toBe('application/pdf');
    expect(attachmentContentType({ mimeType: null, data: null })).toBe('application/octet-stream');
    expect(attachmentContentTypeFromBytes(text('%PDF-'))).toBe('application/pdf');
    expect(attachmentContentTypeFromBytes(text('%PDF-'), '')).toBe('application/pdf');
  });
});

describe('isPreviewableDataUrl', () => {
  it.each([
    ['data:image/png;base64,iVBOR', true],
    ['data:image/svg+xml;base64,PHN2', true],
    ['DATA:IMAGE/JPEG;base64,/9j/', true],
    ['data:application/pdf;base64,JVBER', true],
    ['data:text/html;base64,PGh0bWw+', false],
    ['data:application/zip;base64,UEsDB', false],
    ['https://example.com/image.png', false],
    ['image/png', false],
    ['', false],
    [null, false],
  ])('%s → %s', (url, expected) => {
    expect(isPreviewableDataUrl(url)).toBe(expected);
  });
});
