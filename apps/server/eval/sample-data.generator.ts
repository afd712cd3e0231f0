/**
 * The sample mailbox and bank statement of "Try it with sample data", generated at build time (build.mjs writes them to
 * dist/sample/) from the evaluation's invoice generators and the tests' mail builder, so no binary is committed.
 * Deterministic: the same build writes the same bytes, so a second import of the same mbox adds nothing twice.
 *
 * What is in it: text PDF invoices of 1,000 and more in four number styles (1,234.56 / 1.234,56 / 1 234,56 /
 * 1'234.56) and four languages, a Factur-X PDF (CII XML attached), a scanned invoice (PNG, read by OCR), newsletters,
 * order confirmations and a boarding pass that the §5 rules refuse; and a camt.053 statement of the same months whose
 * debits pay some of those invoices (exactly, by vendor and number), beside a salary and everyday card payments.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SAMPLE_ACCOUNT_EMAIL, SAMPLE_MANIFEST, SAMPLE_MBOX, SAMPLE_STATEMENT } from '../src/sample/sample-files';
import { buildMail, buildMbox } from '../test/mail/mail-builder';
import {
  type Currency,
  formatMoney,
  type GeneratedInvoice,
  generateInvoice,
  type NumberStyle,
} from './invoice.generator';
import { renderPdf, renderScan } from './invoice.renderers';
import type { GenLang } from './vocabulary';

export interface SampleInvoiceTruth {
  file: string;
  kind: 'pdf' | 'facturx' | 'scan';
  vendor: string;
  amount_minor: number;
  currency: string;
  invoice_date: string;
  invoice_number: string;
  style: NumberStyle | null;
  /** Whether the sample statement pays it. */
  paid: boolean;
}

export interface SampleManifest {
  version: number;
  account_email: string;
  messages: number;
  invoices: SampleInvoiceTruth[];
  /** Mails that are not invoices by the §5 rules (newsletters, order confirmations, travel). */
  not_invoices: number;
  statement: { file: string; transactions: number; paid_invoices: number };
}

export interface SampleData {
  mbox: Buffer;
  statement: Buffer;
  manifest: SampleManifest;
}

/** The year the sample's invoices and statement are in: its second half. */
const YEAR = 2025;

/** The first seed from `from` whose invoice fits: one page, the language, style and currency asked, 1,000 or more. */
function findInvoice(
  lang: GenLang,
  style: NumberStyle,
  currency: Currency,
  from: number,
): GeneratedInvoice & { seed: number } {
  for (let seed = from; seed < from + 500_000; seed++) {
    const inv = generateInvoice(seed, lang, 'classic');
    const month = Number(inv.truth.invoice_date.slice(5, 7));
    if (
      inv.style === style &&
      inv.currency === currency &&
      inv.pages === 1 &&
      inv.truth.amount >= 1000 &&
      inv.truth.amount < 20_000 &&
      inv.truth.invoice_date.startsWith(`${YEAR}-`) &&
      month >= 7 &&
      month <= 11
    ) {
      return { ...inv, seed };
    }
  }
  throw new Error(`no sample invoice for ${lang}/${style}/${currency}`);
}

