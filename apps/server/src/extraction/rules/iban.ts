/** An IBAN's shape: country, check digits, account (no spaces, upper case). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** Whether an IBAN (no spaces, upper case) passes its ISO 13616 check digits (mod 97 = 1). */
export function ibanValid(iban: string): boolean {
  if (!IBAN_SHAPE.test(iban)) return false;
  const s = iban.slice(4) + iban.slice(0, 4);
  let r = 0;
  for (const ch of s) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) r = (r * 10 + Number(d)) % 97;
  }
  return r === 1;
}

/** The countries that issue IBANs (ISO 13616 registry). */
const IBAN_COUNTRIES = new Set(
  'AD AE AL AT AZ BA BE BG BH BI BR BY CH CR CY CZ DE DJ DK DO EE EG ES FI FK FO FR GB GE GI GL GR GT HR HU IE IL IQ IS IT JO KW KZ LB LC LI LT LU LV LY MC MD ME MK MN MR MT MU NI NL NO OM PK PL PS PT QA RO RS RU SA SC SD SE SI SK SM SO ST SV TL TN TR UA VA VG XK'.split(
    ' ',
  ),
);

/** Shaped like an IBAN of a country that issues them: a misread check digit (OCR) still makes it one. */
export function ibanShaped(token: string): boolean {
  return IBAN_SHAPE.test(token) && IBAN_COUNTRIES.has(token.slice(0, 2));
}
