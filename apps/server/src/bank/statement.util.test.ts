import { describe, expect, it } from 'vitest';
import { decodeText, headText } from './statement.util';

describe('statement text decoding, the same on every Node', () => {
  it('reads Windows-1252 with its € and quotes (Node 20 would give C1 controls)', () => {
    const bytes = new Uint8Array(Buffer.from([0x80, 0x20, 0x93, 0x4f, 0x4b, 0x94, 0x20, 0xe9, 0x0a]));
    expect(decodeText(bytes)).toMatchObject({ text: '€ “OK” é\n', encoding: 'windows-1252' });
  });

  it('sniffs heads byte for byte (WHATWG latin1 is Windows-1252 on Node 22+)', () => {
    expect(headText(new Uint8Array([0x80, 0x9f, 0x41]))).toBe('\x80\x9fA');
  });
});