const SUBJECTS: Record<GenLang, (n: string) => string> = {
  en: (n) => `Your invoice ${n}`,
  de: (n) => `Ihre Rechnung ${n}`,
  fr: (n) => `Votre facture ${n}`,
  it: (n) => `La sua fattura ${n}`,
  es: (n) => `Su factura ${n}`,
  ro: (n) => `Factura dumneavoastra ${n}`,
  nl: (n) => `Uw factuur ${n}`,
};
const FILE_WORD: Record<GenLang, string> = {
  en: 'invoice',
  de: 'Rechnung',
  fr: 'facture',
  it: 'fattura',
  es: 'factura',
  ro: 'factura',
  nl: 'factuur',
};

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9-]+/g, '-');
const mailDate = (iso: string, hour = 9) => new Date(`${iso}T${String(hour).padStart(2, '0')}:12:00Z`).toUTCString();
const cents = (amount: number) => Math.round(amount * 100);
const addDays = (iso: string, n: number) => {
  const t = new Date(`${iso}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
};
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Factur-X (EN 16931 CII) invoice: the generated page as text, the XML attached as factur-x.xml. */
async function facturX(inv: GeneratedInvoice): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.load(await renderPdf(inv));
  const t = inv.truth;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"
 xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"
 xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
 <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
 <rsm:ExchangedDocument><ram:ID>${xmlEscape(t.invoice_number)}</ram:ID><ram:TypeCode>380</ram:TypeCode>
  <ram:IssueDateTime><udt:DateTimeString format="102">${t.invoice_date.replace(/-/g, '')}</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
 <rsm:SupplyChainTradeTransaction>
  <ram:ApplicableHeaderTradeAgreement><ram:SellerTradeParty><ram:Name>${xmlEscape(t.vendor)}</ram:Name></ram:SellerTradeParty><ram:BuyerTradeParty><ram:Name>Sample Customer</ram:Name></ram:BuyerTradeParty></ram:ApplicableHeaderTradeAgreement>
  <ram:ApplicableHeaderTradeSettlement><ram:InvoiceCurrencyCode>${t.currency}</ram:InvoiceCurrencyCode>
   <ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:GrandTotalAmount>${t.amount.toFixed(2)}</ram:GrandTotalAmount><ram:DuePayableAmount>${t.amount.toFixed(2)}</ram:DuePayableAmount></ram:SpecifiedTradeSettlementHeaderMonetarySummation>
  </ram:ApplicableHeaderTradeSettlement>
 </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;
  await doc.attach(new TextEncoder().encode(xml), 'factur-x.xml', {
    mimeType: 'text/xml',
    description: 'Factur-X',
  });
  return doc.save({ useObjectStreams: false });
}

interface Payment {
  date: string;
  amountMinor: number;
  type: 'debit' | 'credit';
  name: string;
  text: string;
}

/** A camt.053.001.04 statement of one EUR account; balances follow from the opening balance and the entries. */
function camt053(payments: Payment[], start: string, end: string): string {
  const sorted = [...payments].sort((a, b) => a.date.localeCompare(b.date));
  const opening = 1_250_000;
  const closing = sorted.reduce((b, p) => b + (p.type === 'debit' ? -p.amountMinor : p.amountMinor), opening);
  const amount = (minor: number) => (Math.abs(minor) / 100).toFixed(2);
  const side = (minor: number) => (minor < 0 ? 'DBIT' : 'CRDT');
  const entries = sorted
    .map((p) => {
      const party = p.type === 'debit' ? 'Cdtr' : 'Dbtr';
      return `<Ntry><Amt Ccy="EUR">${amount(p.amountMinor)}</Amt><CdtDbtInd>${p.type === 'debit' ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${p.date}</Dt></BookgDt><ValDt><Dt>${p.date}</Dt></ValDt><NtryDtls><TxDtls><RltdPties><${party}><Nm>${xmlEscape(p.name)}</Nm></${party}></RltdPties><RmtInf><Ustrd>${xmlEscape(p.text)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt><GrpHdr><MsgId>INVOICEBOX-SAMPLE</MsgId><CreDtTm>${end}T08:00:00</CreDtTm></GrpHdr>
<Stmt><Id>SAMPLE-${YEAR}-H2</Id><CreDtTm>${end}T08:00:00</CreDtTm><FrToDt><FrDtTm>${start}T00:00:00</FrDtTm><ToDtTm>${end}T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy><Svcr><FinInstnId><Nm>Sample Bank</Nm></FinInstnId></Svcr></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount(opening)}</Amt><CdtDbtInd>${side(opening)}</CdtDbtInd><Dt><Dt>${start}</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount(closing)}</Amt><CdtDbtInd>${side(closing)}</CdtDbtInd><Dt><Dt>${end}</Dt></Dt></Bal>
${entries}
</Stmt></BkToCstmrStmt></Document>
`;
}

export async function generateSampleData(): Promise<SampleData> {
  const mails: Buffer[] = [];
  const invoices: SampleInvoiceTruth[] = [];
  const payments: Payment[] = [];
  let messageNo = 0;
  const nextId = () => `<sample-${++messageNo}@invoicebox.example>`;

  // Text PDFs, 1,000 and more, in each number style; the EUR ones are paid from the sample statement.
  const pdfs: Array<{ lang: GenLang; style: NumberStyle; currency: Currency; paid: boolean; from: number }> = [
    { lang: 'de', style: 'de', currency: 'EUR', paid: true, from: 1_000 },
    { lang: 'fr', style: 'fr', currency: 'EUR', paid: true, from: 2_000 },
    { lang: 'en', style: 'en', currency: 'USD', paid: false, from: 3_000 },
    { lang: 'de', style: 'ch', currency: 'CHF', paid: false, from: 4_000 },
    { lang: 'nl', style: 'de', currency: 'EUR', paid: true, from: 5_000 },
    { lang: 'en', style: 'en', currency: 'GBP', paid: false, from: 16_000 },
  ];
  for (const spec of pdfs) {
    const inv = findInvoice(spec.lang, spec.style, spec.currency, spec.from);
    const t = inv.truth;
    const file = `${FILE_WORD[spec.lang]}-${fileSafe(t.invoice_number)}.pdf`;
    const shown = `${formatMoney(cents(t.amount), inv.style)} ${t.currency}`;
    mails.push(
      buildMail({
        from: `${t.vendor} <billing@${slug(t.vendor)}.example>`,
        subject: SUBJECTS[spec.lang](t.invoice_number),
        date: mailDate(t.invoice_date),
        messageId: nextId(),
        text: `${t.vendor}\n\n${SUBJECTS[spec.lang](t.invoice_number)}: ${shown}.`,
        attachments: [{ filename: file, contentType: 'application/pdf', content: Buffer.from(await renderPdf(inv)) }],
      }),
    );
    invoices.push({
      file,
      kind: 'pdf',
      vendor: t.vendor,
      amount_minor: cents(t.amount),
      currency: t.currency,
      invoice_date: t.invoice_date,
      invoice_number: t.invoice_number,
      style: inv.style,
      paid: spec.paid,
    });
  }

  // An e-invoice: Factur-X, paid.
  {
    const inv = findInvoice('fr', 'fr', 'EUR', 27_000);
    const t = inv.truth;
    const file = `facture-${fileSafe(t.invoice_number)}-facturx.pdf`;
    mails.push(
      buildMail({
        from: `${t.vendor} <factures@${slug(t.vendor)}.example>`,
        subject: `Facture électronique ${t.invoice_number} (Factur-X)`,
        date: mailDate(t.invoice_date, 10),
        messageId: nextId(),
        text: `Veuillez trouver ci-joint votre facture ${t.invoice_number} au format Factur-X.`,
        attachments: [{ filename: file, contentType: 'application/pdf', content: Buffer.from(await facturX(inv)) }],
      }),
    );
    invoices.push({
      file,
      kind: 'facturx',
      vendor: t.vendor,
      amount_minor: cents(t.amount),
      currency: t.currency,
      invoice_date: t.invoice_date,
      invoice_number: t.invoice_number,
      style: inv.style,
      paid: true,
    });
  }

  // A scanned invoice (a phone photo of paper): read by OCR.
  {
    const inv = findInvoice('en', 'en', 'EUR', 8_000);
    const t = inv.truth;
    const file = 'invoice-scan.png';
    const png = await renderScan(inv, {
      dpi: 150,
      skewDeg: 0.4,
      quarterTurns: 0,
      noise: 0.0005,
      blur: false,
      format: 'png',
      seed: 8,
    });
    mails.push(
      buildMail({
        from: `Office Scanner <scanner@sample-office.example>`,
        subject: `Scanned document: ${t.vendor}`,
        date: mailDate(t.invoice_date, 16),
        messageId: nextId(),
        text: 'Scanned by the office multifunction printer.',
        attachments: [{ filename: file, contentType: 'image/png', content: Buffer.from(png) }],
      }),
    );
    invoices.push({
      file,
      kind: 'scan',
      vendor: t.vendor,
      amount_minor: cents(t.amount),
      currency: t.currency,
      invoice_date: t.invoice_date,
      invoice_number: t.invoice_number,
      style: inv.style,
      paid: false,
    });
  }

  // Mail that is not an invoice by the §5 rules.
  const notInvoices: Array<Parameters<typeof buildMail>[0]> = [
    {
      from: 'Weekly Digest <news@digest.example>',
      subject: 'Our monthly newsletter: ten tips for your books',
      date: mailDate(`${YEAR}-07-04`),
      text: `Hello reader,\n\n${'This month in short. '.repeat(30)}\n\nUnsubscribe anytime.`,
    },
    {
      from: 'Deals Daily <news@deals.example>',
      subject: 'Newsletter: the autumn catalogue',
      date: mailDate(`${YEAR}-09-12`),
      text: 'Our new catalogue is attached.',
      attachments: [
        {
          filename: 'catalogue-autumn.pdf',
          contentType: 'application/pdf',
          content: Buffer.from(await renderPdf(catalogue())),
        },
      ],
    },
    {
      from: 'Fabrikam Shop <orders@fabrikam-shop.example>',
      subject: 'Order confirmation #40213',
      date: mailDate(`${YEAR}-08-21`),
      text: 'Thank you for your order 40213. Total: EUR 1,249.00. Your invoice follows when the order ships.',
      attachments: [
        {
          filename: 'order-40213.pdf',
          contentType: 'application/pdf',
          content: Buffer.from(await renderPdf(catalogue('Order 40213'))),
        },
      ],
    },
    {
      from: 'Contoso Store <orders@contoso-store.example>',
      subject: 'We received your order 7781',
      date: mailDate(`${YEAR}-10-02`),
      text: 'Thank you for your order 7781 (2 items, EUR 89.90). We will let you know when it ships.',
    },
    {
      from: 'Sky Airways <checkin@skyair.example>',
      subject: 'Your trip to Lisbon',
      date: mailDate(`${YEAR}-10-15`),
      text: 'Have a good flight.',
      attachments: [
        {
          filename: 'boarding-pass-LIS.pdf',
          contentType: 'application/pdf',
          content: Buffer.from(await renderPdf(catalogue('Boarding pass LIS'))),
        },
      ],
    },
  ];
  for (const mail of notInvoices) mails.push(buildMail({ ...mail, messageId: nextId() }));

  // The statement: the paid invoices, each a few days after its date, quoting vendor and number; and everyday lines.
  invoices
    .filter((i) => i.paid)
    .forEach((inv, k) => {
      payments.push({
        date: addDays(inv.invoice_date, 3 + k * 2),
        amountMinor: inv.amount_minor,
        type: 'debit',
        name: inv.vendor,
        text: `Invoice ${inv.invoice_number}`,
      });
    });
  for (const month of ['07', '08', '09', '10', '11', '12']) {
    payments.push({
      date: `${YEAR}-${month}-25`,
      amountMinor: 420_000,
      type: 'credit',
      name: 'Sample Employer GmbH',
      text: `Salary ${YEAR}-${month}`,
    });
    payments.push({
      date: `${YEAR}-${month}-06`,
      amountMinor: 4_790 + Number(month) * 13,
      type: 'debit',
      name: 'Corner Supermarket',
      text: 'Card payment',
    });
  }
  const statement = camt053(payments, `${YEAR}-07-01`, `${YEAR}-12-31`);

  const manifest: SampleManifest = {
    version: 1,
    account_email: SAMPLE_ACCOUNT_EMAIL,
    messages: mails.length,
    invoices,
    not_invoices: notInvoices.length,
    statement: {
      file: SAMPLE_STATEMENT,
      transactions: payments.length,
      paid_invoices: invoices.filter((i) => i.paid).length,
    },
  };
  return { mbox: buildMbox(mails), statement: Buffer.from(statement, 'utf8'), manifest };
}

/** A page that is not an invoice (a catalogue, an order, a boarding pass). */
function catalogue(title = 'Autumn catalogue'): Pick<GeneratedInvoice, 'pages' | 'runs'> {
  return {
    pages: 1,
    runs: [
      { page: 1, x: 50, y: 60, text: title, size: 18, bold: true },
      { page: 1, x: 50, y: 100, text: 'Thank you for being with us.', size: 10 },
    ],
  };
}

/** Writes the sample files into `dir` (created). */
export async function writeSampleData(dir: string): Promise<SampleManifest> {
  const data = await generateSampleData();
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, SAMPLE_MBOX), data.mbox);
  await fs.writeFile(path.join(dir, SAMPLE_STATEMENT), data.statement);
  await fs.writeFile(path.join(dir, SAMPLE_MANIFEST), `${JSON.stringify(data.manifest, null, 2)}\n`);
  return data.manifest;
}
