import type { Line, PartyHints, RuleFields } from '../extraction.types';
import { findTotal } from './amount.rules';
import { findInvoiceDate } from './date.rules';
import { type Doc, prepareDoc } from './document';
import { findDocumentType } from './document-type.rules';
import { CURRENCY_LABEL } from './labels';
import { americanPage, currencyDecimals, findAmounts, findCurrencies, otherDollar, US_ADDRESS } from './money.parser';
import { findInvoiceNumber } from './number.rules';
import { findVendor } from './vendor.rules';

const INDIAN_TAX = /(?<![a-z])(?:gstin|igst|cgst|sgst|hsn\/sac|utgst)(?![a-z])/;

const LANG_CURRENCY: Record<string, string> = {
  de: 'EUR',
  fr: 'EUR',
  it: 'EUR',
  es: 'EUR',
  nl: 'EUR',
  ro: 'RON',
  vi: 'VND',
};

/**
 * Where a page prints no currency at all, the country decides it: a country named in an address, or a tax id only
 * one country issues (Argentina's CUIT, Brazil's CNPJ, India's GSTIN, Australia's ABN, a Swiss CHE number). Folded
 * text. Eurozone countries are listed too, so that an English invoice from Ireland or Finland is not left without one.
 */
const COUNTRY_CURRENCY: Array<[RegExp, string]> = [
  [/(?<![a-z])(?:schweiz|suisse|svizzera|switzerland|liechtenstein|che-\d{3}\.\d{3}\.\d{3})(?![a-z])/, 'CHF'],
  [/(?<![a-z])(?:argentina|cuit)(?![a-z])/, 'ARS'],
  [/(?<![a-z])(?:brasil|brazil|cnpj)(?![a-z])/, 'BRL'],
  [/(?<![a-z])(?:united kingdom|england|scotland|wales|northern ireland)(?![a-z])/, 'GBP'],
  // A British VAT number: nine digits, "GB" before them or nothing (other countries' VAT numbers carry their prefix).
  [
    /(?<![a-z])vat\s*(?:reg(?:istration)?\.?\s*)?(?:no|nr|number|reg)?\.?\s*:?\s*(?:gb\s?)?\d{3}\s?\d{4}\s?\d{2}(?![\d])/,
    'GBP',
  ],
  [/(?<![a-z])(?:united states|usa|u\.s\.a\.)(?![a-z])/, 'USD'],
  [/(?<![a-z])(?:polska|poland)(?![a-z])/, 'PLN'],
  [/(?<![a-z])(?:ceska republika|czech republic|czechia)(?![a-z])/, 'CZK'],
  [/(?<![a-z])(?:sverige|sweden)(?![a-z])/, 'SEK'],
  [/(?<![a-z])(?:danmark|denmark)(?![a-z])/, 'DKK'],
  [/(?<![a-z])(?:norge|norway)(?![a-z])/, 'NOK'],
  [/(?<![a-z])(?:india|gstin|cgst|sgst|igst|utgst)(?![a-z])/, 'INR'],
  [/(?<![a-z])(?:japan|nippon)(?![a-z])|日本/, 'JPY'],
  [/(?<![a-z])(?:mexico)(?![a-z])/, 'MXN'],
  [/(?<![a-z])(?:paraguay)(?![a-z])/, 'PYG'],
  [/(?<![a-z])(?:uruguay)(?![a-z])/, 'UYU'],
  [/(?<![a-z])(?:malaysia|kuala lumpur|selangor|sdn\.? bhd)(?![a-z])/, 'MYR'],
  [/(?<![a-z])(?:canada)(?![a-z])/, 'CAD'],
  [/(?<![a-z])(?:australia|abn)(?![a-z])/, 'AUD'],
  [/(?<![a-z])(?:romania)(?![a-z])/, 'RON'],
  [/(?<![a-z])(?:magyarorszag|hungary)(?![a-z])/, 'HUF'],
  [/(?<![a-z])(?:new zealand|aotearoa)(?![a-z])/, 'NZD'],
  [/(?<![a-z])(?:singapore)(?![a-z])/, 'SGD'],
  [/(?<![a-z])(?:hong kong)(?![a-z])/, 'HKD'],
  [/(?<![a-z])(?:south africa)(?![a-z])/, 'ZAR'],
  [/(?<![a-z])(?:colombia)(?![a-z])/, 'COP'],
  [/(?<![a-z])(?:chile)(?![a-z])/, 'CLP'],
  [/(?<![a-z])(?:indonesia)(?![a-z])/, 'IDR'],
  // A Turkish slip ("FİŞ NO", "KDV", "TOPLAM", "KASİYER"): two of its words.
  [
    /(?<![a-z])(?:fis no|kdv|toplam|kasiyer|topkdv|ettn)(?![a-z])(?:.*?(?<![a-z])(?:fis no|kdv|toplam|kasiyer|topkdv|ettn|tarih|saat)(?![a-z]))/s,
    'TRY',
  ],
  // An Indonesian slip names no country, but its words and taxes are the country's: two of them.
  [
    /(?<![a-z])(?:tanggal|struk|lunas|rupiah|npwp|ppn|pb1)(?![a-z])(?:.*?(?<![a-z])(?:tanggal|struk|lunas|rupiah|npwp|ppn|pb1|kembali|pelanggan|kasir)(?![a-z]))/s,
    'IDR',
  ],
  // The VAT payer's code as the Baltic states label it (Lithuanian "PVM mokėtojo kodas", Latvian "PVN maksātāja",
  // Estonian "KMKR nr"): all three pay in euro.
  [/(?<![a-z])(?:pvm moketojo kodas|pvn maksataja|pvn reg\.? ?nr|kmkr)(?![a-z])/, 'EUR'],
  [/(?<![a-z])(?:philippines|pilipinas)(?![a-z])/, 'PHP'],
  [/(?<![a-z])(?:thailand)(?![a-z])/, 'THB'],
  [/(?<![a-z])(?:nepal)(?![a-z])/, 'NPR'],
  [/(?<![a-z])(?:pakistan)(?![a-z])/, 'PKR'],
  [/(?<![a-z])(?:sri lanka)(?![a-z])/, 'LKR'],
  [/(?<![a-z])(?:turkiye|turkey)(?![a-z])/, 'TRY'],
  [/(?<![\p{L}])(?:россия|российская федерация|russia)(?![\p{L}])/u, 'RUB'],
  [/(?<![\p{L}])(?:украина|укра\u0456на|ukraine)(?![\p{L}])/u, 'UAH'],
  [/(?<![\p{L}])(?:беларусь|республика беларусь|belarus|минск|унп)(?![\p{L}])/u, 'BYN'],
  [/(?<![a-z])(?:united arab emirates|dubai|abu dhabi)(?![a-z])/, 'AED'],
  [/(?<![a-z])(?:saudi arabia)(?![a-z])/, 'SAR'],
  [/(?<![a-z])(?:israel)(?![a-z])/, 'ILS'],
  [
    /(?<![a-z])(?:deutschland|germany|osterreich|austria|france|italia|italy|espana|spain|nederland|netherlands|belgique|belgie|belgium|ireland|suomi|finland|portugal|luxembourg|eesti|latvija|lietuva|slovensko|slovenija|hrvatska|ellada|greece|malta|cyprus)(?![a-z])/,
    'EUR',
  ],
];

