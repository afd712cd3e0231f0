/** SPEC §2 month filter: the last 12 months including the current one, newest first. */

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export interface MonthOption {
  /** YYYY-MM */
  value: string;
  /** 'Month Year', e.g. 'November 2026' */
  label: string;
}

/** The options for `now`'s month and the 11 before it, in the local calendar of the given date. */
export function lastTwelveMonths(now: Date): MonthOption[] {
  const options: MonthOption[] = [];
  for (let back = 0; back < 12; back++) {
    const total = now.getFullYear() * 12 + now.getMonth() - back;
    const year = Math.floor(total / 12);
    const month = total % 12;
    options.push({ value: `${year}-${String(month + 1).padStart(2, '0')}`, label: `${MONTH_NAMES[month]} ${year}` });
  }
  return options;
}
