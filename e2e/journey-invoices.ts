import type { TextRun } from '../apps/server/eval/invoice.generator';
import { renderPdf } from '../apps/server/eval/invoice.renderers';

/**
 * The invoices of the e2e journey: amounts over 1,000 written in four number styles, as a vendor would print them,
 * and what a person must see on the card for each one. Dates are in the last twelve months, so the Month filter lists
 * them.
 */
export interface JourneyInvoice {
  vendor: string;
  from: string;
  subject: string;
  file: string;
  number: string;
  date: string;
  /** The total as the PDF prints it. */
  printed: string;
  /** The total as the card shows it. */
  shown: string;
  amount_minor: number;
  currency: string;
  /** Extra lines (language, labels) so each one reads like its country's invoice. */
  labels: { invoice: string; number: string; date: string; total: string };
}

/** The 12th of the month `back` months before `now`, as YYYY-MM-DD. */
export function monthsAgo(now: Date, back: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 12));
  return d.toISOString().slice(0, 10);
}

export function journeyInvoices(now = new Date()): JourneyInvoice[] {
  return [
    {
      vendor: 'Northwind Traders Ltd',
      from: 'Northwind Traders Ltd <billing@northwind.example>',
      subject: 'Your invoice NW-2026-0417',
      file: 'northwind-NW-2026-0417.pdf',
      number: 'NW-2026-0417',
      date: monthsAgo(now, 1),
      printed: 'EUR 5,178.43',
      shown: '€5,178.43',
      amount_minor: 517843,
      currency: 'EUR',
      labels: { invoice: 'INVOICE', number: 'Invoice No.', date: 'Invoice date', total: 'Total due' },
    },
    {
      vendor: 'Alpenblick Software AG',
      from: 'Alpenblick Software AG <rechnung@alpenblick.example>',
      subject: 'Rechnung AB-88123',
      file: 'alpenblick-AB-88123.pdf',
      number: 'AB-88123',
      date: monthsAgo(now, 1),
      printed: "CHF 1'234.50",
      shown: 'CHF 1,234.50',
      amount_minor: 123450,
      currency: 'CHF',
      labels: { invoice: 'RECHNUNG', number: 'Rechnungsnummer', date: 'Rechnungsdatum', total: 'Gesamtbetrag' },
    },
    {
      vendor: 'Kaufhaus Lindner GmbH',
      from: 'Kaufhaus Lindner GmbH <buchhaltung@lindner.example>',
      subject: 'Ihre Rechnung KL-2026-311',
      file: 'lindner-KL-2026-311.pdf',
      number: 'KL-2026-311',
      date: monthsAgo(now, 2),
      printed: '2.345,67 EUR',
      shown: '€2,345.67',
      amount_minor: 234567,
      currency: 'EUR',
      labels: { invoice: 'RECHNUNG', number: 'Rechnungsnummer', date: 'Rechnungsdatum', total: 'Gesamtbetrag' },
    },
    {
      vendor: 'Atelier Lumiere SARL',
      from: 'Atelier Lumiere SARL <factures@lumiere.example>',
      subject: 'Votre facture F-2026-0093',
      file: 'lumiere-F-2026-0093.pdf',
      number: 'F-2026-0093',
      date: monthsAgo(now, 2),
      printed: '3\u00a0456,78 EUR',
      shown: '€3,456.78',
      amount_minor: 345678,
      currency: 'EUR',
      labels: { invoice: 'FACTURE', number: 'Facture n°', date: 'Date de facture', total: 'Total TTC' },
    },
  ];
}

const dmy = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

/** A one-page text PDF of the invoice: vendor header, number, date, one line item and the total. */
export async function invoicePdf(invoice: JourneyInvoice): Promise<Buffer> {
  const { labels } = invoice;
  const runs: TextRun[] = [
    { page: 1, x: 40, y: 60, text: invoice.vendor, size: 16, bold: true },
    { page: 1, x: 40, y: 80, text: '12 Harbour Street, 1000 Example City', size: 9 },
    { page: 1, x: 555, y: 60, text: labels.invoice, size: 18, bold: true, align: 'right' },
    { page: 1, x: 360, y: 110, text: `${labels.number}:`, size: 10 },
    { page: 1, x: 555, y: 110, text: invoice.number, size: 10, align: 'right' },
    { page: 1, x: 360, y: 126, text: `${labels.date}:`, size: 10 },
    { page: 1, x: 555, y: 126, text: dmy(invoice.date), size: 10, align: 'right' },
    { page: 1, x: 40, y: 200, text: 'Consulting services', size: 10 },
    { page: 1, x: 555, y: 200, text: invoice.printed, size: 10, align: 'right' },
    { page: 1, x: 360, y: 240, text: `${labels.total}:`, size: 12, bold: true },
    { page: 1, x: 555, y: 240, text: invoice.printed, size: 12, bold: true, align: 'right' },
  ];
  return Buffer.from(await renderPdf({ pages: 1, runs }));
}
