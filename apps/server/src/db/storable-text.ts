/**
 * Text PostgreSQL always accepts. A `text` column refuses NUL (22021), `jsonb` refuses `\u0000` (22P05) and a lone
 * surrogate escape (22P02); node-postgres sends a lone surrogate in plain text as U+FFFD, but JSON.stringify keeps it
 * escaped. Everything that comes from a mail (or from an error about one) goes through here before it is stored.
 */

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Drops NUL and replaces lone surrogates with U+FFFD; everything else is kept as it is. */
export function storableText(value: string): string {
  let text = value;
  if (text.includes('\u0000')) text = text.replaceAll('\u0000', '');
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

export function storableOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : storableText(value);
}

/** storableText, then cut to `maxLength` characters (never in the middle of a surrogate pair) with an ellipsis. */
export function boundedText(value: string, maxLength: number): string {
  const text = storableText(value);
  if (text.length <= maxLength) return text;
  let end = Math.max(0, maxLength - 1);
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** A copy of a JSON-like value whose strings (keys too) are storable: for `jsonb` columns. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item) => storableJson(item)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [storableText(key), storableJson(item)]),
    ) as T;
  }
  return value;
}
