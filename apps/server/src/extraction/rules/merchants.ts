import { editDistance } from './document';

/**
 * Chains whose receipts people keep: supermarkets, discounters, drugstores, DIY and electronics stores, fuel
 * stations, fast food and coffee, department stores and pharmacies of the countries whose languages the rules read.
 * A till slip prints the chain's name as a logo; OCR reads a logo poorly ("LDL", "L$DL" for LIDL, "Cosreo" for
 * COSTCO), and a name the rules cannot place as a company's (no legal form, no label) loses to an address line. A
 * line at the top or the foot of the slip that is, within OCR's slips, one of these names, names the vendor.
 * Canonical spelling as the chain writes itself; the matching key is the name without spaces and punctuation.
 */
const CHAINS = [
  // Germany, Austria, Switzerland.
  'Lidl',
  'Aldi',
  'Aldi Süd',
  'Aldi Nord',
  'Hofer',
  'Rewe',
  'Edeka',
  'Kaufland',
  'Penny',
  'Netto Marken-Discount',
  'Norma',
  'Globus',
  'Marktkauf',
  'Tegut',
  'Famila',
  'Combi',
  'Real',
  'Rossmann',
  'Müller',
  'Budni',
  'Denn’s Biomarkt',
  'Alnatura',
  'Bio Company',
  'Obi',
  'Hornbach',
  'Bauhaus',
  'Toom Baumarkt|toom',
  'Hagebaumarkt',
  'Globus Baumarkt',
  'MediaMarkt|Media Markt',
  'Saturn',
  'Expert',
  'Euronics',
  'Conrad',
  'Ikea',
  'Action',
  'Tedi',
  'Kik',
  'Woolworth',
  'Deichmann',
  'Thalia',
  'Tchibo',
  'Spar',
  'Eurospar',
  'Interspar',
  'Billa',
  'Merkur',
  'Migros',
  'Coop',
  'Denner',
  'Volg',
  'Manor',
  'Jet Tankstelle',
  'Aral',
  'Esso',
  'Shell',
  'TotalEnergies',
  'Agip',
  'Avia',
  'OMV',
  'Westfalen',
  'Orlen',
  'Dean & David',
  'Nordsee',
  'Vapiano',
  'Dm-drogerie markt',
  // United Kingdom and Ireland.
  'Tesco',
  'Sainsbury’s',
  'Asda',
  'Morrisons',
  'Waitrose',
  'Marks & Spencer',
  'Co-op',
  'Iceland',
  'Boots',
  'Superdrug',
  'Argos',
  'Currys',
  'B&Q',
  'Wickes',
  'Screwfix',
  'Primark',
  'Greggs',
  'Pret A Manger',
  'Costa Coffee',
  'Dunnes Stores',
  'SuperValu',
  'Centra',
  'Londis',
  'Poundland',
  'Wilko',
  'John Lewis',
  // North America.
  'Walmart',
  'Target',
  'Costco Wholesale|Costco',
  'Kroger',
  'Safeway',
  'Albertsons',
  'Publix',
  'Whole Foods Market|Whole Foods',
  'Trader Joe’s',
  'Wegmans',
  'Meijer',
  'H-E-B',
  'Food Lion',
  'Giant Eagle',
  'Stop & Shop',
  'Hy-Vee',
  'ShopRite',
  'Walgreens',
  'CVS Pharmacy',
  'Rite Aid',
  'Home Depot',
  'Lowe’s',
  'Best Buy',
  'Staples',
  'Office Depot',
  'Dollar Tree',
  'Dollar General',
  'Family Dollar',
  'Sam’s Club',
  'Loblaws',
  'No Frills',
  'Sobeys',
  'Metro',
  'Shoppers Drug Mart',
  'Canadian Tire',
  'Save-On-Foods',
  'Real Canadian Superstore',
  'T&T Supermarket',
  "McDonald's",
  'Starbucks',
  'Subway',
  'Burger King',
  'Wendy’s',
  'Taco Bell',
  'Chipotle',
  'Dunkin’',
  'Tim Hortons',
  'Panera Bread',
  'Chick-fil-A',
  'Domino’s',
  'Pizza Hut',
  'KFC',
  'Chevron',
  'Exxon',
  'Mobil',
  'Sunoco',
  '7-Eleven',
  // France, Belgium, Luxembourg.
  'Carrefour',
  'Carrefour Market',
  'Auchan',
  'E.Leclerc',
  'Intermarché',
  'Super U',
  'Hyper U',
  'Casino',
  'Monoprix',
  'Franprix',
  'Picard',
  'Leader Price',
  'Cora',
  'Match',
  'Delhaize',
  'Colruyt',
  'Fnac',
  'Darty',
  'Boulanger',
  'Leroy Merlin',
  'Castorama',
  'Brico Dépôt',
  'Decathlon',
  'Sephora',
  'Quick',
  'Paul',
  // Spain, Portugal, Italy.
  'Mercadona',
  'Dia',
  'Eroski',
  'Alcampo',
  'El Corte Inglés',
  'Hipercor',
  'Consum',
  'Caprabo',
  'Bon Preu',
  'Continente',
  'Pingo Doce',
  'Minipreço',
  'Conad',
  'Esselunga',
  'Carrefour Express',
  'Eurospin',
  'Pam',
  'Despar',
  'Iper',
  'Unieuro',
  'MediaWorld',
  'Brico io',
  'Repsol',
  'Cepsa',
  'Galp',
  'Q8',
  'Tamoil',
  // Netherlands.
  'Albert Heijn',
  'Jumbo',
  'Plus',
  'Dirk',
  'Hoogvliet',
  'Dekamarkt',
  'Vomar',
  'Kruidvat',
  'Etos',
  'Hema',
  'Gamma',
  'Karwei',
  'Praxis',
  'Blokker',
  'Coolblue',
  // Nordics, Poland, Czechia, Romania.
  'ICA',
  'Willys',
  'Hemköp',
  'Coop Forum',
  'Rema 1000',
  'Kiwi',
  'Meny',
  'Bunnpris',
  'Netto',
  'Føtex',
  'Bilka',
  'S-market',
  'Prisma',
  'K-Market',
  'K-Citymarket',
  'Biedronka',
  'Żabka',
  'Lewiatan',
  'Stokrotka',
  'Dino',
  'Albert',
  'Tesco Express',
  'Penny Market',
  'Profi',
  'Mega Image',
  'Kaufland Romania',
  'Carrefour Romania',
  'Dedeman',
  'Altex',
  'eMAG',
  'Petrom',
  'Rompetrol',
  'MOL',
  // Elsewhere that sample receipts come from: Australia, Asia, Latin America.
  'Woolworths',
  'Coles',
  'IGA',
  'Bunnings Warehouse',
  'Kmart',
  'Big W',
  'JB Hi-Fi',
  'Countdown',
  'Pak’nSave',
  'New World',
  'FairPrice',
  'Giant',
  'Cold Storage',
  'Sheng Siong',
  'Guardian',
  'Watsons',
  'Mydin',
  'Aeon',
  'Lawson',
  'FamilyMart',
  'Seven-Eleven',
  'Uniqlo',
  'Daiso',
  'Indomaret',
  'Alfamart',
  'VinMart',
  'WinMart',
  'Co.opmart',
  'Big C',
  'Lotte Mart',
  'Emart',
  'Tops',
  'Oxxo',
  'Soriana',
  'Chedraui',
  'Bodega Aurrera',
  'Pão de Açúcar',
  'Extra',
  'Assaí',
  'Atacadão',
  'Líder',
  'Éxito',
  'Olímpica',
];

