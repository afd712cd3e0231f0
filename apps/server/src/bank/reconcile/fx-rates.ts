/**
 * Offline exchange rates for comparing an invoice in one currency with a payment in another. Two sources, best first:
 *   1. rates the statement itself implies: card and transfer lines that state the original amount ("USD 120.00")
 *      next to the booked amount give the bank's own rate for that pair and period;
 *   2. the bundled table below: yearly averages of the ECB's euro foreign exchange reference rates (units of the
 *      currency per 1 EUR), rounded to about four significant digits. 2025 is an estimate from that year's monthly
 *      rates; years after the table use its last year. A yearly average can be off a given day's rate by a few per
 *      cent, and card schemes add 1–3 %: hence the wide FX tolerance in `reconcile.ts`, and an FX match needs text too.
 * Cross rates go through the euro. No network, ever: the matcher must run the same on every machine.
 */

const ECB_YEARLY: Readonly<Record<string, Readonly<Record<number, number>>>> = {
  USD: { 2019: 1.1195, 2020: 1.1422, 2021: 1.1827, 2022: 1.053, 2023: 1.0813, 2024: 1.0824, 2025: 1.13 },
  GBP: { 2019: 0.8778, 2020: 0.8897, 2021: 0.8596, 2022: 0.8528, 2023: 0.8698, 2024: 0.8466, 2025: 0.857 },
  CHF: { 2019: 1.1124, 2020: 1.0705, 2021: 1.0811, 2022: 1.0047, 2023: 0.9718, 2024: 0.9526, 2025: 0.937 },
  JPY: { 2019: 122.01, 2020: 121.85, 2021: 129.88, 2022: 138.03, 2023: 151.99, 2024: 163.85, 2025: 169 },
  PLN: { 2019: 4.2976, 2020: 4.443, 2021: 4.5652, 2022: 4.6861, 2023: 4.542, 2024: 4.3058, 2025: 4.24 },
  RON: { 2019: 4.7453, 2020: 4.8383, 2021: 4.9215, 2022: 4.9313, 2023: 4.9467, 2024: 4.9746, 2025: 5.04 },
  SEK: { 2019: 10.589, 2020: 10.485, 2021: 10.147, 2022: 10.63, 2023: 11.479, 2024: 11.433, 2025: 11.0 },
  DKK: { 2019: 7.4661, 2020: 7.4542, 2021: 7.437, 2022: 7.4396, 2023: 7.4509, 2024: 7.4589, 2025: 7.46 },
  NOK: { 2019: 9.8511, 2020: 10.723, 2021: 10.163, 2022: 10.103, 2023: 11.425, 2024: 11.629, 2025: 11.7 },
  CZK: { 2019: 25.67, 2020: 26.455, 2021: 25.64, 2022: 24.566, 2023: 24.004, 2024: 25.12, 2025: 24.9 },
  HUF: { 2019: 325.3, 2020: 351.25, 2021: 358.52, 2022: 391.29, 2023: 381.85, 2024: 395.3, 2025: 400 },
  CAD: { 2019: 1.4855, 2020: 1.53, 2021: 1.4826, 2022: 1.3695, 2023: 1.4595, 2024: 1.4821, 2025: 1.57 },
  AUD: { 2019: 1.6109, 2020: 1.6549, 2021: 1.5749, 2022: 1.5167, 2023: 1.6288, 2024: 1.6397, 2025: 1.75 },
};

export const FX_TABLE_SOURCE = 'ECB reference rate, yearly average';

/** Units of `currency` per 1 EUR in `year` from the bundled table, or null for a currency it does not know. */
function perEuro(currency: string, year: number): number | null {
  if (currency === 'EUR') return 1;
  const years = ECB_YEARLY[currency];
  if (!years) return null;
  const known = Object.keys(years).map(Number);
  const nearest = Math.min(Math.max(year, Math.min(...known)), Math.max(...known));
  return years[nearest] ?? null;
}

/** How many units of `to` one unit of `from` buys in the year of `date` (YYYY-MM-DD), from the table; null if unknown. */
const tableCache = new Map<string, number | null>();

export function tableRate(from: string, to: string, date: string): number | null {
  const year = Number(date.slice(0, 4)) || new Date().getUTCFullYear();
  const key = `${from}>${to}>${year}`;
  const cached = tableCache.get(key);
  if (cached !== undefined) return cached;
  const rate = tableRateOfYear(from, to, year);
  tableCache.set(key, rate);
  return rate;
}

function tableRateOfYear(from: string, to: string, year: number): number | null {
  const a = perEuro(from, year);
  const b = perEuro(to, year);
  return a === null || b === null ? null : b / a;
}

/** How close in time a statement's own rate must be to be used: rates move, a year-old card rate says little. */
const IMPLIED_WINDOW_DAYS = 45;

/** Rates one statement implies, per "FROM>TO" pair: the median of its lines within IMPLIED_WINDOW_DAYS that state both amounts. */
export class ImpliedRates {
  private readonly samples = new Map<string, Array<{ day: number; rate: number }>>();

  add(from: string, to: string, rate: number, day: number): void {
    if (!(rate > 0) || from === to) return;
    this.cache.clear();
    for (const [key, value] of [
      [`${from}>${to}`, rate],
      [`${to}>${from}`, 1 / rate],
    ] as const) {
      const list = this.samples.get(key) ?? [];
      list.push({ day, rate: value });
      this.samples.set(key, list);
    }
  }

  private readonly cache = new Map<string, number | null>();

  get(from: string, to: string, day: number): number | null {
    const key = `${from}>${to}>${day}`;
    let rate = this.cache.get(key);
    if (rate === undefined) {
      rate = this.median(from, to, day);
      this.cache.set(key, rate);
    }
    return rate;
  }

  private median(from: string, to: string, day: number): number | null {
    const list = this.samples.get(`${from}>${to}`);
    if (!list) return null;
    const near = list
      .filter((s) => Math.abs(s.day - day) <= IMPLIED_WINDOW_DAYS)
      .map((s) => s.rate)
      .sort((x, y) => x - y);
    return near.length > 0 ? near[Math.floor(near.length / 2)]! : null;
  }
}