/**
 * "kr" (or "1 250:-") is the Danish and Norwegian krone and the Swedish krona alike: the page's words tell which
 * (Norway's "mva" and "forfallsdato", Denmark's CVR number and "forfaldsdato", Sweden's "förfallodatum", bankgiro and
 * "att betala"). Null when the page prints no krone or does not say which.
 */
export function nordicKrone(text: string, folded: string): string | null {
  // "97 003,00 kr", "kr 6 649,22", "Summa att betala kr      97003,00" (the sign after the label, the figure far right).
  if (!/\d(?:[.,][-–—]{1,2})?\s?kr\.?(?![\p{L}])|(?<![\p{L}])kr\.?\s*\d|\d:-(?!\d)/iu.test(text)) return null;
  const votes: Array<[RegExp, string]> = [
    [/(?<![a-z])(?:mva|forfallsdato|bel[oø]p|a betale|norge|norway|foretaksregisteret|kid)(?![a-z])/g, 'NOK'],
    [/(?<![a-z])(?:cvr|forfaldsdato|danmark|denmark|at betale|i alt at betale|betalingsdato)(?![a-z])/g, 'DKK'],
    [
      /(?<![a-z])(?:forfallodatum|bankgiro|plusgiro|att betala|sverige|sweden|momsreg\w*|totalt|kvitto|summa)(?![a-z])/g,
      'SEK',
    ],
  ];
  const scored = votes.map(([re, code]) => [code, folded.match(re)?.length ?? 0] as const).sort((a, b) => b[1] - a[1]);
  return scored[0]![1] > 0 && scored[0]![1] > scored[1]![1] ? scored[0]![0] : null;
}

