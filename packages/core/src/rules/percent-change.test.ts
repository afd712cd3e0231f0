import { describe, expect, it } from 'vitest';
import { formatPercentChange, percentChange, trendDirection } from './percent-change';

describe('percent change (SPEC §9)', () => {
  it.each([
    // current, previous, numeric, shown, trend
    [250, 0, 250, '+250', 'up'],
    [0, 0, 0, '+0', 'flat'],
    [150, 100, 50, '+50%', 'up'],
    [50, 100, -50, '-50%', 'down'],
    [100, 100, 0, '0%', 'flat'],
    [1, 3, -67, '-67%', 'down'],
    [2, 3, -33, '-33%', 'down'],
    [100.5, 100, 1, '+1%', 'up'], // 0.5% rounds to 1
    [99.6, 100, 0, '0%', 'flat'], // -0.4% rounds to 0
    [0, 80, -100, '-100%', 'down'],
    [1000, 1, 99900, '+99900%', 'up'],
    [-50, -100, 50, '+50%', 'up'],
  ])('current %s vs previous %s', (current, previous, numeric, shown, trend) => {
    expect(percentChange(current, previous)).toBe(numeric);
    expect(formatPercentChange(current, previous)).toBe(shown);
    expect(trendDirection(current, previous)).toBe(trend);
  });
});
