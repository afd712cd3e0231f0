import type { FieldGuess, Line, PartyHints } from '../extraction.types';
import { findDates } from './date.parser';
import { cellBelow, type Doc, editDistance, labelAbove } from './document';
import { receiptLike } from './document-type.rules';
import {
  CUSTOMER_LABEL,
  LEGAL_FORM,
  NUMBER_LABEL,
  TITLE_WORDS,
  TOTAL_STRONG,
  TOTAL_WEAK,
  VENDOR_LABEL,
} from './labels';
import { knownMerchant, merchantFromDomain } from './merchants';
import { findAmounts } from './money.parser';

const ADDRESSY =
  /\d{4,5}|\b(?:street|str\.|strasse|straße|rue|via|calle|strada|straat|weg|laan|avenue|road|allee|platz|tel|fax|phone|iban|bic|cedex|avenida|plaza|paseo|rua|travessa|piazza|corso|viale|ulica|boulevard|blvd|chemin|quai|impasse)\b|(?<![a-z])(?:c\/|c\.\s?de|avda\.?|av\.|ul\.)(?![a-z])|,\s*\d{1,4}[a-z]?\s*$|\bnro\.?:?\s*\d|@|www\.|https?:|p\.?o\.? box|\bpmb\s*#?\s*\d|[a-zäöüß](?:straße|strasse|str\.|gasse|weg|allee|platz|ring|damm|ufer)\s*\d|\b(?:ring|damm|ufer|gasse)\s+\d{1,4}[a-z]?\b|\b(?:suite|ste\.?|unit|floor|fl\.)\s*#?\d{1,5}[a-z]?\b/i;

const BARE_TO = /^\s*(?:to|an|a|aan|para|per|catre|destinataire)\s*:?\s*$/;

/** Registration and tax-id words of a legal footer line. */
const REGISTRATION =
  /(?<![a-z])(registergericht|amtsgericht|handelsregister|hrb|hra|siret|siren|rcs|kvk|cui|cif|nif|p\.?\s?iva|partita iva|rea|registro mercantil|reg\.?\s?com|registered in|company no|ust-?id\w*|vat reg\w*|btw)(?![a-z])/;

/** A person's title in front of a name ("M DE LATTRE ALEXIS", "Mme Dupont", "Herr Müller"): the customer, a person. */
const CIVILITY =
  /^(?:m\.?|mme|mlle|mr\.?|mrs\.?|ms\.?|monsieur|madame|herr|frau|sig\.?|sig\.ra|signor|signora|dhr\.?|mevr\.?|sr\.?|sra\.?)\s+(?:ou\s+m[rm]?e?\.?\s+)?\p{L}{2}/iu;

/** True when a name is written as a person's, with a title: "M" alone must be followed by capitals ("M DE LATTRE"). */
function personTitled(text: string): boolean {
  const t = text.trim();
  // "MS Solutions GmbH", "MR Technik AG": initials of a company, not a title.
  if (!CIVILITY.test(t) || LEGAL_FORM.test(t) || LOWER_LEGAL_END.test(t)) return false;
  return !/^m\.?\s/i.test(t) || /^M\.?\s+\p{Lu}{2}/u.test(t);
}

const VENDOR_LABEL_ALL = new RegExp(VENDOR_LABEL.source, 'g');
const TITLE_WORDS_ALL = new RegExp(TITLE_WORDS.source, 'g');
/** A Japanese address: its postcode mark, or a prefecture and a city, ward, town or village ("東京都調布市菊野台"). */
const JAPANESE_ADDRESS =
  /^〒|^(?:東京都|北海道|京都府|大阪府|[\u4e00-\u9fff]{2,3}県)\s?[\u4e00-\u9fff]{1,5}[市区町村郡]/;
/** A footer crediting the software that printed the document, whose maker is no party to it. */
const SOFTWARE_CREDIT =
  /(?<![a-z])(?:prepared (?:using|with|by)|created (?:using|with|by)|generated (?:using|with|by)|made with|powered by|erstellt mit|generiert (?:mit|von|durch)|realise avec|genere (?:par|avec)|rendszerevel keszult|keszult a|programmal keszult)(?![a-z])/;

/** A sentence addressed to the reader, not a name (folded): "Here's your receipt", "Thanks for your order", "Vielen Dank". */
const MESSAGE =
  /(?<![a-z])(?:your|you|you're|we've|we're|here's|here is|thanks|thank you|ihre?|ihren|vielen dank|danke|votre|vos|merci|grazie|gracias|su pedido|bedankt|uw)(?![a-z])/;
/** The honorific after an addressee's name ("… 御中", "… 様", "… 殿"). */
const HONORIFIC = /(?:御中|様|殿)$/;
/** Japanese legal forms printed before the name as well as after it. */
const JAPANESE_PREFIX_FORM = /^(?:株式会社|有限会社|合同会社|合資会社|合名会社|[(（][株有][)）])$/;

const TOTAL_WORDS = new RegExp(`${TOTAL_STRONG.source}|${TOTAL_WEAK.source}`);

/** Identifiers only the issuer prints about itself: where to pay and where it is registered. */
const ISSUER_STRONG_ID =
  /(?<![a-z])(iban|bic|swift|registergericht|amtsgericht|handelsregister|hrb|hra|siret|siren|rcs|kvk|rea|registro mercantil|reg\.?\s?com|registered in|company no|steuernummer|steuer-?nr|st\.?-?nr|organisationsnr|organisationsnummer|org\.?\s?nr|f-skatt|momsregnr|y-tunnus|cvr(?:-?nr)?)(?![a-z])/;

/** Tax ids, printed for the issuer and often for the customer too. */
const TAX_ID =
  /(?<![a-z])(ust-?id\w*|vat (?:no|reg\w*|number|id)|tax id|n° tva|tva|p\.?\s?iva|partita iva|nif|cif|cui|btw(?:-?nr)?|uid|c\.?u\.?i\.?t|cuil|rut|r\.?f\.?c|ruc|nit|cnpj|abn|gstin|tckn|vkn|vergi (?:no|numarasi|kimlik|dairesi)|nip|ico|dic)(?![a-z])/;

/** A Turkish address's district and province, "KARATAY/ KONYA", on a line of their own. */
const DISTRICT_PROVINCE = /^\s*\p{Lu}[\p{Lu}\s]{2,24}\s?\/\s?\p{Lu}{3,}\s*$/u;

/** A line of an address block under a company name: street, postcode and town, contact details. */
const BLOCK_LINE =
  /\d|@|www\.|https?:|\b(?:street|str\.|strasse|straße|rue|via|calle|strada|straat|weg|laan|avenue|road|way|lane|allee|platz|tel|fax|phone|iban|bic)\b/i;

/** The letters of a name without its legal form, folded: what two spellings of one company share. */
function coreName(name: string): string {
  return foldPlain(name.replace(new RegExp(LEGAL_FORM.source, 'gu'), ' ')).replace(/[^\p{L}]/gu, '');
}

/** Written like a company name: a legal form, or capitalised words (joined by short lower-case particles). */
/** A legal form written in lower case at the end of a name ("bol.com b.v.", "acme gmbh"). */
const LOWER_LEGAL_END =
  /\s(?:b\.v\.|n\.v\.|bv|nv|gmbh|ltd\.?|llc|inc\.?|s\.r\.l\.|srl|s\.a\.|sarl|sas|s\.p\.a\.|spa)$/i;

/** The kind of shop that ends a business's name ("… Restaurant", "… Café", "… Bakery"): no street line ends so. */
const SHOP_NOUN_END =
  /\s(?:restaurant|ristorante|restaurante|cafe|café|coffee|bar|grill|diner|bistro|brasserie|pub|tavern|inn|hotel|bakery|bäckerei|boulangerie|panadería|deli|pizzeria|trattoria|kitchen|market|pharmacy|apotheke|pharmacie|farmacia|store|shop|laden|garage|salon)$/iu;

/** A firm's name that ends in its legal form ("GEOBAL CONSTRUCCIONS 2018 S.L.", "Studio 54 GmbH"). */
const LEGAL_END = new RegExp(`(?:${LEGAL_FORM.source})\\.?\\s*$`, 'u');

/**
 * An address, a contact or a postcode (ADDRESSY), not a firm's name that carries a year or a number and ends in its
 * legal form: there the figures alone do not make an address.
 */
function addressLike(text: string): boolean {
  if (!ADDRESSY.test(text)) return false;
  // A business named after its street ("Main Street Restaurant", "Rue du Bac Café"): the kind of shop ends it, and
  // no house number or postcode stands in it.
  if (!/\d/.test(text) && SHOP_NOUN_END.test(text.trim())) return false;
  return !LEGAL_END.test(text.trim()) || ADDRESSY.test(text.replace(/\d{4,5}/g, ' '));
}

export function companyLike(text: string): boolean {
  if (LEGAL_FORM.test(text) || LOWER_LEGAL_END.test(text)) return true;
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (!words.length || words.length > 6) return false;
  return words.every(
    (w, k) =>
      (k === words.length - 1 && /^(?:srl|sa|sl|spa|bv|nv|gmbh|ltd|llc|inc|sas|sarl|ag|kg|snc)\.?$/i.test(w)) ||
      /^[^\p{L}]*\p{Lu}/u.test(w) ||
      /^(?:de|di|da|del|della|van|von|der|den|la|le|y|e|et|und|and|of|du|des|&)$/.test(w),
  );
}

/**
 * Headings and form labels that stand where a name could ("Geschäftsführung | Identifikation | Bankverbindung" over a
 * footer's columns, "Print Name/Company/Title" over a signature line, a fapiao's seal "发票专用章"): never an issuer's
 * name. Folded.
 */
