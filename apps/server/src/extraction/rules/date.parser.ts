/**
 * Calendar dates as printed on invoices in English, German, French, Italian, Spanish, Romanian and Dutch:
 * 2024-03-05, 05.03.2024, 05/03/2024 (or US 03/05/2024), 5. März 2024, 5 mars 2024, 5 de marzo de 2024,
 * March 5, 2024, 05-Mar-2024, 5 martie 2024, 5 maart 2024, with two-digit years. Output is always YYYY-MM-DD.
 */

const MONTHS: Record<string, number> = {};
function addMonths(names: string[][]) {
  names.forEach((aliases, i) => {
    for (const a of aliases) MONTHS[fold(a)] = i + 1;
  });
}
// Full names and common abbreviations; accents are matched after folding (see fold()).
addMonths([
  [
    'january',
    'jan',
    'januar',
    'janvier',
    'janv',
    'gennaio',
    'gen',
    'enero',
    'ene',
    'ianuarie',
    'ian',
    'januari',
    'jänner',
    'janner',
  ],
  ['february', 'feb', 'februar', 'fevrier', 'fevr', 'fev', 'febbraio', 'febrero', 'februarie', 'februari'],
  ['march', 'mar', 'marz', 'maerz', 'mars', 'marzo', 'martie', 'maart', 'mrt', 'mrz'],
  ['april', 'apr', 'avril', 'avr', 'aprile', 'abril', 'abr', 'aprilie'],
  ['may', 'mai', 'maggio', 'mag', 'mayo', 'may', 'mei'],
  ['june', 'jun', 'juni', 'juin', 'giugno', 'giu', 'junio', 'iunie', 'iun'],
  ['july', 'jul', 'juli', 'juillet', 'juil', 'luglio', 'lug', 'julio', 'iulie', 'iul'],
  ['august', 'aug', 'aout', 'agosto', 'ago', 'augustus'],
  ['september', 'sep', 'sept', 'septembre', 'settembre', 'set', 'septiembre', 'septembrie'],
  ['october', 'oct', 'oktober', 'okt', 'octobre', 'ottobre', 'ott', 'octubre', 'octombrie'],
  ['november', 'nov', 'novembre', 'noviembre', 'noiembrie', 'noi'],
  ['december', 'dec', 'dezember', 'dez', 'decembre', 'dicembre', 'dic', 'diciembre', 'decembrie'],
]);
// Portuguese, Hungarian, Polish and Czech (in the genitive their dates use), Finnish (partitive and nominative),
// Swedish, Danish and Norwegian: folded, as fold() leaves them ("março" → "marco", "października" → "pazdziernika").
addMonths([
  ['janeiro', 'januar', 'stycznia', 'styczen', 'ledna', 'leden', 'tammikuuta', 'tammikuu'],
  ['fevereiro', 'fev', 'februar', 'lutego', 'luty', 'unora', 'unor', 'helmikuuta', 'helmikuu', 'febr'],
  ['marco', 'marcius', 'marca', 'marzec', 'brezna', 'brezen', 'maaliskuuta', 'maaliskuu', 'marts'],
  ['abril', 'aprilis', 'kwietnia', 'kwiecien', 'dubna', 'duben', 'huhtikuuta', 'huhtikuu'],
  ['maio', 'majus', 'maja', 'maj', 'kvetna', 'kveten', 'toukokuuta', 'toukokuu'],
  ['junho', 'junius', 'czerwca', 'czerwiec', 'cervna', 'cerven', 'kesakuuta', 'kesakuu'],
  ['julho', 'julius', 'lipca', 'lipiec', 'cervence', 'cervenec', 'heinakuuta', 'heinakuu'],
  ['agosto', 'augusztus', 'sierpnia', 'sierpien', 'srpna', 'srpen', 'elokuuta', 'elokuu', 'augusti'],
  ['setembro', 'szeptember', 'wrzesnia', 'wrzesien', 'zari', 'syyskuuta', 'syyskuu', 'szept'],
  ['outubro', 'out', 'oktober', 'pazdziernika', 'pazdziernik', 'rijna', 'rijen', 'lokakuuta', 'lokakuu'],
  ['novembro', 'november', 'listopada', 'listopad', 'listopadu', 'marraskuuta', 'marraskuu'],
  ['dezembro', 'december', 'grudnia', 'grudzien', 'prosince', 'prosinec', 'joulukuuta', 'joulukuu', 'desember'],
]);
// Russian and Ukrainian, in the genitive their dates use ("12 мая 2023 г.", "5 березня 2024 р.") and the nominative.
addMonths([
  ['января', 'январь', 'янв', 'січня', 'січень'],
  ['февраля', 'февраль', 'фев', 'лютого', 'лютий'],
  ['марта', 'март', 'березня', 'березень'],
  ['апреля', 'апрель', 'апр', 'квітня', 'квітень'],
  ['мая', 'май', 'травня', 'травень'],
  ['июня', 'июнь', 'июн', 'червня', 'червень'],
  ['июля', 'июль', 'июл', 'липня', 'липень'],
  ['августа', 'август', 'авг', 'серпня', 'серпень'],
  ['сентября', 'сентябрь', 'сент', 'вересня', 'вересень'],
  ['октября', 'октябрь', 'окт', 'жовтня', 'жовтень'],
  ['ноября', 'ноябрь', 'листопада', 'листопад'],
  ['декабря', 'декабрь', 'дек', 'грудня', 'грудень'],
]);

