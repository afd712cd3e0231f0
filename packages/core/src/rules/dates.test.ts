import { describe, expect, it } from 'vitest';
import { formatShortUsDate, parseCalendarDate, toIsoDate } from './dates';

describe('formatShortUsDate', () => {
  it.each([
    ['2026-11-05', '11/05/2026'],
    ['2026-01-01', '01/01/2026'], // no shift to 12/31 west of UTC
    ['2026-12-31T23:30:00Z', '12/31/2026'], // the written date, not the local one
    ['2026-12-31T23:30:00-08:00', '12/31/2026'],
    ['2024-02-29', '02/29/2024'],
    ['2023-02-29', '2023-02-29'], // not a date: shown as written
    ['Nov 5, 2026', '11/05/2026'],
    ['November 5, 2026', '11/05/2026'],
    ['garbage', 'garbage'],
    ['', ''],
    [null, ''],
    [undefined, ''],
  ])('%s → %s', (value, expected) => {
    expect(formatShortUsDate(value)).toBe(expected);
  });
});

describe('parseCalendarDate / toIsoDate', () => {
  it('reads the parts of an ISO date as written', () => {
    expect(parseCalendarDate('1999-07-04')).toEqual({ year: 1999, month: 7, day: 4 });
    expect(parseCalendarDate('2026-13-01')).toBeNull();
  });
  it.each([
    ['2026-11-05', '2026-11-05'],
    ['Nov 5, 2026', '2026-11-05'],
    ['2026-11-05T00:00:00Z', '2026-11-05'],
    ['nope', null],
    [null, null],
  ])('%s → %s', (value, expected) => {
    expect(toIsoDate(value)).toBe(expected);
  });
});