const HEADING_NOT_NAME =
  /^(?:identifikation|bankverbindung|geschaftsfuhrung|geschaeftsfuehrung|kontakt|kontaktdaten|anschrift|adresse|impressum|steuernummer|registergericht|sitz der gesellschaft|bank details|banking details|contact|contact details|company details|coordonnees|coordonnees bancaires|informations|dati aziendali|datos bancarios|contactgegevens|bankgegevens|summary|overview|details|zusammenfassung|ubersicht|uebersicht|recapitulatif|resume|riepilogo|resumen|resumo|overzicht|samenvatting)$|(?:^|\s)(?:print name|signature|unterschrift)(?:\s|\/|$)|\p{L}\/\p{L}+\/|发票|专用章/u;
/** A country's name alone: the last line of an address block. */
const COUNTRY_ONLY =
  /^(?:australia|new zealand|united states(?: of america)?|usa|u\.s\.a\.|united kingdom|uk|great britain|ireland|canada|india|singapore|malaysia|hong kong|china|japan|germany|deutschland|austria|osterreich|switzerland|schweiz|suisse|svizzera|france|belgium|belgique|belgie|netherlands|nederland|the netherlands|luxembourg|italy|italia|spain|espana|portugal|brazil|brasil|mexico|argentina|chile|colombia|poland|polska|czech republic|czechia|ceska republika|slovakia|hungary|magyarorszag|romania|sweden|sverige|norway|norge|denmark|danmark|finland|suomi|south africa)$/;

/** A label cut off after its preposition ("Numéro de"), in lower case as labels write it ("CRONUS DE" is a name). */
// In capitals only the words no country code or legal form spells ("CRONUS DE" is a company in Germany).
const CUT_AFTER_PREPOSITION = /\s(?:de|du|des|of|for|to|von|der|di|da|del|van|la|le)$|\s(?:OF|FOR|TO|VON|DER|DEL|VAN)$/;

/**
 * Title words and little else, folded ("Invoice", "Rechnungsbeispiel", "Számla/Invoice (Minta)": invoice, sample, in
 * two languages, or beside a layout's version stamp, "DANFSe v1.0").
 */
function titleOnly(folded: string): boolean {
  if (!TITLE_WORDS.test(folded)) return false;
  const rest = folded
    .replace(TITLE_WORDS_ALL, ' ')
    .replace(/\(\s*(?:minta|sample|muster|copy|kopie|copie|duplicate|duplikat|original|originale?)\s*\)/g, '')
    .replace(/(?<![\p{L}\d])v\.?\s?\d+(?:\.\d+)+(?![\p{L}\d])/gu, '')
    .replace(/[\s/()|-]+/g, '');
  return rest.length < 3;
}

/** A restaurant bill's table field ("Numéro table", "Tisch Nr.", "Table No"), folded. */
const TABLE_FIELD =
  /^(?:(?:numero|n[°o]|no\.?|nr\.?)\s+)?(?:table|tisch|mesa|tavolo|tafel|stol)(?:\s+(?:no|nr|n°|number|numero)\.?)?$/;

/** Heads of footer lines that name a person or a bank, not the issuer. */
const NOT_A_COMPANY =
  /^(?:geschaftsfuhr\w*|geschaeftsfuehr\w*|managing director|director|ceo|gerant|amministratore|administrador|bank\w*|banque|banca|banco|sitz|registered office|tel|phone|fax|e-?mail)\b/;

/** A bank's name (footers list where to pay: "Volksbank Frankfurt · BLZ …"), never the issuer. */
const BANK_NAME =
  /(?<![a-z])(?:\w*bank(?:en|haus|ing|a|asi)?(?![a-z])|pankki|sparkasse\w*|banque|banca|banco|caixa|caisse d.epargne|credit (?:agricole|mutuel|lyonnais)|unicredit|intesa sanpaolo|abn amro|bnp paribas)(?![a-z])|银行|銀行/;

/** Free-mail and hosting domains: they say nothing about who issued the invoice. */
const GENERIC_DOMAIN =
  /^(?:gmail|googlemail|yahoo|hotmail|outlook|live|msn|icloud|me|aol|gmx|web|t-online|freenet|orange|wanadoo|free|laposte|sfr|libero|virgilio|alice|tiscali|telefonica|movistar|yandex|mail|email|protonmail|example|paypal|google|facebook|linkedin|twitter|instagram|youtube|xing)$/;

/**
 * Services that send mail and invoices on a seller's behalf (payment, billing, mailing platforms): their domain in the
 * sender's address says nothing of who issued the document.
 */
const SENDING_SERVICE =
  /^(?:stripe|paypal|intuit|quickbooks|xero|zoho|sevdesk|lexoffice|lexware|billomat|fastbill|debitoor|freshbooks|invoiceninja|invoice2go|waveapps|harvestapp|square|squareup|sumup|shopify|chargebee|recurly|paddle|fastspring|gumroad|amazonses|sendgrid|mailgun|mailchimp|mandrillapp|postmarkapp|sparkpostmail|mailjet|brevo|sendinblue|hubspot|salesforce|zendesk|docusign|bill|billdotcom|noreply|notifications?)$/;

/**
 * The registrable name of an e-mail address's domain ("billing@mail.acme-tools.co.uk" → "acmetools"), or null for
 * freemail, mail and billing services, and names too short to mean anything.
 */
export function mailDomainName(address: string | null | undefined): string | null {
  const domain = address?.split('@')[1]?.toLowerCase().trim();
  if (!domain) return null;
  const labels = domain.split('.').filter(Boolean);
  if (labels.length < 2) return null;
  // "co.uk", "com.au", "org.br": the name is the label before the two-part public suffix.
  const twoPart = labels.length >= 3 && /^(?:co|com|org|net|gov|ac|or|ne)$/.test(labels[labels.length - 2]!);
  const name = foldPlain(labels[labels.length - (twoPart ? 3 : 2)]!).replace(/-/g, '');
  if (name.length < 3 || GENERIC_DOMAIN.test(name) || SENDING_SERVICE.test(name)) return null;
  return name;
}

/**
 * The names of the web and mail domains printed on the page ("info@cronus.com", "www.alphabet.de" → "cronus",
 * "alphabet"), outside the customer's block: the issuer prints its own, the customer's rarely appears.
 */
function pageDomains(doc: Doc, customer: Set<string>): string[] {
  const out = new Set<string>();
  doc.lines.forEach((line, i) => {
    line.cells.forEach((cell, j) => {
      if (customer.has(`${i}:${j}`)) return;
      // OCR spaces the dots of a receipt's footer ("www .marktkauf-lehr.de", "www. ingenico, de"): read them closed.
      const text = cell.text
        .replace(/\bwww\s?\.\s?/gi, 'www.')
        .replace(/(?<=\p{L})\s?[.,]\s(de|com)\b/giu, '.$1')
        // "SHOP-AID,COM": a comma OCR read for the dot before a common ending.
        .replace(/(?<=\p{L}),(com|de|net|org)\b/giu, (_m, end: string) => `.${end.toLowerCase()}`);
      const found = [
        ...text.matchAll(/(?:@|\bwww\.|https?:\/\/)((?:[\p{L}\d-]+\.)+)(?:[a-z]{2,6})\b/giu),
        // A mail address whose ending ran onto the next line ("info@luckylouiefishshackSEA." over "com").
        ...text.matchAll(/@((?:[\p{L}\d-]{4,}\.)+)\s*$/gu),
        // A bare shop domain ("rossmann.de/", "bouyguestelecom.fr"): common country and company endings only.
        ...text.matchAll(
          /(?<![@\p{L}\d.-])((?:[\p{L}\d-]{3,}\.)+)(?:de|com|fr|it|es|nl|ro|at|ch|be|eu|co\.uk)(?![\p{L}\d])/gu,
        ),
      ];
      for (const m of found) {
        const labels = m[1]!.toLowerCase().split('.').filter(Boolean);
        const name = labels[labels.length - 1]!;
        if (name.length >= 3 && !GENERIC_DOMAIN.test(name)) {
          out.add(foldPlain(name).replace(/-/g, ''));
          // "marktkauf-lehr": a brand and a branch; the brand alone names the issuer too.
          for (const part of foldPlain(name).split('-')) if (part.length >= 4 && part !== name) out.add(part);
        }
      }
    });
  });
  return [...out];
}

/** True when the name and a domain are spelt alike: "CRONUS DE" ~ cronus, "Die Vordefinierte Firma" ~ vordefiniert. */
function matchesDomain(name: string, domains: string[]): boolean {
  if (!domains.length) return false;
  const f = foldPlain(name);
  const joined = f.replace(/[^a-z\d]/g, '');
  const words = f.split(/[^a-z\d]+/).filter((w) => w.length >= 4);
  return domains.some(
    (d) =>
      (d.length >= 4 && joined.includes(d)) ||
      words.some(
        (w) => w === d || (d.length >= 5 && w.startsWith(d)) || (d.startsWith(w) && w.length >= 0.7 * d.length),
      ) ||
      (joined.length >= 3 && d === joined) ||
      // The name and a suffix ("luckylouiefishshacksea": the shop and its city): most of the domain spelt out.
      (joined.length >= 8 && d.startsWith(joined) && joined.length >= 0.75 * d.length),
  );
}

/** Separators of a one-line sender address: "Company - Street 1 - 12345 City", "A GmbH ● Weg 1 ● 12345 Ort". */
const RETURN_SEP = /\s+[-–·|•●∙⋅]\s+/;

