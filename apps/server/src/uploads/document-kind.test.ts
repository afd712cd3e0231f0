import { describe, expect, it } from 'vitest';
import { displayName, sniffDocument } from './document-kind';

describe('what an added file is, from its first bytes', () => {
  it.each([
    ['%PDF-1.7\n', 'pdf'],
    ['\xff\xd8\xff\xe0JFIF', 'jpeg'],
    ['\x89PNG\r\n\x1a\n....', 'png'],
    ['\0\0\0\x1cftypheic\0\0\0\0mif1', 'heic'],
    ['\0\0\0\x1cftypmif1\0\0\0\0heic', 'heic'],
    ['\0\0\0\x1cftypavif\0\0\0\0mif1', 'avif'],
    ['\xef\xbb\xbf<?xml version="1.0"?><Invoice/>', 'xml'],
    ['  <rsm:CrossIndustryInvoice xmlns:rsm="x">', 'xml'],
    ['Return-Path: <a@b.example>\r\nFrom: A <a@b.example>\r\nSubject: Invoice\r\n\r\nbody', 'eml'],
    ['Total: 12.00\nVAT: 2.00\n', 'other'],
    ['just some notes', 'other'],
    ['PK\x03\x04', 'other'],
  ])('%j is %s', (head, kind) => {
    expect(sniffDocument(Buffer.from(head, 'latin1')).kind).toBe(kind);
  });

  it('keeps only a clean last segment of a name for display', () => {
    expect(displayName('../../etc/passwd.pdf')).toBe('passwd.pdf');
    expect(displayName('C:\\Users\\me\\bill.pdf')).toBe('bill.pdf');
    expect(displayName('a\u202Egpj.pdf\n')).toBe('agpj.pdf');
    expect(displayName('')).toBe('file');
    expect([...displayName('x'.repeat(500))]).toHaveLength(200);
  });
});
