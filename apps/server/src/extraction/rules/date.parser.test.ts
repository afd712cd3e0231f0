import { describe, expect, it } from 'vitest';
import { findDates, isIsoDate } from './date.parser';

const one = (s: string, order?: 'dmy' | 'mdy') => findDates(s, order)[0]?.iso ?? null;

describe('findDates across the seven languages', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['05.03.2024', '2024-03-05'],
    ['5.3.24', '2024-03-05'],
    ['05/03/2024', '2024-03-05'],
    ['05-03-2024', '2024-03-05'],
    ['March 5, 2024', '2024-03-05'],
    ['August 3 , 2014', '2014-08-03'],
    ['5 March 2024', '2024-03-05'],
    ['05-Mar-2024', '2024-03-05'],
    ['5. März 2024', '2024-03-05'],
    ['7. Mai 2014', '2014-05-07'],
    ['5 mars 2024', '2024-03-05'],
    ['1er août 2024', '2024-08-01'],
    ['02 Juillet 2015', '2015-07-02'],
    ['5 marzo 2024', '2024-03-05'],
    ['5 de marzo de 2024', '2024-03-05'],
    ['5 martie 2024', '2024-03-05'],
    ['5 maart 2024', '2024-03-05'],
    ['19 april 2014', '2014-04-19'],
    ['3 décembre 2023', '2023-12-03'],
    ['31/12/2017', '2017-12-31'],
  ])('%s → %s', (text, iso) => {
    expect(one(text)).toBe(iso);
  });

  it('uses the document order only for ambiguous numeric dates', () => {
    expect(one('04/03/2024', 'mdy')).toBe('2024-04-03');
    expect(one('04/03/2024', 'dmy')).toBe('2024-03-04');
    expect(one('03/20/2023', 'dmy')).toBe('2023-03-20');
    expect(findDates('03/20/2023')[0]?.order).toBe('mdy');
  });

  it('reads a four-digit year glued to the time (receipt OCR drops the space)', () => {
    expect(findDates('Datum 20.05.202014:57:42').map((d) => d.raw)).toEqual(['20.05.2020']);
    expect(one('6/10/201913:59', 'mdy')).toBe('2019-06-10');
    // A longer run of digits is not a date and time.
    expect(one('20.05.2020145')).toBeNull();
    expect(one('20.05.20201:5')).toBeNull();
  });

  it("reads a till's spaced '2023 03 20' only before its clock time", () => {
    expect(one('LF NM 0000004B5AF1  2023 03 20 12:58:29')).toBe('2023-03-20');
    // Figures spaced the same way without a time are codes, not a date.
    expect(one('Kortele 2023 03 20')).toBeNull();
  });

  it('rejects impossible dates and keeps several dates apart', () => {
    expect(one('31.02.2024')).toBeNull();
    expect(one('version 1.2.3')).toBeNull();
    expect(findDates('du 01/05/2024 au 31/05/2024').map((d) => d.iso)).toEqual(['2024-05-01', '2024-05-31']);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
  });

  it('reads Japanese era years and a month glued to its day', () => {
    expect(one('発行日 令和7年5月15日')).toBe('2025-05-15');
    expect(one('令和元年 5月 1日')).toBe('2019-05-01');
    expect(one('平成31年4月30日')).toBe('2019-04-30');
    expect(one('DATE: January20, 2003')).toBe('2003-01-20');
  });
});

describe('Russian and Ukrainian month names', () => {
  it.each([
    ['12 мая 2023 г.', '2023-05-12'],
    ['1 января 2024', '2024-01-01'],
    ['«28» сентября 2022 г.', '2022-09-28'],
    ['5 березня 2024 р.', '2024-03-05'],
    ['31 грудня 2023', '2023-12-31'],
  ])('%s → %s', (text, want) => {
    expect(one(text)).toBe(want);
  });
});

describe('codes that look like dates', () => {
  it("an article code glued to letters with a spaced or one-digit part ('HC03-7 - 15') is no date", () => {
    expect(findDates('HC03-7 - 15')).toEqual([]);
    expect(findDates('12-01-19 21:13 SHO1')[0]?.iso).toBe('2019-01-12');
  });

  it("the tail of a slashed invoice number ('FS/22/09/51': series, year, month, running number) is no date", () => {
    expect(findDates('VAT Invoice no. FS/22/09/51')).toEqual([]);
    expect(findDates('Date 22/09/51')[0]?.iso).toBe('2051-09-22');
  });
});

describe("OCR's comma for one dot of a dotted date", () => {
  it('reads day first with a four-digit year, and leaves amounts alone', () => {
    expect(findDates('Datum: 23.09,2021').map((d) => d.iso)).toEqual(['2021-09-23']);
    expect(findDates('Datum: 23,09.2021').map((d) => d.iso)).toEqual(['2021-09-23']);
    expect(findDates('Summe 1.234,2021')).toEqual([]);
    expect(findDates('12.34,5678')).toEqual([]);
  });
});