/** Han characters without kana: Chinese, where "¥" and "元" are the yuan. */
function chineseText(text: string): boolean {
  const han = text.match(/[\u4e00-\u9fff]/g)?.length ?? 0;
  const kana = text.match(/[\u3040-\u30ff]/g)?.length ?? 0;
  return han >= 4 && kana === 0;
}

/** Whether `code` stands alone in a cell, and only on lines with no amount and no currency label. */
function strayCode(doc: Doc, code: string): boolean {
  const alone = doc.lines.flatMap((l, i) => (l.cells.some((c) => c.text.trim() === code) ? [i] : []));
  return (
    alone.length > 0 &&
    alone.every((i) => !findAmounts(doc.lines[i]!.text).length && !CURRENCY_LABEL.test(doc.folded[i]!.join(' ')))
  );
}

/** A North American phone number: "(717) 691-3150", "717-691-3150", "+1 717.691.3150". */
const NANP_PHONE =
  /(?<![\d+])(?:\+?1[\s.-]?)?(?:\(\s*[2-9]\d{2}\s*\)\s*|[2-9]\d{2}[-.])[2-9]\d{2}\s?[-.]\s?\d{4}(?!\d)/;

/** A code seen only on lines whose other cells are specks (at most two characters, no figure), one at least. */
function specksOnly(doc: Doc, code: string): boolean {
  const lines = doc.lines.filter((l) => l.cells.some((c) => c.text.trim() === code));
  return (
    lines.length > 0 &&
    lines.every(
      (l) => l.cells.length > 1 && l.cells.every((c) => c.text.trim() === code || !/[\p{L}\d]{3}|\d/u.test(c.text)),
    )
  );
}

const CURRENCY_LABEL_ALL = new RegExp(`${CURRENCY_LABEL.source}\\s*:?\\s*`, 'g');

/** Currencies named in words after a currency label ("Moneda: Guaraní", "Currency: US Dollars", "Moeda: Real"). */
const CURRENCY_NAMES: Array<[RegExp, string]> = [
  [/^guaranie?s?/, 'PYG'],
  [/^(?:us dollars?|dolar(?:es)? (?:americanos?|estadounidenses?)|u\.s\. dollars?)/, 'USD'],
  [/^euros?/, 'EUR'],
  [/^(?:reais|real(?:es)? brasileiros?|real)(?![a-z])/, 'BRL'],
  [/^pesos? (?:mexicanos?|mxn)/, 'MXN'],
  [/^pesos? (?:chilenos?)/, 'CLP'],
  [/^pesos? (?:colombianos?)/, 'COP'],
  [/^pesos? (?:argentinos?)/, 'ARS'],
  [/^pesos? (?:uruguayos?)/, 'UYU'],
  [/^(?:pounds? sterling|sterling|british pounds?)/, 'GBP'],
  [/^(?:swiss francs?|franken|francs? suisses?)/, 'CHF'],
  [/^(?:zloty|zlotych|zl)(?![a-z])/, 'PLN'],
  [/^(?:korun[ay]?|czech crowns?)(?![a-z])/, 'CZK'],
  [/^(?:turk lirasi|turkish lira|lira)(?![a-z])/, 'TRY'],
  [/^(?:rupees?|indian rupees?)(?![a-z])/, 'INR'],
  [/^(?:yen)(?![a-z])/, 'JPY'],
  [/^(?:yuan|renminbi|rmb)(?![a-z])/, 'CNY'],
  [/^(?:forint)(?![a-z])/, 'HUF'],
  [/^(?:lei|leu)(?![a-z])/, 'RON'],
  [/^(?:rand)(?![a-z])/, 'ZAR'],
];

