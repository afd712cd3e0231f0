import { describe, expect, it } from 'vitest';
import { boundedText, storableJson, storableText } from './storable-text';

describe('storableText', () => {
  it('drops NUL and replaces lone surrogates, keeping pairs and everything else', () => {
    expect(storableText('invoice\u0000.pdf')).toBe('invoice.pdf');
    expect(storableText('a\uD800b\uDC00c')).toBe('a\uFFFDb\uFFFDc');
    expect(storableText('x\uD800')).toBe('x\uFFFD');
    expect(storableText('emoji 😀, tab\t, newline\n, é')).toBe('emoji 😀, tab\t, newline\n, é');
  });

  it('bounds the length without cutting a surrogate pair', () => {
    expect(boundedText('abcdef', 10)).toBe('abcdef');
    expect(boundedText('abcdef', 4)).toBe('abc…');
    expect(boundedText('ab😀def', 4)).toBe('ab…');
    expect(boundedText('\u0000'.repeat(10_000), 5)).toBe('');
  });

  it('cleans every string of a JSON value, keys too', () => {
    expect(storableJson({ 'k\u0000': ['a\u0000', { b: 'c\uDC00' }], n: 1, z: null })).toEqual({
      k: ['a', { b: 'c\uFFFD' }],
      n: 1,
      z: null,
    });
  });
});
