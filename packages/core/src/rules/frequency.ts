/**
 * SPEC §3 frequency labels, derived from a vendor's invoice dates.
 *
 * The rule: take the distinct valid calendar dates, sorted, and the gaps in days between neighbours. With fewer than
 * two dates there is no rhythm: One-time. Otherwise the median gap decides (the median, so one skipped or doubled
 * month does not change the label): 20–45 days is Monthly, 330–400 days is Yearly, anything else (weekly, quarterly,
 * irregular) is One-time, since the spec offers no other label.
 */
import { parseCalendarDate } from './dates';

export const FREQUENCIES = ['Monthly', 'Yearly', 'One-time'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const MONTHLY_GAP_DAYS = { min: 20, max: 45 };
const YEARLY_GAP_DAYS = { min: 330, max: 400 };

const dayNumber = (value: string): number | null => {
  const parts = parseCalendarDate(value);
  return parts ? Date.UTC(parts.year, parts.month - 1, parts.day) / 86_400_000 : null;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function deriveFrequency(dates: ReadonlyArray<string | null | undefined>): Frequency {
  const days = [
    ...new Set(dates.flatMap((date) => (date ? [dayNumber(date)] : [])).filter((d): d is number => d !== null)),
  ].sort((a, b) => a - b);
  if (days.length < 2) return 'One-time';
  const gaps = days.slice(1).map((day, i) => day - days[i]!);
  const gap = median(gaps);
  if (gap >= MONTHLY_GAP_DAYS.min && gap <= MONTHLY_GAP_DAYS.max) return 'Monthly';
  if (gap >= YEARLY_GAP_DAYS.min && gap <= YEARLY_GAP_DAYS.max) return 'Yearly';
  return 'One-time';
}