/** The currency a label names in words, if any (folded text). */
export function declaredCurrencyName(folded: string): string | null {
  for (const m of folded.matchAll(CURRENCY_LABEL_ALL)) {
    const rest = folded.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 40);
    const hit = CURRENCY_NAMES.find(([re]) => re.test(rest));
    if (hit) return hit[1];
  }
  return null;
}

/** The one currency the countries named on the page agree on; null when none is named or they disagree. */
export function countryCurrency(folded: string): string | null {
  const found = new Set(COUNTRY_CURRENCY.filter(([re]) => re.test(folded)).map(([, c]) => c));
  return found.size === 1 ? [...found][0]! : null;
}

/** Runs every field rule over the lines of one document (text layer or OCR words). Pure; never throws on content. */
export function extractFieldsFromLines(lines: Line[], hints: PartyHints = {}): RuleFields {
  if (!lines.length) {
    return {
      vendor: null,
      amount: null,
      currency: null,
      invoice_date: null,
      invoice_number: null,
      document_type: null,
    };
  }
  const doc = prepareDoc(lines);
  // The currency of the country the page names, if one (several rules below fall back on it or weigh it).
  const local = countryCurrency(doc.foldedText);
  const invoiceNumber = findInvoiceNumber(doc);
  const total = findTotal(doc, { invoiceNumber: invoiceNumber?.value });
  let currency: RuleFields['currency'] = null;
  if (total?.value.currency) currency = { value: total.value.currency, confidence: 0.9 };
  else if (total) {
    const onLine = findCurrencies(doc.lines[total.value.lineIndex]!.text)[0];
    if (onLine) currency = { value: onLine, confidence: 0.85 };
  }
  // A currency without minor units (yen, won) next to a total printed with cents is a misread symbol (OCR takes "₹"
  // for "¥"): the page's other currency, when it names one, is meant.
  if (currency && total && currencyDecimals(currency.value) === 0 && total.value.printedDecimals > 0) {
    const other = [...doc.currencies.entries()]
      .filter(([c]) => c !== currency!.value && currencyDecimals(c) > 0)
      .sort((a, b) => b[1] - a[1])[0];
    if (other) currency = { value: other[0], confidence: 0.6 };
  }
  // "₹" read as "¥" on an Indian invoice (GSTIN, IGST/CGST/SGST): rupees.
  if (
    currency?.value === 'JPY' &&
    total &&
    total.value.printedDecimals > 0 &&
    INDIAN_TAX.test(doc.folded.flat().join(' '))
  ) {
    currency = { value: 'INR', confidence: 0.6 };
  }
  // The total printed again with its currency elsewhere ("SALE: $11.98" on the card slip above "TOTAL DUE 11.98"):
  // that currency, not one a stray sign elsewhere names ("1€" OCR made of a quantity).
  if (!currency && total) {
    const again = doc.lines
      .flatMap((l) => findAmounts(l.text))
      .find(
        (a) =>
          a.currency &&
          a.minor * 10 ** (total.value.decimals - a.decimals) === total.value.minor &&
          a.decimals <= total.value.decimals,
      );
    if (again?.currency) currency = { value: again.currency, confidence: 0.8 };
  }
  if (!currency && doc.currencies.size) {
    // Mentioned as often as another, the currency of the country the page names wins ("$09" OCR made of a table
    // number against "Amount(RM)" on a Malaysian receipt).
    const [code, n] = [...doc.currencies.entries()].sort(
      (a, b) => b[1] - a[1] || Number(b[0] === local) - Number(a[0] === local),
    )[0]!;
    // A code seen once on a page with a US address, and only as a stray word: OCR's reading of a logo ("TRY" made of
    // an outlined "INVOICE"), not the invoice's currency.
    const stray = n === 1 && code !== 'USD' && local === null && US_ADDRESS.test(doc.text) && strayCode(doc, code);
    // Or seen once among OCR's specks, with no word beside it ("| | EUR" read off a receipt's barcode): no currency
    // at all; the page's country or language may still tell one below.
    const speck = n === 1 && local === null && specksOnly(doc, code);
    if (!speck) currency = stray ? { value: 'USD', confidence: 0.4 } : { value: code, confidence: n > 1 ? 0.75 : 0.6 };
  }
  // A bare "$" is read as US dollars; on a Canadian invoice (a Canadian postcode or "Canada", nothing American) it is
  // the Canadian dollar.
  if (currency?.value === 'USD') {
    const other = otherDollar(doc.text, doc.foldedText);
    if (other) currency = { value: other, confidence: 0.6 };
  }
  // Roubles on a Belarusian page (Минск, its УНП tax number) are Belarusian roubles.
  if (currency?.value === 'RUB' && local === 'BYN') currency = { value: 'BYN', confidence: 0.6 };
  // "¥" on a Chinese page (Han characters, no kana) is the yuan.
  if ((currency?.value === 'JPY' || (!currency && /元/.test(doc.text))) && chineseText(doc.text))
    currency = { value: 'CNY', confidence: 0.6 };
  if (!currency) {
    const named = declaredCurrencyName(doc.foldedText);
    if (named) currency = { value: named, confidence: 0.7 };
  }
  if (!currency) {
    // An American page, or a North American phone number ("( 717 ) 691 - 3150") where nothing says Canada.
    const american = americanPage(doc.text, doc.foldedText) || NANP_PHONE.test(doc.text);
    // A US street address (a state and its ZIP code) outranks a country's name in the text ("SA New England IPA" on
    // a Las Vegas bar's bill).
    const dollar = () => otherDollar(doc.text, doc.foldedText) ?? 'USD';
    const byCountry = US_ADDRESS.test(doc.text) ? dollar() : (local ?? (american ? dollar() : null));
    if (byCountry) currency = { value: byCountry, confidence: 0.4 };
  }
  if (!currency) {
    const krone = nordicKrone(doc.text, doc.foldedText);
    if (krone) currency = { value: krone, confidence: 0.5 };
  }
  if (!currency && LANG_CURRENCY[doc.lang]) currency = { value: LANG_CURRENCY[doc.lang]!, confidence: 0.3 };

  let amount: RuleFields['amount'] = null;
  if (total) {
    let { minor, decimals } = total.value;
    const want = currencyDecimals(currency?.value);
    // Three figures after the separator in a currency without cents ("127,000" đồng, "44.900" rupiah) group
    // thousands, whatever the page's decimal sign.
    if (want === 0 && total.value.grouped !== undefined) {
      minor = total.value.grouped;
      decimals = 0;
    }
    if (want !== decimals) {
      minor = want > decimals ? minor * 10 ** (want - decimals) : Math.round(minor / 10 ** (decimals - want));
      decimals = want;
    }
    amount = { value: { minor, decimals }, confidence: total.confidence };
  }
  return {
    vendor: findVendor(doc, hints),
    amount,
    currency,
    invoice_date: findInvoiceDate(doc),
    invoice_number: invoiceNumber,
    document_type: findDocumentType(doc, { total: total !== null }),
  };
}