/** Words a chain prints after its name: branch, store kind, legal form (keys: upper case, letters only). */
const BRANCH_WORD =
  /^(?:FILIALE|FIL|MARKT|MARKET|SUPERMARKET|SUPERMARKT|SUPERMARCHE|SUPERMERCADO|SUPERMERCATO|HYPERMARCHE|STORE|STORES|SHOP|STATION|TANKSTELLE|RESTAURANT|CAFE|COFFEE|PHARMACY|APOTHEKE|GMBH|AG|KG|CO|OHG|SE|INC|LLC|LTD|PLC|SA|SAS|SRL|SPA|BV|NV|AB|AS|OY|SP|ZOO|NORD|SUD|SUED|OST|WEST|CITY|EXPRESS|CENTER|CENTRE|WHOLESALE|DEUTSCHLAND|FRANCE|ITALIA|ESPANA|UK|ROMANIA|POLSKA|NEDERLAND|HOLDING|GROUP|GRUPPE|DIENSTLEISTUNG|VERTRIEBS|STIFTUNG|UND|AND|EN|ET|Y|E)$/;

/** The matching key: letters and digits only, upper case, accents dropped. */
function key(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'SS')
    .replace(/[^\p{L}\d]/gu, '')
    .toUpperCase();
}

/** OCR's usual slips in logo type: symbols and digits for the letters they look like. */
function ocrLetters(s: string): string {
  return s
    .replace(/\$/g, 'S')
    .replace(/[|!]/g, 'I')
    .replace(/(?<=\p{L})0|0(?=\p{L})/gu, 'O')
    .replace(/(?<=\p{L})1|1(?=\p{L})/gu, 'I')
    .replace(/(?<=\p{L})5|5(?=\p{L})/gu, 'S')
    .replace(/(?<=\p{L})8|8(?=\p{L})/gu, 'B');
}