/** Lower-case and strip diacritics so "März", "août", "décembre" match. */
export function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export type DayOrder = 'dmy' | 'mdy';

export interface FoundDate {
  iso: string;
  index: number;
  length: number;
  raw: string;
  /** True when day and month could both be ≤ 12 and the order decided it. */
  ambiguous: boolean;
  /** Numeric a/b/yyyy pattern with a known order (first > 12 → dmy, second > 12 → mdy). */
  order?: DayOrder;
  /** Read through an OCR slip ("23.09,2021"): weaker than a date printed whole. */
  garbled?: boolean;
}

function iso(y: number, m: number, d: number): string | null {
  if (y < 100) y += y >= 70 ? 1900 : 2000;
  if (y < 1970 || y > 2100 || m < 1 || m > 12 || d < 1) return null;
  const dim = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > dim) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const MONTH_WORD = String.raw`\p{L}{3,12}\.?`;
const PATTERNS: Array<{ re: RegExp; kind: 'ymd' | 'era' | 'num' | 'dmyOcr' | 'dMy' | 'Mdy' | 'yMd' }> = [
  { re: /(?<!\d)(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?!\d)/g, kind: 'ymd' },
  // Hungarian "2008. 10. 17." (year, month and day each closed by a dot and a space).
  { re: /(?<![\d.])(\d{4})\. (\d{1,2})\. (\d{1,2})\.(?!\d)/g, kind: 'ymd' },
  // A till's "2023 03 20 12:58:29" (Lithuania's slips): year, month and day spaced, only right before the time.
  { re: /(?<![\d.,])(\d{4}) (\d{2}) (\d{2})(?=\s+\d{1,2}:\d{2}(?!\d))/g, kind: 'ymd' },
  // Japanese and Chinese "2025年12月5日", Korean "2025년 12월 5일" (spaces between the parts as some PDFs print them).
  { re: /(?<!\d)(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]/g, kind: 'ymd' },
  // A Japanese era year: "令和7年5月15日" (Reiwa 7 is 2025, its first year 元年), "平成31年4月30日" (Heisei).
  { re: /(令和|平成)\s*(\d{1,2}|元)\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/g, kind: 'era' },
  // A four-digit year may run straight into the time (receipt OCR drops the space: "20.05.202014:57").
  // Not the tail of a slashed identifier ("FS/22/09/51", an invoice series, its year and month and running number).
  {
    re: /(?<![\d.,])(?<![A-Za-z]\/)(\d{1,2})\s?([./-])\s?(\d{1,2})\s?\2\s?(\d{4}(?=\d{1,2}:\d{2}(?!\d))|(?:\d{4}|\d{2})(?![\d,]|\.\d))/g,
    kind: 'num',
  },
  // OCR reads one dot of a dotted date as a comma ("23.09,2021", "23,09.2021"): day first, a four-digit year.
  { re: /(?<![\d.,])(\d{1,2})(?:\.,?|,\.?)(\d{2})(?:\.,?|,\.?)(\d{4})(?![\d,]|\.\d)/g, kind: 'dmyOcr' },
  {
    re: new RegExp(
      String.raw`(?<!\d)(\d{1,2})(?:st|nd|rd|th|er|\.|º|°|»|")?[\s-]*(?:de\s+)?(${MONTH_WORD})[\s,-]*(?:de\s+|del\s+)?(\d{4}|'?\d{2})(?!\d)`,
      'gu',
    ),
    kind: 'dMy',
  },
  {
    // The day may stick to the month ("January20, 2003", a typing slip some invoices carry); a till's clock may stand
    // between the day and the year ("Mon Jan 29 13:24:15 2018").
    re: new RegExp(
      String.raw`(?<![\p{L}])(${MONTH_WORD})\s*(\d{1,2})(?:st|nd|rd|th)?(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?\s*,?\s*(\d{4})(?!\d)`,
      'gu',
    ),
    kind: 'Mdy',
  },
  // Hungarian "2021. május 15." (the year first, closed by a dot; the month in words).
  { re: new RegExp(String.raw`(?<![\d.])(\d{4})\.\s+(${MONTH_WORD})\s+(\d{1,2})\.?(?!\d)`, 'gu'), kind: 'yMd' },
];

