/**
 * Invoice dates are YYYY-MM-DD (or, from older records, any date string). They are shown in the short US format
 * MM/DD/YYYY without a timezone shift: a calendar date is never turned into an instant.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

const pad = (value: number) => String(value).padStart(2, '0');

/** Calendar parts of a date string, or null when it is not a date. A leading YYYY-MM-DD is read as written. */
export function parseCalendarDate(value: string): { year: number; month: number; day: number } | null {
  const iso = ISO_DATE.exec(value.trim());
  if (iso) {
    const year = Number(iso[1]);
    const month = Number(iso[2]);
    const day = Number(iso[3]);
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
    return { year, month, day };
  }
  // Other strings ('Nov 5, 2026', '11/05/2026') parse as local dates, so the local parts are the written ones.
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) return null;
  return { year: parsed.getFullYear(), month: parsed.getMonth() + 1, day: parsed.getDate() };
}

/** '2026-11-05' → '11/05/2026'; an unreadable value is returned unchanged, an empty one as ''. */
export function formatShortUsDate(value: string | null | undefined): string {
  if (!value) return '';
  const parts = parseCalendarDate(value);
  if (!parts) return value;
  return `${pad(parts.month)}/${pad(parts.day)}/${parts.year}`;
}

/** A calendar date as YYYY-MM-DD, or null. */
export function toIsoDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const parts = parseCalendarDate(value);
  return parts ? `${parts.year}-${pad(parts.month)}-${pad(parts.day)}` : null;
}
