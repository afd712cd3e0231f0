import { describe, expect, it } from 'vitest';
import { lastTwelveMonths } from './month-filter';

describe('lastTwelveMonths', () => {
  it('lists 12 months from the current one back, crossing the year', () => {
    const options = lastTwelveMonths(new Date(2026, 10, 22));
    expect(options).toHaveLength(12);
    expect(options[0]).toEqual({ value: '2026-11', label: 'November 2026' });
    expect(options[10]).toEqual({ value: '2026-01', label: 'January 2026' });
    expect(options[11]).toEqual({ value: '2025-12', label: 'December 2025' });
  });

  it.each([
    [new Date(2026, 0, 1), '2026-01', '2025-02'],
    [new Date(2026, 11, 31, 23, 59), '2026-12', '2026-01'],
    [new Date(2024, 2, 31), '2024-03', '2023-04'], // the 31st does not skip short months
  ])('%s: from %s to %s', (now, first, last) => {
    const options = lastTwelveMonths(now);
    expect(options[0]?.value).toBe(first);
    expect(options[11]?.value).toBe(last);
    expect(new Set(options.map((o) => o.value)).size).toBe(12);
  });
});