/**
 * A window envelope's return-address line ("Company - Street 1 - 12345 City"): its parts, the sender's name first, or
 * null. A label and its value ("Referenz des Käufers : 05 158 004 - 11023 - 45") is no address, however it splits.
 */
function returnAddressParts(line: { text: string }): string[] | null {
  const parts = line.text.split(RETURN_SEP);
  if (parts.length < 3 || !ADDRESSY.test(parts.slice(1).join(' '))) return null;
  if (/:/.test(parts[0]!)) return null;
  return parts;
}

/**
 * A shop's name with its branch number after it ("JET Tankstelle 5988", "WALGREENS #07431"): the name alone, so that
 * the rules that keep figures out of names (they mark addresses and ids) do not drop it.
 */
export function withoutBranchNumber(text: string): string {
  // Three digits or more, or a number sign: "Hauptstraße 12" is an address, and so is any street with its number.
  const m = /^(.*?\p{L}{3}.*?)\s+(?:(?:#\s?|no\.?\s?|nr\.?\s?)\d{2,6}|\d{3,6})$/iu.exec(text.trim());
  if (!m || /\d/.test(m[1]!) || STREET_NAME.test(m[1]!)) return text;
  return m[1]!;
}

/** A street's name without its number: German compounds and the street words that end or begin one. */
const STREET_NAME =
  /(?:stra(?:ss|ß)e|str\.|weg|gasse|allee|platz|ring|damm|ufer|steig|chaussee|laan|straat|gracht|vej|gatan|gata|veien)$|(?<![\p{L}])(?:street|st\.?|road|rd\.?|avenue|ave\.?|lane|ln\.?|way|drive|dr\.?|blvd\.?|boulevard|highway|hwy|suite|ste\.?|unit|floor)$|^(?:rue|via|viale|corso|piazza|calle|avenida|av\.|rua|ulica|ul\.)(?![\p{L}])/iu;

/** Strips labels, titles and trailing punctuation around a company name. */
export function cleanVendor(raw: string): string {
  let s = raw.replace(/\s+/g, ' ').trim();
  s = s.replace(/^(?:©|\(c\)|copyright)\s*(?:\d{4}\s*)?/i, '');
  s = s.replace(/^(?:all .*? (?:are )?sold by|sold by|seller|vendor|supplier|from)\s*:?\s*/i, '');
  // A form's name label left in front of the name, its colon lost to OCR ("Denominazione Colombo Forniture S.p.A."),
  // where a capital starts the name ("Nome do Remetente Ltda" is a name).
  const named =
    /^(?:denominazione|ragione sociale|raz[aã]o social|raz[oó]n social|denominaci[oó]n|company name|firmenname|nome|nombre)\s*:?\s+/i.exec(
      s,
    );
  if (named && /^\p{Lu}/u.test(s.slice(named[0].length))) s = s.slice(named[0].length);

  // A fapiao's seller block: "名称: 天津…有限公司" (name:), the "名" of its label sometimes in a cell of its own.
  s = s.replace(/^(?:名称|名|称)\s*[:：]\s*/u, '');
  s = s.replace(/\s+(?:invoice|rechnung|facture|fattura|factura|factuur|receipt)\b.*$/i, '');
  // "Asociación Empresarios Norte NIF/CIF: G38556677": the name is what stands before its tax id.
  s = s.replace(
    /\s+(?:NIF\/CIF|NIF|CIF|CUIT|CNPJ|NIP|VAT(?: No\.?| ID| Reg\.? No\.?)?|USt-?IdNr\.?|UID|P\.? ?IVA|TVA|BTW|GSTIN|ABN)\s*:?\s*[A-Z]{0,3}[\d][\w .-]*$/i,
    '',
  );
  // A phone number printed after the name ("KITCHENER-WILMOT HYDRO INC (519) 743-3600", "Acme Ltd Tel. 020 7946 0018").
  s = s.replace(
    /(\p{L}{2,}\.?)\s+(?:(?:tel|phone|ph|fon|telefon|t)\.?:?\s*)?\(?\+?\d{1,4}\)?[\s./-]?\d{3}[\s./-]\d{3,4}(?:[\s./-]\d{2,4})?$/iu,
    '$1',
  );
  s = s.replace(/\s*[:,;|–-]+\s*$/, '').trim();
  return s;
}

/** "Nummer:", "Name:", "Anschrift:": a label cell, not a value. */
function isLabel(text: string): boolean {
  return /:\s*$/.test(text.trim());
}

/** Party and title words used as column headers ("Käufer", "Invoice"): never a company name. */
function isPartyWord(folded: string): boolean {
  const t = folded.trim().replace(/[:.]$/, '');
  const whole = (re: RegExp) => {
    const m = re.exec(t);
    return !!m && m[0].length >= t.replace(/[\s/]+$/, '').length - 1;
  };
  if (t.length < 40 && (whole(CUSTOMER_LABEL) || whole(VENDOR_LABEL) || whole(TITLE_WORDS))) return true;
  // Several party words joined: "Cessionario/committente (cliente)", "Buyer / Recipient".
  const parts = t.split(/[\s()/,-]+/).filter(Boolean);
  return (
    parts.length >= 2 &&
    parts.length <= 4 &&
    parts.every((p) => [CUSTOMER_LABEL, VENDOR_LABEL].some((re) => re.exec(p)?.[0] === p))
  );
}

/** The last word of a form field's label whose value is a kind or a setting, never a name ("Bill type", "Billing class"). */
const FIELD_NOUN =
  /(?<![a-z])(?:type|frequency|class|method|status|period|plan|category|terms|mode|level|tariff|cycle|typ|art|klasse|tarif|periode|modalite|tipo|clase|classe)\s*:?$/;

/**
 * A cell that is a seller's label and nothing else ("Verkäufer:", "Supplier"), or a role noun with up to three words
 * qualifying it ("ENERGY SERVICE PROVIDER"); "Taylor's Store" ends in a label word but is a name.
 */
function sellerLabelCell(folded: string): boolean {
  const t = folded.trim().replace(/[:.]$/, '').trim();
  if (t.length >= 40 || CUSTOMER_LABEL.test(t)) return false;
  const m = VENDOR_LABEL.exec(t);
  if (!m || m.index + m[0].length < t.length - 1) return false;
  return m.index <= 2 || (/(?:provider|supplier|seller|vendor|issuer)$/.test(t) && t.split(/\s+/).length <= 4);
}

/**
 * A word in lower case that goes on the phrase of the line above in the same type ("It's time to get" over
 * "rewarded" in an advert beside the address): a headline's end, not a name.
 */
function headlineContinued(doc: Doc, i: number, j: number): boolean {
  const line = doc.lines[i]!;
  const cell = line.cells[j]!;
  if (!/^\p{Ll}/u.test(cell.text)) return false;
  // The line above in that column: other columns' lines may sit between them.
  for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
    const prev = doc.lines[k]!;
    if (prev.page !== line.page) return false;
    const above = prev.cells.find((c) => c.x0 < cell.x1 && c.x1 > cell.x0);
    if (!above) continue;
    return Math.abs(prev.size - line.size) <= 0.15 * line.size && /\p{L}$/u.test(above.text) && /\s/.test(above.text);
  }
  return false;
}

function foldPlain(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

const NAME_WORD =
  '(?:name|firma|company|company name|raison sociale|denomination|ragione sociale|denominazione|razon social|nombre|denumire|naam|bedrijfsnaam|nazwa(?: firmy)?|nazev(?: firmy)?|nome(?: empresarial)?|razao social|nimi|namn|foretag|nev|cegnev|назив|наименование|назва)';
/** A form's name field label, alone or as alternatives ("Nome / Nome Empresarial"). */
const NAME_LABEL = new RegExp(`^${NAME_WORD}(?:\\s*/\\s*${NAME_WORD})*\\s*:?\\s*$`);

/**
 * What OCR makes of a logo or a barcode ("I Il ill", "| IlI|UI)", "\"aE") and a shop's opening hours ("MO.-SA."):
 * never a name.
 */
export function ocrNoise(s: string): boolean {
  const letters = s.replace(/[^\p{L}]/gu, '');
  if (letters.length < 3) return true;
  if (/[|{}[\]\\]/.test(s)) return true;
  // Quotes are specks, except one pair around a name ('ООО "Ромашка"', 'SC "ALFA" SRL', 'ТОВ «Світанок»').
  if (/["“”]/.test(s) && !/^[^"“”]*["“„][\p{L}][\p{L}\d .&'-]*\p{L}["”][^"“”]*$/u.test(s)) return true;
  if (/^[IiLl1|!\s.]+$/.test(s)) return true;
  // A logo read as a run of small letters then capitals in one word ("iliSEAR").
  if (/^\p{Ll}{2,}\p{Lu}{3,}$/u.test(s.trim())) return true;
  // Fragments around a number ("WA o 275" from a logo): no word of three letters.
  if (/\d/.test(s) && !/\p{L}{3}/u.test(s)) return true;
  return /^(?:mo|di|mi|do|fr|sa|so|mon|tue|wed|thu|fri|sat|sun)\.?\s*[-–]\s*(?:mo|di|mi|do|fr|sa|so|mon|tue|wed|thu|fri|sat|sun)\.?$/i.test(
    s.trim(),
  );
}

/**
 * Headers of the address fields of a form ("MUNICÍPIO  UF  INSCRIÇÃO ESTADUAL" on a Brazilian NF-e, "City  State
 * Zip", "PLZ Ort Land"): a line made of nothing else names no one.
 */
const FORM_FIELD_WORDS = new Set(
  (
    'name nome nom nombre address endereco adresse anschrift indirizzo direccion adres city cidade municipio ville ' +
    'ort citta ciudad plaats state uf estado province provincia land country pais pays paese postcode zip cep plz ' +
    'code postal codigo cap phone fone telefone telefon telephone tel fax email e-mail inscricao estadual municipal ' +
    'bairro district complemento numero number nr no cnpj cpf ie im'
  ).split(' '),
);

function formFieldsOnly(s: string): boolean {
  const words = foldPlain(s)
    .split(/[\s/,;:.()|-]+/)
    .filter(Boolean);
  return words.length >= 2 && words.every((w) => FORM_FIELD_WORDS.has(w));
}

/** "Page 1 of 2", "Sida 1(1)", "Seite 1/3": page furniture in any of the languages. */
const PAGE_NUMBER =
  /^(?:page|seite|sida|side|pagina|página|strona|stránka|strana|sivu|blad|pág\.?|p\.)\s*\d+\s*(?:[(/]|of|von|de|di|sur|van|av|z|ze)?\s*\d*\)?$/i;

function plausibleName(s: string): boolean {
  if (s.length < 2 || s.length > 80) return false;
  if (PAGE_NUMBER.test(s.trim())) return false;
  // A paragraph sign cites a law or terms ("gemäß § 8 Ziff. II AHB"): a sentence, never a name.
  if (s.includes('§')) return false;
  if (!/\p{L}{2}/u.test(s) || ocrNoise(s)) return false;
  if (formFieldsOnly(s)) return false;
  const letters = s.replace(/[^\p{L}]/gu, '').length;
  if (letters < s.replace(/\s/g, '').length * 0.5) return false;
  if (findDates(s).length || findAmounts(s).length) return false;
  return true;
}

/**
 * The issuing company. Signals, strongest first: a seller label ("Sold by", "Lieferant", "Fournisseur" …), a name
 * with a legal form (GmbH, S.A.R.L., B.V., Ltd …) outside the customer's address block, the return-address line of a
 * window envelope, and the large heading at the top of the first page.
 */
export function findVendor(
  doc: Doc,
  hints: PartyHints = {},
  /** Every candidate with its final score (diagnostics: eval/rules-lines.ts --candidates). */
  onCandidates?: (list: Array<{ name: string; score: number; first: number }>) => void,
): FieldGuess<string> | null {
  const scores = new Map<string, { name: string; score: number; first: number }>();
  // The person's own names and mail domains: on their invoices they are the buyer, whatever the layout suggests.
  const ownNames = (hints.ownNames ?? []).map(coreName).filter((n) => n.length >= 5);
  const ownDomains = (hints.ownEmails ?? []).map(mailDomainName).filter((d): d is string => d !== null);
  const isOwn = (name: string) => {
    const core = coreName(name);
    return (
      (core.length >= 5 && ownNames.some((own) => core === own || core.includes(own) || own.includes(core))) ||
      matchesDomain(name, ownDomains)
    );
  };
  // Whether a seller label ("Sold by", "Verkäufer", "Fournisseur" …) names someone: then the mail's sender does not.
  let sellerLabelled = false;
  const customerNames = new Set<string>();
  /** One candidate per spelling: the cleaned name's letters and digits, lower case. */
  const keyOf = (name: string) => name.toLowerCase().replace(/[^\p{L}\d]/gu, '');
  const add = (raw: string, score: number, line: number) => {
    // A field's label ("NUMERO:", "Billing Contact:"), never a name.
    if (/:\s*$/.test(raw)) return;
    // A bilingual form's labels ("Fizetési mód/ Teljesítés időpontja/", "Szállító/Sold by"): each ends in a slash.
    if (/\/\s*$/.test(raw)) return;
    // The software that printed the page ("This invoice was prepared using the program of Key-Soft …").
    if (SOFTWARE_CREDIT.test(foldPlain(doc.lines[line]?.text ?? ''))) return;
    const name = cleanVendor(raw);
    const folded = foldPlain(name);
    if (!plausibleName(name) || BANK_NAME.test(folded) || personTitled(name) || isOwn(name)) return;
    // A label glued to its value ("Usuario:Administrador", "Mesa: 3"): a form's field, not a name.
    if (/^(?:\p{L}{2,20}\s){0,2}\p{L}{2,20}\s?:\s?\S/u.test(name)) return;
    // A party's label ("Destinatario" after "Remitente/"), never a name.
    if (isPartyWord(folded)) return;
    // A phone number, spelt in letters or not ("1-800-SHOPAID").
    if (/^\+?1?[-. ]?\(?\d{3}\)?[-. ]\p{L}*\d*[-. ]?[\p{L}\d]{4,}$/u.test(name) && /^\+?\d/.test(name)) return;
    if (HEADING_NOT_NAME.test(folded) || CUT_AFTER_PREPOSITION.test(name)) return;
    // An address block's heading ("CORRESPONDENCE ADDRESS", "Payment address"), not a name.
    if (/(?:^|\s)address(?:es)?$/.test(folded)) return;
    // An address's country line ("Australia", printed large under a logo), no one's name.
    if (COUNTRY_ONLY.test(folded)) return;
    // A legal form alone ("GmbH" in a cell of its own) names no one.
    if (coreName(name).length < 2) return;
    // A form's field label ("Contact Name", "Company Name", "Attn"), not the name written in it.
    if (/(?:^|\s)(?:name|contact|attn|attention)$/i.test(name.trim())) return;
    // A restaurant bill's table field ("Numéro table", "Tisch Nr.", "Table No"), not a name.
    if (TABLE_FIELD.test(folded.trim())) return;
    // A slogan ("Amazing Service, Everytime!"), not a name.
    if (/!$/.test(name) && /\s|,/.test(name)) return;
    if (customerNames.has(coreName(name))) return;
    // Title words and little else, before cleaning too: "Tax Invoice" is a title, not "Tax" once the title word is
    // cut off.
    if (titleOnly(folded) || titleOnly(foldPlain(raw.trim()))) return;
    // A number's label, in one language or two ("Sorszám/Invoice No.").
    const numberLabel = NUMBER_LABEL.exec(folded);
    if (numberLabel && numberLabel.index + numberLabel[0].length >= folded.replace(/[\s.:#]+$/, '').length) return;
    const f = name.toLowerCase();
    // A title naming what it is for ("Receipt for Groceries", "Rechnung für Beratung"): no one's name.
    const title = TITLE_WORDS.exec(f);
    if (title?.index === 0 && /^\s+(?:for|from|of|fur|für|pour|de|per|para|voor|van)\s/.test(f.slice(title[0].length)))
      return;
    const key = keyOf(name);
    const prev = scores.get(key);
    if (!prev) scores.set(key, { name, score, first: line });
    else {
      // Seen again (letterhead and footer): a little stronger, keep the fuller spelling.
      prev.score = Math.max(prev.score, score) + 0.04;
      if (name.length > prev.name.length && score >= prev.score - 0.1) prev.name = name;
    }
  };

  // Customer blocks: the label's line and the few lines below it in the same column.
  const customer = new Set<string>();
  doc.lines.forEach((line, i) => {
    line.cells.forEach((_cell, j) => {
      const f = doc.folded[i]![j]!;
      // A bare "To:" heading ("An", "À", "Aan", "Para") in a cell of its own also opens the customer's block.
      const label = CUSTOMER_LABEL.exec(f.slice(0, 30));
      if (!label && !BARE_TO.test(f)) return;
      // The word inside a hyphenated compound ("MUSTER-KUNDE GMBH", a column "Art-Nr-Kunde") labels nothing.
      if (label && /\p{L}-$/u.test(f.slice(0, label.index))) return;
      customer.add(`${i}:${j}`);
      if (line.cells[j + 1]) customer.add(`${i}:${j + 1}`);
      // The whole address after the label in its own cell ("DESTINATARIO: Igor e Benjamin Doces ME - Travessa …,
      // CNPJ …"): the block ends there, whatever stands under that wide cell.
      if (label && f.length - (label.index + label[0].length) > 40) return;
      let cur: [number, number] | null = [i, j];
      for (let k = 0; k < 5 && cur; k++) {
        const c: { x0: number; x1: number } = doc.lines[cur[0]]!.cells[cur[1]]!;
        cur = cellBelow(doc, cur[0], c.x0, c.x1, 1);
        // The seller's label further down the column ("CUSTOMER NAME" … "ENERGY SERVICE PROVIDER"): the block ends.
        if (cur && sellerLabelCell(doc.folded[cur[0]]![cur[1]]!)) break;
        if (cur) customer.add(`${cur[0]}:${cur[1]}`);
      }
    });
  });

  // A Japanese addressee: the name before its honorific ("有限会社ジェイシー技研 | 御中", "山田 太郎 様").
  doc.lines.forEach((line, i) => {
    line.cells.forEach((cell, j) => {
      const t = cell.text.trim();
      const honorific = HONORIFIC.exec(t);
      if (honorific?.index === 0 && j > 0) customer.add(`${i}:${j - 1}`);
      else if (honorific && honorific.index > 0 && /[\u3040-\u30ff\u4e00-\u9fff]/.test(t)) customer.add(`${i}:${j}`);
    });
  });

  // An address headed by a person's title ("M DE LATTRE ALEXIS" over "ALEXINUX SARL", street, town) is the
  // customer's, a telecom or utility bill's addressee; so is one headed by the person's own name (a sync knows it).
  doc.lines.forEach((line, i) => {
    if (line.page !== 1 || line.rel > 0.5) return;
    line.cells.forEach((cell, j) => {
      if (!personTitled(cell.text) && !((ownNames.length || ownDomains.length) && isOwn(cell.text))) return;
      customer.add(`${i}:${j}`);
      let cur: [number, number] | null = [i, j];
      for (let k = 0; k < 4 && cur; k++) {
        const c: { x0: number; x1: number } = doc.lines[cur[0]]!.cells[cur[1]]!;
        cur = cellBelow(doc, cur[0], c.x0, c.x1, 1);
        if (cur) customer.add(`${cur[0]}:${cur[1]}`);
      }
    });
  });

  // Window envelopes: the small return-address line ("Company - Street 1 - 12345 City") sits right above the
  // recipient's address, so the lines below it are the customer's.
  doc.lines.forEach((line, i) => {
    if (line.page !== 1 || line.rel > 0.35) return;
    if (!returnAddressParts(line)) return;
    let cur: [number, number] | null = [i, 0];
    for (let k = 0; k < 4 && cur; k++) {
      const c: { x0: number; x1: number } = doc.lines[cur[0]]!.cells[cur[1]]!;
      cur = cellBelow(doc, cur[0], c.x0, c.x1, 1);
      if (cur) customer.add(`${cur[0]}:${cur[1]}`);
    }
  });

  // The customer's name as their block prints it: the same name elsewhere ("Buyer Name | X" up top, X again under
  // "Invoice To:" where the block rule cannot reach it) is still the customer.
  for (const key of customer) {
    const [i, j] = key.split(':').map(Number) as [number, number];
    let text = doc.lines[i]?.cells[j]?.text ?? '';
    // "Licensed To: X", "Bill to: X": the name after its label in the same cell.
    const labelled = /^([^:]{3,30}):\s*(\S.*)$/.exec(text);
    const labelWords = labelled ? foldPlain(labelled[1]!).trim() : '';
    if (labelled && CUSTOMER_LABEL.exec(labelWords)?.[0] === labelWords) text = labelled[2]!;
    if (/\d/.test(text) || isLabel(text) || isPartyWord(doc.folded[i]![j]!) || !companyLike(text)) continue;
    const core = coreName(text);
    if (core.length >= 5) customerNames.add(core);
  }

  // The first line of page 1, past a title or a table field standing alone above the letterhead ("Rechnungsbeispiel",
  // "Numéro table").
  let firstLine = doc.lines.findIndex((l) => l.page === 1);
  const opening = doc.lines[firstLine];
  const firstFolded = foldPlain(opening?.text ?? '').trim();
  if (
    opening?.cells.length === 1 &&
    (titleOnly(firstFolded) || TABLE_FIELD.test(firstFolded)) &&
    doc.lines[firstLine + 1]?.page === 1
  )
    firstLine += 1;
  const page1Sizes = doc.lines.filter((l) => l.page === 1 && l.rel < 0.3).map((l) => l.size);
  const maxTop = Math.max(0, ...page1Sizes);
  const allSizes = doc.lines
    .filter((l) => l.page === 1)
    .map((l) => l.size)
    .sort((a, b) => a - b);
  const medianSize = allSizes[Math.floor(allSizes.length / 2)] ?? 10;

  doc.lines.forEach((line, i) => {
    line.cells.forEach((cell, j) => {
      const f = doc.folded[i]![j]!;
      const inCustomer = customer.has(`${i}:${j}`);
      // 1. Seller label.
      // At the start of a cell ("Seller: X") or anywhere when a colon follows ("… – Account holder: X").
      const vl =
        [...f.matchAll(VENDOR_LABEL_ALL)].find(
          (m) =>
            (m.index ?? 0) <= 2 ||
            /^\s*:/.test(f.slice((m.index ?? 0) + m[0].length)) ||
            // A qualified label alone in its cell ("ENERGY SERVICE PROVIDER").
            ((m.index ?? 0) + m[0].length >= f.trim().length - 1 && sellerLabelCell(f)),
        ) ?? null;
      // The label must stand alone ("Seller:", "Lieferant") — "Lieferant GmbH" is a name, not a label.
      const after = vl ? f.slice((vl.index ?? 0) + vl[0].length) : '';
      // A label ending in a preposition ("Payable to", "Issued by") may run straight into the name.
      const runsOn =
        vl !== null &&
        /\s(?:to|by|von|par|da|por|door)$/.test(vl[0]) &&
        /^\s+\p{Lu}/u.test(cell.text.slice((vl.index ?? 0) + vl[0].length));
      // "From : DEL | To : IXU" (a flight's route), "From: 01.03. To: …": a journey or a period, no party.
      const route = vl !== null && vl[0] === 'from' && doc.folded[i]!.some((x, n) => n !== j && /^to\s*:/.test(x));
      if (vl && !route && !/from\s+\d/.test(f) && (/^\s*[:/]/.test(after) || !after.trim() || runsOn)) {
        sellerLabelled = true;
        let rest = cell.text.slice((vl.index ?? 0) + vl[0].length).replace(/^[\s:/]+/, '');
        // More label words, no name ("Cedente/prestatore (fornitore)", FatturaPA's heading): a section header.
        if (
          rest &&
          foldPlain(rest)
            .replace(VENDOR_LABEL_ALL, ' ')
            .replace(/[\s()/:,-]+/g, '') === ''
        )
          rest = '';
        // The next cell is the label's value unless it is a figure (a tax id in a form's next column) or the value
        // of another column's header ("Prestador | NFS-e Gerada" under "Situação da NFS-e").
        const next = line.cells[j + 1];
        const head = next ? labelAbove(doc, i, j + 1) : null;
        const nextIsValue =
          next !== undefined &&
          // Not a cell across the page ("ENERGY SERVICE PROVIDER … PEAK DEMAND"): another column's.
          next.x0 - cell.x1 < 15 * line.size &&
          // Abbreviations in a list, another field's label ("CNPJ / CPF / NIF", "VAT / GST No").
          !/^(?:[\p{L}.]{2,6}\s*\/\s*)+[\p{L}.]{2,6}(?:\s+no\.?)?\s*:?$/iu.test(next.text.trim()) &&
          // A name with its legal form up front ('ООО "Ромашка", ИНН …') is the value whatever stands above it.
          (LEGAL_FORM.exec(next.text)?.index === 0 ||
            (!isLabel(next.text) &&
              !isPartyWord(doc.folded[i]![j + 1]!) &&
              !/^[\d\s./-]+$/.test(next.text) &&
              // ("名称: X" carries its own label, and so its own value.)
              !(head && !next.text.includes(':') && !NAME_LABEL.test(foldPlain(head)) && !VENDOR_LABEL.test(head))));
        if (rest) add(rest.split(/\s[-|]\s|,\s(?=\d)/)[0]!, 0.85, i);
        else if (nextIsValue) {
          // "ООО "Ромашка", ИНН 7701234567, г. Москва": the name ends where its tax id or address begins.
          add(next.text.split(/,\s*(?=(?:ИНН|КПП|ОГРН|ЄДРПОУ|ЕДРПОУ|ІПН|\d))/u)[0]!, 0.83, i);
        } else {
          // A section header ("Verkäufer", "Seller") over a block: its "Name:" row, or its first plain value in the
          // header's column.
          for (let k = i + 1; k < Math.min(doc.lines.length, i + 7); k++) {
            const l = doc.lines[k]!;
            if (l.page !== line.page) break;
            let ci = l.cells.findIndex((c) => c.x0 < cell.x1 + 4 && c.x1 > cell.x0 - 4);
            // A heading centred over its block ("ELADÓ" over left-aligned lines): the cell that starts in the
            // heading's column, between the previous heading and the next.
            if (ci < 0) {
              const left = j > 0 ? line.cells[j - 1]!.x1 : Number.NEGATIVE_INFINITY;
              const right = line.cells[j + 1]?.x0 ?? Number.POSITIVE_INFINITY;
              ci = l.cells.findIndex((c) => c.x0 >= left && c.x0 < Math.min(right, cell.x0));
            }
            if (ci < 0) continue;
            // Letter-spaced layouts split one phrase into several cells: read the row from the header's column on.
            // It stops at the next header's column ("Lieferant | Käufer" over two address blocks).
            const nextHeader = line.cells[j + 1]?.x0 ?? Number.POSITIVE_INFINITY;
            const rowCells = l.cells
              .slice(ci)
              .filter((c, n) => n === 0 || (c.x0 < cell.x0 + 260 && c.x0 < nextHeader - 0.5 * line.size));
            const c = {
              ...l.cells[ci]!,
              text: rowCells
                .map((x) => x.text)
                .join(' ')
                .replace(/\s+:/g, ':'),
            };
            const cf = foldPlain(c.text);
            const named = /^(.*?):\s*(.*)$/.exec(c.text);
            if (NAME_LABEL.test(cf.replace(/:.*$/, ':')) || (named && NAME_LABEL.test(foldPlain(named[1]!)))) {
              // A form's row of field labels with their values in the row below ("Nome / Nome Empresarial |
              // Município / Sigla UF" over "X Ltda | São Vicente / SP"): the value under this label.
              const formRow = !named && l.cells.length > 1 && l.cells.every((x) => !/\d/.test(x.text));
              const under = formRow ? cellBelow(doc, k, c.x0, c.x1, 1) : null;
              const v =
                named?.[2]?.trim() ||
                (under ? doc.lines[under[0]]!.cells[under[1]]!.text : l.cells[ci + rowCells.length]?.text);
              if (v) add(v, 0.82, k);
              break;
            }
            const cleaned = cleanVendor(c.text);
            // Another label in the column ("Vendedor:" over "Orden de Compra:"), not a value.
            if (cleaned.includes(':') || /:\s*$/.test(c.text) || isPartyWord(cf)) continue;
            if (plausibleName(cleaned)) {
              add(cleaned, 0.75, k);
              break;
            }
          }
        }
      }
      // A Brazilian DANFE's receipt stub: "RECEBEMOS DE <issuer> OS PRODUTOS/SERVIÇOS CONSTANTES DA NOTA FISCAL …".
      const stub = /recebemos de\s+(.+?)\s+os produtos/i.exec(cell.text);
      if (stub) add(stub[1]!, 0.85, i);
      const sold = /sold by\s+(.+)$/i.exec(cell.text);
      if (sold && !vl) {
        sellerLabelled = true;
        add(sold[1]!.replace(/\.$/, ''), 0.7, i);
      }
      if (inCustomer) return;
      // 2. Return address line "Company - Street 1 - 12345 City".
      const parts = j === 0 ? returnAddressParts(line) : null;
      if (parts && line.page === 1 && line.rel < 0.35) add(parts[0]!, LEGAL_FORM.test(parts[0]!) ? 0.8 : 0.65, i);
      // 2b. The legal footer line: "Acme GmbH · Registergericht …", "Atelier Durand SARL · SIRET …", "X B.V. · KvK …".
      // The name in front of the first separator of a line that states the issuer's registration.
      if (line.rel > 0.75 && j === 0 && REGISTRATION.test(f)) {
        const head = cell.text.split(/\s+[·|•–-]\s+|\s*[,;]\s+/)[0]!;
        if (
          head.length < cell.text.length &&
          !/[\d:]/.test(head) &&
          !REGISTRATION.test(foldPlain(head)) &&
          !NOT_A_COMPANY.test(foldPlain(head))
        )
          add(head, LEGAL_FORM.test(head) ? 0.8 : 0.7, i);
      }
      // A footer in columns: the firm's name heads the first, its registration or bank heads another on the same
      // line ("Havbris Sjømat AS | Org.nr. 279 540 701 MVA | Tlf. …").
      if (
        line.rel > 0.75 &&
        j === 0 &&
        line.cells.length > 1 &&
        !REGISTRATION.test(f) &&
        LEGAL_FORM.test(cell.text) &&
        !/\d/.test(cell.text) &&
        doc.folded[i]!.slice(1).some((c) => REGISTRATION.test(c) || ISSUER_STRONG_ID.test(c))
      )
        add(cell.text, 0.8, i);
      // 3. Legal form.
      const lf = LEGAL_FORM.exec(cell.text);
      // A receipt's cashier line "UKST: 3322 Dirk Rossmann GmbH": a label and a number in front of the name.
      const tagged = lf ? /^[\p{L}.\s-]{0,20}:\s*\d+\s+(?=\p{Lu})/u.exec(cell.text.slice(0, lf.index)) : null;
      const from = tagged ? tagged[0].length : 0;
      // "Adelaide SA 5000": a state and its postcode, not a company's legal form; "2KG": a weight.
      const postcode = lf
        ? /^\s*\d{4,5}(?!\d)/.test(cell.text.slice((lf.index ?? 0) + lf[0].length)) ||
          /\d$/.test(cell.text.slice(0, lf.index))
        : false;
      // An item row whose unit column reads as a legal form ("EPINARD FEUILLES CAT II | KG | FR | 1 | 5 | 3,43 |
      // 17,15"): figures and prices follow it in their own cells.
      const rest = line.cells.slice(j + 1).map((c) => c.text.trim());
      const itemRow =
        rest.filter((t) => /^[-\d\s.,%]+$/.test(t)).length >= 3 && rest.some((t) => /\d[.,]\d{2}$/.test(t));
      if (lf && !postcode && !itemRow && !addressLike(cell.text.slice(from, (lf.index ?? 0) + lf[0].length))) {
        let name = cell.text.slice(from, (lf.index ?? 0) + lf[0].length);
        // A form in front of a quoted name ('ООО "Ромашка"', "ТОВ «Світанок»", 'SC "Alfa" SRL'): the two together.
        const quoted = /^\s*([«"“„'])([^»"”'\n]{2,60})([»"”'])/u.exec(cell.text.slice(lf.index + lf[0].length));
        if (quoted && lf.index - from <= 1) name = `${lf[0]} ${quoted[1]}${quoted[2]}${quoted[3]}`;
        // A Japanese form in front of the name ("株式会社イー・ビジネス", "(株)山田商店"): the name runs on after it, up to
        // an honorific, which makes it the addressee ("… 御中", "… 様").
        else if (
          JAPANESE_PREFIX_FORM.test(lf[0]) &&
          /^\s?[\p{L}\p{N}]/u.test(cell.text.slice(lf.index + lf[0].length))
        ) {
          const whole = cell.text.slice(from).trim();
          if (HONORIFIC.test(whole.replace(/\s+/g, ''))) return;
          name = whole;
        }
        // "toom | Baumarkt | GmbH": a name spaced into cells, the legal form in the last one.
        if (lf.index === 0 && j > 0 && line.cells.slice(0, j).every((c) => !/\d/.test(c.text)))
          name = `${line.cells
            .slice(0, j)
            .map((c) => c.text)
            .join(' ')} ${name}`;
        // A name that starts a new sentence of running text ("… erfolgte am 19.08.2016 18:55 Uhr. DB Fernverkehr AG"):
        // the sentence before it (three words or more, or figures) is no part of it; "Gebr. Müller GmbH" keeps its "Gebr.".
        const sentence = /^(.*[a-z\d]{2}[.!?])\s+(?=\p{Lu})/u.exec(name);
        if (sentence && (sentence[1]!.split(/\s+/).length >= 3 || /\d/.test(sentence[1]!)))
          name = name.slice(sentence[0].length);
        // "Sarl au capital de …", "Regd. office: X Ltd": keep the name part only.
        name = name.replace(/^.*?:\s*/, '');
        const words = name.split(/\s+/).length;
        // A product line with a legal form somewhere in it ("TITAN 150 04/08 (PT) HONDA ASA"): figures, no name.
        const figures = (name.match(/\d+/g) ?? []).length >= 2 || /\d\/\d/.test(name);
        if (words <= 8 && !figures) {
          let score = 0.55;
          if (line.page === 1 && line.rel < 0.3) score += 0.15;
          if (line.rel > 0.8) score += 0.05;
          if (line.size >= maxTop && maxTop > 0) score += 0.05;
          add(name, score, i);
        }
      }
      // 4. The biggest text at the top of page 1 (letterhead).
      // Not a line that starts with a count ("2 KPL", "1 x Coffee"): a receipt's items print in the letterhead's type.
      // Nor a message in the letterhead's type ("Here's your updated trip receipt", "Thanks for your order").
      if (
        line.page === 1 &&
        // A photo's background may push even its first line down the picture.
        (line.rel < 0.25 || (i === firstLine && line.rel < 0.45)) &&
        j === 0 &&
        !addressLike(cell.text) &&
        !/^\d+\s/.test(cell.text) &&
        !MESSAGE.test(f) &&
        // A form's value under its field's label ("BILLING FREQUENCY | BILL TYPE" over "MONTHLY REGULAR").
        !FIELD_NOUN.test(labelAbove(doc, i, j) ?? '') &&
        !headlineContinued(doc, i, j)
      ) {
        const big = line.size >= maxTop * 0.98 && maxTop > 0;
        const first = i === firstLine;
        // A letterhead clearly larger than the body text (and not the document title) is the issuer's name.
        const dominant = big && line.size >= 1.35 * medianSize && !inCustomer;
        if (big || first) add(cell.text, dominant ? 0.72 : big && first ? 0.5 : big ? 0.45 : 0.4, i);
      }
    });
  });

  // 4b. A Japanese issuer's block: the name over the address ("近藤 祥平" over "東京都調布市…" or "〒182-0022"), right of
  // or under the addressee's "御中" line. A person's name carries no legal form, so the block is what marks it.
  if (doc.lang === 'ja')
    doc.lines.forEach((line, i) => {
      if (line.page !== 1 || line.rel > 0.5) return;
      line.cells.forEach((cell, j) => {
        if (!JAPANESE_ADDRESS.test(cell.text.trim()) || customer.has(`${i}:${j}`)) return;
        for (let k = i - 1; k >= Math.max(0, i - 2); k--) {
          const l = doc.lines[k]!;
          if (l.page !== line.page || line.y0 - l.y1 > 3 * line.size) break;
          const h = l.cells.findIndex((c) => c.x0 < cell.x1 && c.x1 > cell.x0);
          if (h < 0) continue;
          const name = l.cells[h]!.text.trim();
          if (
            !customer.has(`${k}:${h}`) &&
            /^[\p{L}・ー ]{2,20}$/u.test(name) &&
            !JAPANESE_ADDRESS.test(name) &&
            !isLabel(name) &&
            !TITLE_WORDS.test(foldPlain(name))
          )
            add(name, 0.62, k);
          break;
        }
      });
    });

  // 5. The issuer's block: the first line of the address block (same column, consecutive lines) that carries a bank
  // account or a registration (strong) or a tax id (weak: customers' blocks print theirs too), outside the customer's
  // block; a one-line footer ("Kestrel Logistics · 5 Harbour Way · VAT No. … · IBAN …") names it before the first
  // separator.
  const seenBlocks = new Set<number>();
  doc.lines.forEach((line, i) => {
    line.cells.forEach((cell, j) => {
      const f = doc.folded[i]![j]!;
      // An identifier must follow ("VAT 20%" is a rate, "Bank details" a heading).
      if (!ISSUER_STRONG_ID.test(f) && !TAX_ID.test(f)) return;
      if (!/\d[\d\s./-]{4,}\d/.test(cell.text) || customer.has(`${i}:${j}`)) return;
      // A bank account or registration anywhere on the line makes the block the issuer's ("USt-IdNr. … | IBAN …").
      const strong = ISSUER_STRONG_ID.test(doc.folded[i]!.join(' '));
      const score = strong ? 0.82 : 0.72;
      if (j === 0 && line.rel > 0.75 && /\s[·|•–]\s/.test(cell.text)) {
        const head = cell.text.split(/\s+[·|•–]\s+/)[0]!;
        const fh = foldPlain(head);
        if (!/[\d:]/.test(head) && !ISSUER_STRONG_ID.test(fh) && !TAX_ID.test(fh) && !NOT_A_COMPANY.test(fh)) {
          if (!ADDRESSY.test(head) && companyLike(head)) add(head, score, i);
        }
        return;
      }
      // Walk up the block over address, contact and id lines to its first line, which must be a name.
      let top: [number, number] = [i, j];
      let name: [number, number] | null = null;
      for (let k = i - 1; k >= 0 && k >= i - 8; k--) {
        const l = doc.lines[k]!;
        const prev = doc.lines[top[0]]!;
        if (l.page !== line.page || prev.y0 - l.y1 > 1.6 * Math.max(l.size, prev.size)) break;
        const c = prev.cells[top[1]]!;
        // Left-aligned, or centred as on a receipt's header.
        const hit = l.cells.findIndex(
          (x) => Math.abs(x.x0 - c.x0) < 1.5 * l.size || Math.abs(x.x0 + x.x1 - c.x0 - c.x1) < 2 * l.size,
        );
        if (hit < 0) continue;
        if (customer.has(`${k}:${hit}`)) break;
        const text = l.cells[hit]!.text;
        if (findAmounts(text).length) break;
        if (
          BLOCK_LINE.test(text) ||
          DISTRICT_PROVINCE.test(text) ||
          ISSUER_STRONG_ID.test(doc.folded[k]![hit]!) ||
          TAX_ID.test(doc.folded[k]![hit]!)
        ) {
          if (l.size > 1.6 * line.size) break;
          top = [k, hit];
          continue;
        }
        // "Geschäftsführer: A (Vors.)," over "B": the second line continues a list of officers, not a name.
        const over =
          k > 0 ? doc.lines[k - 1]!.cells.find((x) => Math.abs(x.x0 - l.cells[hit]!.x0) < 1.5 * l.size) : null;
        if (over && /,\s*$/.test(over.text) && NOT_A_COMPANY.test(foldPlain(over.text))) {
          top = [k, hit];
          continue;
        }
        // Under "Geschäftsführung:" / "Managing Director:" stands a person, the officer, not the company.
        if (over && /:\s*$/.test(over.text) && NOT_A_COMPANY.test(foldPlain(over.text))) return;
        name = [k, hit];
        break;
      }
      // A footer of a few centred lines whose first starts with the name ("MixCont AB, Sankta gertrudsväg 10, …"
      // over "Telefon …" over "Organisationsnr …"): the name before the first separator of the block's top line.
      if (!name && top[0] !== i) {
        const topText = doc.lines[top[0]]!.cells[top[1]]!.text;
        const head = topText.split(/\s*[,·|•–]\s+/)[0]!;
        if (head.length < topText.length && LEGAL_FORM.test(head) && !/\d/.test(head) && companyLike(head))
          add(head, score, top[0]);
        return;
      }
      if (!name || seenBlocks.has(name[0] * 1000 + name[1])) return;
      seenBlocks.add(name[0] * 1000 + name[1]);
      const text = withoutBranchNumber(doc.lines[name[0]]!.cells[name[1]]!.text);
      const fn = foldPlain(text);
      const sentence =
        /[!?]$/.test(text) ||
        (/\.$/.test(text) && !LEGAL_FORM.test(text) && !LOWER_LEGAL_END.test(text)) ||
        text.split(/\s+/).length > 6;
      if (sentence || /\d/.test(text) || isLabel(text) || isPartyWord(fn) || NOT_A_COMPANY.test(fn)) return;
      if (TOTAL_WORDS.test(fn) || !companyLike(text)) return;
      add(text, score, name[0]);
    });
  });

  // 5b. An address block's head with no id to confirm it: a short name right above a street, a postcode or a contact
  // line in its column, near the top of page 1 and outside the customer's block ("WeasyPrint" over "26 rue Emile
  // Decorps"; a freelancer's name over their mail address). Weak: any labelled, legal-form or id signal outranks it;
  // of two such blocks the left one (the customer's usually stands right, or is labelled).
  const heads: Array<{ text: string; x0: number; line: number }> = [];
  doc.lines.forEach((line, i) => {
    // A table's header row ("StockNo | Item # | Make | …") is no address block.
    if (line.page !== 1 || line.rel > 0.35 || line.cells.length > 2) return;
    line.cells.forEach((cell, j) => {
      const text = withoutBranchNumber(cell.text.trim());
      const figures = /\d/.test(text) && !LEGAL_END.test(text);
      if (customer.has(`${i}:${j}`) || figures || /[@:]/.test(text) || text.split(/\s+/).length > 5) return;
      const fn = doc.folded[i]![j]!;
      if (isLabel(text) || isPartyWord(fn) || NOT_A_COMPANY.test(fn) || TOTAL_WORDS.test(fn) || addressLike(text))
        return;
      if (TITLE_WORDS.test(fn) || !companyLike(text)) return;
      // The next line of its column (a side column's rows may stand between), or the one after it (a site or
      // building name before the street: "Parc d'activités de Tronquières" over "14 avenue du Garric").
      let [from, top] = [i, line];
      for (let step = 0; step < 2; step += 1) {
        const below = cellBelow(doc, from, cell.x0, cell.x1, 3);
        if (!below) return;
        const next = doc.lines[below[0]]!;
        const c = next.cells[below[1]]!;
        if (Math.abs(c.x0 - cell.x0) > 1.5 * line.size || next.y0 - top.y1 > 2.5 * line.size) return;
        if (customer.has(`${below[0]}:${below[1]}`)) return;
        if (next.cells.filter((x) => x.x0 < c.x1 + 6 * next.size && x.x1 > c.x0).length > 2) return;
        // A street, a town or a contact: words, not a row of figures.
        if (ADDRESSY.test(c.text) && /\p{L}{3}/u.test(c.text)) {
          heads.push({ text, x0: cell.x0, line: i });
          return;
        }
        // Only a line of words (no figures, no label) may stand between the name and its street.
        if (/\d|:/.test(c.text) || !/\p{L}{3}/u.test(c.text)) return;
        [from, top] = [below[0], next];
      }
    });
  });
  const leftmost = Math.min(...heads.map((h) => h.x0));
  // Only where no other signal named it: a block's place is no second sighting of a name found already.
  for (const h of heads)
    if (!scores.has(keyOf(cleanVendor(h.text)))) add(h.text, h.x0 === leftmost ? 0.5 : 0.46, h.line);

  // 6. The page's own web or mail domain names the issuer: raise the candidates spelt like it, and take a block's
  // first line near the top or in the footer that is (no customer block, no digits, a few words).
  // The sender's domain (a sync knows it) names the issuer like a domain printed on the page, unless it is the
  // person's own (a document they sent themselves).
  const sender = mailDomainName(hints.senderEmail);
  const domains = [
    ...new Set([...pageDomains(doc, customer), ...(sender && !ownDomains.includes(sender) ? [sender] : [])]),
  ].filter((d) => !ownDomains.includes(d));
  if (domains.length) {
    for (const c of scores.values()) if (matchesDomain(c.name, domains)) c.score += 0.06;
    // The mail came from this name's domain: stronger than a name guessed from the layout (a legal form, a heading),
    // but a seller label decides alone (a marketplace mails the invoices its sellers issue).
    if (sender && !sellerLabelled)
      for (const c of scores.values())
        if (matchesDomain(c.name, [sender])) c.score = Math.max(c.score, Math.min(c.score + 0.3, 0.84));
    doc.lines.forEach((line, i) => {
      if (line.page !== 1 || (line.rel > 0.35 && line.rel < 0.8)) return;
      line.cells.forEach((cell, j) => {
        if (customer.has(`${i}:${j}`) || /[\d@:]/.test(cell.text) || cell.text.split(/\s+/).length > 5) return;
        if (isPartyWord(doc.folded[i]![j]!) || NOT_A_COMPANY.test(doc.folded[i]![j]!)) return;
        if (companyLike(cell.text) && matchesDomain(cell.text, domains)) add(cell.text, 0.74, i);
      });
    });
    // A brand written out in a sentence ("Vos services Bouygues Telecom") whose capitalised words spell the domain
    // (bouyguestelecom.fr): the issuer's name when nothing better names it. Two words at least (one word spelling
    // the domain is the rule above's), and each brand once: a product line ("Amazon Glacier", "Amazon S3") repeats
    // the brand's first word on every row, which must not outweigh the printed legal name ("Amazon Web Services, Inc.").
    // One word spelling the domain exactly, repeated in the running text ("… SHOP 24 HOURS AT SHOP-AID" on a receipt
    // that prints shop-aid.com): the brand, when nothing better names the issuer.
    const spelt = new Map<string, { word: string; n: number; line: number }>();
    doc.lines.forEach((line, i) => {
      line.cells.forEach((cell, j) => {
        if (customer.has(`${i}:${j}`)) return;
        for (const w of cell.text.split(/[\s,.;:!?()]+/)) {
          if (!/^\p{Lu}[\p{L}&'-]*$/u.test(w)) continue;
          const joined = foldPlain(w.replace(/'s$/i, '')).replace(/[^a-z\d]/g, '');
          if (joined.length < 5 || !domains.includes(joined)) continue;
          const seen = spelt.get(joined) ?? { word: w.replace(/'s$/i, ''), n: 0, line: i };
          seen.n += 1;
          spelt.set(joined, seen);
        }
      });
    });
    for (const { word, n, line } of spelt.values()) if (n >= 2) add(word, 0.6, line);
    // The issuer's footer line (its bank account or registry number with its web or mail address: "info@welplast.nl,
    // KVK 08113875, IBAN …") names the domain of a seller whose name is only in its logo: the domain's name, when no
    // candidate is spelt like it, a little above a block guessed from the layout alone.
    if (![...scores.values()].some((c) => matchesDomain(c.name, domains)))
      doc.lines.forEach((line, i) => {
        if (line.rel < 0.7 || !ISSUER_STRONG_ID.test(doc.folded[i]!.join(' '))) return;
        const near = [doc.lines[i - 1], line, doc.lines[i + 1]].filter((l) => l && l.page === line.page);
        for (const l of near)
          for (const m of l!.text.matchAll(/(?:@|\bwww\.)([\p{L}\d-]{4,})\.[a-z]{2,6}\b/giu)) {
            const label = m[1]!;
            const name = foldPlain(label).replace(/-/g, '');
            // (The page's domains leave free-mail ones out already; billing services' still stand among them.)
            if (!domains.includes(name) || SENDING_SERVICE.test(name)) continue;
            add(label.charAt(0).toUpperCase() + label.slice(1), 0.52, i);
          }
      });
    const brands = new Set<string>();
    doc.lines.forEach((line, i) => {
      line.cells.forEach((cell, j) => {
        if (customer.has(`${i}:${j}`)) return;
        const words = cell.text.split(/\s+/);
        for (let a = 0; a < words.length; a++)
          for (let b = a + 2; b <= Math.min(words.length, a + 3); b++) {
            const run = words.slice(a, b);
            if (!run.every((w) => /^\p{Lu}[\p{L}&-]*$/u.test(w))) break;
            const joined = foldPlain(run.join('')).replace(/[^a-z\d]/g, '');
            if (joined.length >= 5 && domains.includes(joined) && !brands.has(joined)) {
              brands.add(joined);
              add(run.join(' '), 0.62, i);
            }
          }
      });
    });
  }

  const firstLines = doc.lines.filter((l) => l.page === 1).slice(0, 6);
  let slip: boolean | undefined;
  // 6b. A shop that calls itself by its web address at the head of its slip ("Saathimart .com", "Amazon.com"): that
  // name, a little above a letterhead guessed from type size.
  firstLines.slice(0, 3).forEach((line) => {
    const i = doc.lines.indexOf(line);
    line.cells.forEach((cell, j) => {
      if (customer.has(`${i}:${j}`)) return;
      const m =
        /^\s*(\p{L}[\p{L}\d-]{2,30})\s?\.\s?(com|net|org|shop|store|co\.uk|co|in|de|fr|it|es|nl|com\.au|com\.br|pl|ro)\s*$/iu.exec(
          cell.text,
        );
      if (m) add(`${m[1]}.${m[2]!.toLowerCase()}`, 0.76, i);
    });
  });

  // 7. A chain's name at the head of the first page or in its last lines (a till slip's logo and its "Thank you for
  // shopping at …"), spelt right or as OCR misreads a logo ("LDL", "L$DL"): the chain (merchants.ts). Above a
  // letterhead or a legal form guessed from the layout, below a seller label.
  doc.lines.forEach((line, i) => {
    const head = firstLines.includes(line);
    if (line.page !== 1 || !(head || line.rel > 0.85)) return;
    // Each cell, and the whole line where the name is spaced into cells ("toom | Baumar kt | GmbH").
    const texts = line.cells.flatMap((cell, j) => (customer.has(`${i}:${j}`) ? [] : [cell.text]));
    if (texts.length === line.cells.length && texts.length > 1) texts.push(line.cells.map((c) => c.text).join(' '));
    // A name and a slogan or branch after a dash ("Lidl - 10 Years in Ireland", "REWE | Markt Köln"): the name.
    for (const t of [...texts]) {
      const lead = t.split(RETURN_SEP)[0]!;
      if (lead !== t) texts.push(lead);
    }
    for (const text of texts) {
      const chain = knownMerchant(text, !head);
      if (!chain || isOwn(chain.name)) continue;
      // On a till's slip, above a letterhead or a legal form; on an invoice (a supplier's to a chain, whose name may
      // head the page as the customer's) no more than a letterhead.
      slip ??= receiptLike(doc);
      add(chain.name, (slip ? 0.8 : 0.7) - (chain.exact ? 0 : 0.02), i);
    }
    // A till slip's head line with the chain and its branch's place ("ALFAMART ARTHA GADING N / 0812…"): a long
    // chain name spelt exactly as its first word, on a slip only (an invoice's "Müller Haustechnik" is another firm).
    const firstWord = head ? (line.cells[0]?.text.trim().split(/\s+/)[0] ?? '') : '';
    if (firstWord.length >= 6 && !customer.has(`${i}:0`) && firstWord !== line.cells[0]!.text.trim()) {
      const chain = knownMerchant(firstWord, true);
      if (chain?.exact && !isOwn(chain.name)) {
        slip ??= receiptLike(doc);
        if (slip) add(chain.name, 0.74, i);
      }
    }
  });

  // 7b. The chain's own web or mail address on a till slip ("www.lidl.de" under the slip's thanks), where its logo was
  // not read: the chain, below one read from the slip's lines.
  slip ??= receiptLike(doc);
  if (slip)
    doc.lines.forEach((line, i) => {
      if (line.page !== 1) return;
      const chain = merchantFromDomain(line.text);
      if (chain && !isOwn(chain)) add(chain, 0.74, i);
    });

  // A logo read by OCR ("(ontoso", "@ontoso") is the name of the address block ("Contoso LTD") with a letter or two
  // misread: the two are one candidate, under the clean spelling, seen twice.
  const list = [...scores.values()];
  for (const a of list)
    for (const b of list) {
      if (a === b || a.score < 0 || b.score < 0) continue;
      const ka = coreName(a.name);
      const kb = coreName(b.name);
      if (ka.length < 5 || kb.length < 5 || ka === kb || editDistance(ka, kb) > 1) continue;
      // b is the misreading when it starts with a non-letter or lacks a legal form that a carries.
      const bNoisy = /^[^\p{L}]/u.test(b.name) || (LEGAL_FORM.test(a.name) && !LEGAL_FORM.test(b.name));
      if (!bNoisy) continue;
      a.score = Math.max(a.score, b.score) + 0.04;
      b.score = -1;
    }
  onCandidates?.([...scores.values()].filter((c) => c.score >= 0).sort((a, b) => b.score - a.score));
  let best: { name: string; score: number; first: number } | null = null;
  for (const c of scores.values()) {
    if (!best || c.score > best.score || (c.score === best.score && c.first < best.first)) best = c;
  }
  return best ? { value: best.name, confidence: Math.min(0.9, best.score) } : null;
}

/**
 * The issuer's name in a text PDF's pictures (a logo or a letterhead drawn as an image, read by OCR with the text
 * layer painted out): the largest group of picture lines, read top-down, where words of a stacked logo ("DE VINCI" over
 * "FABLAB") stand on consecutive lines. OCR's stray marks at the ends ("— ", "$;") are dropped. Only asked when the
 * text names no issuer: weak (0.6), and null when what is left is no plausible name.
 */
export function pictureName(lines: Line[]): FieldGuess<string> | null {
  const clean = (t: string) =>
    t
      .replace(/^[^\p{L}\d]+|[^\p{L}\d.)]+$/gu, '')
      .replace(/\s+/g, ' ')
      .trim();
  const usable = lines
    .filter((l) => l.page === 1)
    .map((l) => ({ l, text: clean(l.text) }))
    .filter(({ text }) => /\p{L}{2}/u.test(text) && !findDates(text).length && !findAmounts(text).length);
  const groups: Array<{ lines: typeof usable; size: number; rel: number }> = [];
  for (const u of usable) {
    const g = groups[groups.length - 1];
    const prev = g?.lines[g.lines.length - 1]?.l;
    const stacked =
      prev &&
      u.l.y0 - prev.y1 < 1.2 * Math.max(prev.size, u.l.size) &&
      u.l.cells[0]!.x0 < prev.cells[prev.cells.length - 1]!.x1 &&
      prev.cells[0]!.x0 < u.l.cells[u.l.cells.length - 1]!.x1;
    if (g && stacked && g.lines.length < 3) {
      g.lines.push(u);
      g.size = Math.max(g.size, u.l.size);
    } else groups.push({ lines: [u], size: u.l.size, rel: u.l.rel });
  }
  // The largest print wins; of equals, the higher on the page (a letterhead opens it).
  groups.sort((a, b) => b.size - a.size || a.rel - b.rel);
  for (const g of groups) {
    let name = cleanVendor(g.lines.map((x) => x.text).join(' '));
    // A speck after the logo read as a closing bracket ("nationalgrid DOO)"): not part of the name.
    if (!name.includes('(')) name = name.replace(/\s+\S*\)$/, '');
    if (!plausibleName(name) || ocrNoise(name) || BANK_NAME.test(foldPlain(name))) continue;
    if (TITLE_WORDS.test(name.toLowerCase()) || isLabel(name) || name.split(/\s+/).length > 6) continue;
    return { value: name, confidence: 0.6 };
  }
  return null;
}
