import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size';

describe('formatFileSize (SPEC §9)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [1597, '1.5 KB'], // 1.559… is cut, not rounded
    [10_240, '10.0 KB'],
    [1_048_575, '1023.9 KB'],
    [1_048_576, '1.0 MB'],
    [1_572_864, '1.5 MB'],
    [5_300_000, '5.1 MB'],
    [1_073_741_824, '1024.0 MB'],
    [-1, '0 B'],
    [Number.NaN, '0 B'],
    [null, '0 B'],
    [undefined, '0 B'],
  ])('%s → %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });
});
