import { describe, expect, it } from 'vitest';
import { deriveFrequency, FREQUENCIES } from './frequency';

describe('deriveFrequency', () => {
  it('offers the spec labels', () => {
    expect([...FREQUENCIES]).toEqual(['Monthly', 'Yearly', 'One-time']);
  });

  it.each([
    [[], 'One-time'],
    [['2026-03-01'], 'One-time'],
    [['2026-03-01', '2026-03-01'], 'One-time'], // the same date twice is one invoice date
    [['2026-01-05', '2026-02-05', '2026-03-05'], 'Monthly'],
    [['2026-03-05', '2026-01-05', '2026-02-05'], 'Monthly'], // order does not matter
    [['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'], 'Monthly'],
    [['2026-01-05', '2026-02-05', '2026-04-05', '2026-05-05'], 'Monthly'], // one skipped month
    [['2024-06-01', '2025-06-01', '2026-06-01'], 'Yearly'],
    [['2025-06-01', '2026-05-20'], 'Yearly'],
    [['2026-01-01', '2026-01-08', '2026-01-15'], 'One-time'], // weekly
    [['2026-01-01', '2026-04-01', '2026-07-01'], 'One-time'], // quarterly
    [['2020-01-01', '2026-01-01'], 'One-time'],
    [['2026-01-05', 'garbage', null, undefined, '2026-02-05'], 'Monthly'],
    [['Jan 5, 2026', '2026-02-05T10:00:00Z'], 'Monthly'],
  ])('%j → %s', (dates, expected) => {
    expect(deriveFrequency(dates)).toBe(expected);
  });
});
