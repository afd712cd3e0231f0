/**
 * SPEC §9: the change between two amounts. If the previous value is 0 the result is plus the current value;
 * otherwise it is a rounded whole percent, with a + sign when positive.
 */

/** The numeric change: the current value itself when previous is 0, else the rounded whole percent. */
export function percentChange(current: number, previous: number): number {
  if (previous === 0) return current;
  // Dividing by the magnitude keeps the sign meaningful (growth is positive) should a previous value be negative.
  const change = Math.round(((current - previous) / Math.abs(previous)) * 100);
  // Math.round gives -0 for small falls (-0.4%); normalise it.
  return change === 0 ? 0 : change;
}

/** The change as shown: '+12%', '-5%', '0%'; with a previous value of 0, '+' and the current value ('+250'). */
export function formatPercentChange(current: number, previous: number): string {
  if (previous === 0) return `+${current}`;
  const change = percentChange(current, previous);
  return `${change > 0 ? '+' : ''}${change}%`;
}

/** Direction of the dashboard's trend arrow. */
export function trendDirection(current: number, previous: number): 'up' | 'down' | 'flat' {
  const change = percentChange(current, previous);
  return change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
}