/** Chains whose name is also a common word or label: matched only when the line is the name alone, never fuzzily. */
const COMMON = new Set(
  [
    'Plus',
    'Match',
    'Extra',
    'Expert',
    'Action',
    'Real',
    'Metro',
    'Target',
    'Casino',
    'Paul',
    'Albert',
    'Quick',
    'Dia',
    'Tops',
    'Giant',
    'Iper',
    'Pam',
    'Profi',
    'Netto',
    'Combi',
    'Consum',
    'Dirk',
    'Kiwi',
    'Dino',
    'Meny',
    'Prisma',
    'Iceland',
    'Subway',
    'Mobil',
    'Westfalen',
    'Budni',
    'Globus',
    'Conrad',
    'Norma',
    'Merkur',
    'Gamma',
    'Praxis',
    'Coop',
    'Co-op',
    'Guardian',
    'Centra',
    'Jumbo',
    'New World',
    'Aeon',
  ].map(key),
);

/** Each spelling's key → the chain's first-listed name ("MediaMarkt|Media Markt"), and the spellings listed. */
const BY_KEY = new Map<string, string>();
const SPELLINGS = new Set<string>();
for (const entry of CHAINS)
  for (const spelling of entry.split('|')) {
    SPELLINGS.add(spelling.toLowerCase());
    if (!BY_KEY.has(key(spelling))) BY_KEY.set(key(spelling), entry.split('|')[0]!);
  }
const KEYS = [...BY_KEY.keys()];

/**
 * The chain a slip's line names, or null. `exact` when the line spells it (after case, spacing and accents), else
 * the canonical name of a chain it misspells by OCR: one letter off for names of 4 to 7 letters, two for longer ones.
 * Names of three letters or fewer match exactly only (too many words are one letter away from "DIA" or "KIK"); a
 * three-letter reading may still be a four-letter name with a letter lost ("LDL").
 * The line may carry one or two more words after the name ("LIDL Filiale 1234", "ALDI SÜD", "REWE Markt GmbH"),
 * matched from its start, never inside a sentence. `strict`: spelt right and no common word (a slip's foot, where
 * "NETTO" or "PLUS" alone is a label).
 */
