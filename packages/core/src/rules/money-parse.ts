/**
 * The project's one parser of printed amounts (moved here from the server's extraction rules so that the web app and
 * the server read an amount string alike). Number styles: 1,234.56 / 1.234,56 / 1 234,56 / 1'234.56 / the Indian
 * lakh grouping 1,23,456.78 (and 1234.56, 1234,56, -12.00, (12.00), 12.00-). Pure: no I/O, no dependencies.
 */

/** Groups of thousands with `sep` ("1,234,567"), or the lakh grouping when `sep` is a comma ("12,34,567"). */
function groupedInteger(text: string, sep: '.' | ','): boolean {
  if (new RegExp(`^\\d{1,3}(\\${sep}\\d{3})*$`).test(text)) return true;
  return sep === ',' && /^\d{1,2}(,\d{2})+,\d{3}$/.test(text);
}

/**
 * Parses one number as printed ("1.234,56", "1 234,56", "1'234.56", "-12", "(5.00)") into minor units of `decimals`
 * places. Returns null for anything that is not a plain amount. A single separator followed by exactly three digits is
 * read as a thousands separator unless `decimalHint` says otherwise.
 */
export function parseAmount(
  input: string,
  decimals = 2,
  decimalHint?: '.' | ',',
): { minor: number; printedDecimals: number; negative: boolean } | null {
  let s = input.trim();
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (/^[-−–]/.test(s)) {
    negative = true;
    s = s.slice(1).trim();
  } else if (/^\+/.test(s)) s = s.slice(1).trim();
  if (/[-−]$/.test(s)) {
    negative = true;
    s = s.slice(0, -1).trim();
  }
  // Grouping spaces (incl. no-break and narrow no-break) and apostrophes.
  s = s.replace(/[\s\u00a0\u202f\u2009]/g, ' ');
  if (!/^\d[\d ',.’]*$/.test(s)) return null;
  if (/\d \d/.test(s) && !/^\d{1,3}( \d{3})+([.,]\d+)?$/.test(s)) return null;
  s = s.replace(/ /g, '');
  if (/['’]/.test(s)) {
    if (!/^\d{1,3}(['’]\d{3})+([.,]\d+)?$/.test(s)) return null;
    s = s.replace(/['’]/g, '');
  }
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let intPart: string;
  let fracPart = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const group = dec === '.' ? ',' : '.';
    const [i, f] = [s.slice(0, s.lastIndexOf(dec)), s.slice(s.lastIndexOf(dec) + 1)];
    if (f.includes(group) || f.includes(dec)) return null;
    if (!groupedInteger(i, group)) return null;
    intPart = i.split(group).join('');
    fracPart = f;
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = s.split(sep);
    if (parts.length > 2) {
      if (!groupedInteger(s, sep)) return null;
      intPart = parts.join('');
    } else {
      const [i, f] = parts as [string, string];
      const asDecimal = f.length !== 3 || decimalHint === sep || (decimals === 3 && decimalHint !== undefined);
      if (f.length === 0) return null;
      if (asDecimal) {
        intPart = i;
        fracPart = f;
      } else {
        if (i.length > 3 || i.length === 0) {
          intPart = i;
          fracPart = f;
        } else intPart = i + f;
      }
    }
  } else {
    intPart = s;
  }
  if (!/^\d+$/.test(intPart) || !/^\d*$/.test(fracPart)) return null;
  if (intPart.length > 13) return null;
  const printedDecimals = fracPart.length;
  // Round half up to the currency's decimals, on digit strings.
  const padded = (fracPart + '0'.repeat(decimals + 1)).slice(0, decimals + 1);
  let minor = Number(intPart) * 10 ** decimals + Number(padded.slice(0, decimals) || '0');
  if (Number(padded.slice(decimals, decimals + 1)) >= 5 && fracPart.length > decimals) minor += 1;
  if (!Number.isSafeInteger(minor)) return null;
  return { minor: negative ? -minor : minor, printedDecimals, negative };
}