/**
 * All dates in a text. `order` settles a/b/yyyy when both parts are ≤ 12 (US documents write month first).
 */
export function findDates(text: string, order: DayOrder = 'dmy'): FoundDate[] {
  const out: FoundDate[] = [];
  const taken: Array<[number, number]> = [];
  const overlaps = (a: number, b: number) => taken.some(([s, e]) => a < e && b > s);
  for (const { re, kind } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (overlaps(start, end)) continue;
      let value: string | null = null;
      let ambiguous = false;
      let known: DayOrder | undefined;
      if (kind === 'ymd') value = iso(Number(m[1]), Number(m[2]), Number(m[3]));
      else if (kind === 'era') {
        const year = m[2] === '元' ? 1 : Number(m[2]);
        value = iso((m[1] === '令和' ? 2018 : 1988) + year, Number(m[3]), Number(m[4]));
      } else if (kind === 'num') {
        // Inside an article code ("HC03-7 - 15"): glued to letters and spaced or with a one-digit part, no date.
        if (/\p{L}/u.test(text[start - 1] ?? '') && (/\s/.test(m[0]) || m[1]!.length === 1 || m[3]!.length === 1))
          continue;
        const a = Number(m[1]);
        const b = Number(m[3]);
        const y = Number(m[4]);
        if (a > 12 && b <= 12) {
          value = iso(y, b, a);
          known = 'dmy';
        } else if (b > 12 && a <= 12) {
          value = iso(y, a, b);
          known = 'mdy';
        } else if (m[2] === '.') {
          // Dotted numeric dates are day first in every locale that writes them (de, ro, nl, it, fr …).
          value = iso(y, b, a);
        } else {
          ambiguous = a !== b;
          value = order === 'mdy' ? iso(y, a, b) : iso(y, b, a);
        }
      } else if (kind === 'dmyOcr') {
        if (!m[0].includes(',')) continue;
        value = iso(Number(m[3]), Number(m[2]), Number(m[1]));
      } else if (kind === 'dMy') {
        const mon = MONTHS[fold(m[2]!).replace(/\.$/, '')];
        if (mon) value = iso(Number(m[3]!.replace("'", '')), mon, Number(m[1]));
      } else if (kind === 'yMd') {
        const mon = MONTHS[fold(m[2]!).replace(/\.$/, '')];
        if (mon) value = iso(Number(m[1]), mon, Number(m[3]));
      } else {
        const mon = MONTHS[fold(m[1]!).replace(/\.$/, '')];
        if (mon) value = iso(Number(m[3]), mon, Number(m[2]));
      }
      if (!value) continue;
      taken.push([start, end]);
      out.push({
        iso: value,
        index: start,
        length: m[0].length,
        raw: m[0],
        ambiguous,
        ...(known ? { order: known } : {}),
        ...(kind === 'dmyOcr' ? { garbled: true } : {}),
      });
    }
  }
  return out.sort((x, y) => x.index - y.index);
}

/** True when the text is a valid calendar date string YYYY-MM-DD. */
/** The month a month word names (any supported language, folded, with or without its dot), or null. */
export function monthNumber(word: string): number | null {
  return MONTHS[fold(word).replace(/\.$/, '')] ?? null;
}

export function isIsoDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return !!m && iso(Number(m[1]), Number(m[2]), Number(m[3])) === s;
}