export function knownMerchant(line: string, strict = false): { name: string; exact: boolean } | null {
  // Each word as printed and as OCR's slips are undone ("L$DL" → "LSDL"), kept in step.
  let pairs = line
    .trim()
    .split(/\s+/)
    .map((w) => [w, ocrLetters(w)] as const)
    .filter(([, w]) => /[\p{L}\d$]/u.test(w));
  // A speck of the logo read as a short word before the name ("ut Loblaws"), or an article ("THE HOME DEPOT").
  const lead = pairs[0]?.[1] ?? '';
  if (pairs.length > 1 && (lead.length <= 2 || /^the$/i.test(lead)) && !/\d/.test(lead)) pairs = pairs.slice(1);
  const original = pairs.map(([w]) => w);
  const words = pairs.map(([, w]) => w);
  if (!words.length || words.length > 6) return null;
  for (let n = Math.min(3, words.length); n >= 1; n -= 1) {
    const k = key(words.slice(0, n).join(' '));
    if (k.length < 2) continue;
    // What may follow the name: a branch, a store's kind, a legal form, a number ("LIDL Filiale 1234", "REWE Markt
    // GmbH"); any other word makes it another firm's name ("Müller Haustechnik").
    if (!words.slice(n).every((w) => BRANCH_WORD.test(key(w)) || /^[#\d.,/-]+$/.test(w))) continue;
    const hit = BY_KEY.get(k);
    // As printed where the words are the chain's own ("LIDL", "Media Markt"), else its spelling ("toom Baumar kt").
    const printed = original.slice(0, n).join(' ');
    const name = hit && SPELLINGS.has(printed.toLowerCase()) ? printed : hit;
    if (name && (!COMMON.has(k) || (n === words.length && !strict))) return { name, exact: true };
    if (strict) continue;
    // A misspelling is trusted only on a line of words alone: no comma, no figure ("Denver, CO 12345" is a town one
    // letter from "Denner").
    if (k.length < 3 || /[\d,;:]/.test(line)) continue;
    const allowed = k.length <= 7 ? 1 : 2;
    let best: string | null = null;
    let bestD = allowed + 1;
    for (const c of KEYS) {
      if (c.length < 4 || Math.abs(c.length - k.length) > allowed) continue;
      const d = editDistance(k, c);
      if (d < bestD) {
        best = c;
        bestD = d;
      }
    }
    // A common word one letter from a chain ("TOTAL" is a chain and a label; "REAL", "PLUS", "MATCH", "EXTRA" too)
    // matches exactly only: the fuzzy match needs the name's first letter right and no other chain as close.
    if (
      best &&
      bestD <= allowed &&
      best[0] === k[0] &&
      !COMMON.has(best) &&
      !KEYS.some((c) => c !== best && editDistance(k, c) === bestD)
    )
      return { name: BY_KEY.get(best)!, exact: false };
  }
  return null;
}

/**
 * The chain a web or mail address printed on the page belongs to ("www.lidl.de", "rewe.de/service",
 * "kundenservice@dm.de"), or null: the address's own name must be a chain's, spelt right and no common word.
 */
export function merchantFromDomain(text: string): string | null {
  for (const m of text.matchAll(
    /(?:www\.|@|(?<![\p{L}\d.-]))([\p{L}\d-]{2,30})\.(?:[a-z]{2,3}\.)?[a-z]{2,6}(?![\p{L}\d])/giu,
  )) {
    if (
      !/www\.|@/i.test(m[0]) &&
      !/\.(?:com|de|fr|it|es|nl|at|ch|be|pl|cz|se|pt|co\.uk|ie|ro|com\.au|ca|us|no|dk|fi)$/i.test(m[0])
    )
      continue;
    const k = key(m[1]!);
    const name = BY_KEY.get(k);
    if (name && !COMMON.has(k) && k.length >= 2) return name;
  }
  return null;
}
