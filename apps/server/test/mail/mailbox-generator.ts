/**
 * A generated mailbox of any size for the sync tests and benchmarks: a realistic mix of invoice emails with small
 * PDFs (some sent twice, byte for byte), look-alikes that the SPEC §5 rules must refuse, and newsletters and
 * receipts without attachments. Deterministic for a seed. Every message says what the store should make of it,
 * decided here by construction (never by running the product's rules), so tests can compare against it.
 */
import { createHash } from 'node:crypto';
// The same seedable PRNG as the extraction evaluation: the same seed gives the same mailbox.
import { mulberry32 } from '../../eval/invoice.generator';
import { buildMail, type TestAttachment } from './mail-builder';

export interface GeneratedMessage {
  source: Buffer;
  /** Key of the invoice this message must produce (its PDF), or null when it is not an invoice. */
  invoiceKey: string | null;
  /** SHA-256 of each attachment, in mail order. */
  attachmentHashes: string[];
}

export interface GeneratedMailbox {
  messages: GeneratedMessage[];
  /** Distinct invoices the store must hold after a full sync (a PDF sent twice is one invoice). */
  expectedInvoices: number;
  /** Rows of message_attachments after a full sync (one per attachment of each message). */
  expectedAttachmentRows: number;
  /** Distinct attachment contents: each stored once. */
  expectedBlobs: Set<string>;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A one-page PDF with a real text layer (so extraction reads it without OCR), built by hand with a valid xref. */
export function invoicePdf(lines: string[]): Buffer {
  const pdfString = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = lines.map((line, i) => `BT /F1 11 Tf 56 ${780 - i * 18} Td (${pdfString(line)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

// Names and subjects avoid the rules' rejection words on purpose: these senders send invoices.
const VENDORS = [
  'Acme Hosting',
  'Northwind Power',
  'Blue Lake Telecom',
  'Contoso Cloud',
  'Fabrikam Office Supply',
  'Globex Insurance',
  'Initech Software',
  'Umbrella Water',
  'Stark Parking',
  'Wayne Couriers',
  'Tyrell Design Studio',
  'Soylent Catering',
];
const MAILERS = ['Weekly Digest', 'Tech News', 'Deals Daily', 'Community Updates', 'Book Club'];
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const TERMS = invoicePdf(['General terms of sale', 'Version 2026-01']);

const slug = (name: string) => name.toLowerCase().replace(/[^a-z]+/g, '-');

/**
 * `count` messages: ~20% invoice emails (one PDF each, a logo beside it now and then; ~8% of them resend an earlier
 * invoice's PDF, and a few are the very same message delivered twice), ~2% look-alikes with attachments that are
 * not invoices (a newsletter with a PDF, terms of sale, a boarding pass), the rest plain newsletters and receipts.
 */
export function generateMailbox(count: number, seed = 1): GeneratedMailbox {
  const rnd = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const messages: GeneratedMessage[] = [];
  const sentInvoices: Array<{ pdf: Buffer; number: string; vendor: string }> = [];
  const start = Date.UTC(2025, 0, 1);
  const dateOf = (i: number) => new Date(start + i * 3_600_000 + Math.floor(rnd() * 3_000_000)).toUTCString();

  const push = (
    mail: Parameters<typeof buildMail>[0] & { attachments?: TestAttachment[] },
    invoiceKey: string | null,
  ) => {
    const source = buildMail(mail);
    const attachmentHashes = (mail.attachments ?? []).map((a) =>
      sha256(typeof a.content === 'string' ? Buffer.from(a.content) : a.content),
    );
    messages.push({ source, invoiceKey, attachmentHashes });
  };

  while (messages.length < count) {
    const i = messages.length;
    const r = rnd();
    const date = dateOf(i);
    const messageId = `<gen-${seed}-${i}@mail.example>`;
    if (r < 0.2) {
      const previous = sentInvoices.length > 0 && rnd() < 0.08 ? pick(sentInvoices) : null;
      if (previous) {
        // The same PDF again (a copy the vendor sent twice): the store keeps one invoice.
        push(
          {
            from: `${previous.vendor} <billing@${slug(previous.vendor)}.example>`,
            subject: `Copy of invoice ${previous.number}`,
            date,
            messageId,
            text: `As requested, invoice ${previous.number} once more.`,
            attachments: [
              { filename: `invoice-${previous.number}.pdf`, contentType: 'application/pdf', content: previous.pdf },
            ],
          },
          sha256(previous.pdf),
        );
        continue;
      }
      const vendor = pick(VENDORS);
      const number = `INV-${seed}-${String(i).padStart(6, '0')}`;
      const amount = (5 + rnd() * 995).toFixed(2);
      const pdf = invoicePdf([
        vendor,
        `Invoice number: ${number}`,
        `Invoice date: ${new Date(date).toISOString().slice(0, 10)}`,
        'Description            Qty    Price',
        `Services               1      ${amount}`,
        `Total: EUR ${amount}`,
      ]);
      sentInvoices.push({ pdf, number, vendor });
      const style = rnd();
      const attachments: TestAttachment[] = [
        {
          // Most are named as invoices; some only qualify by their .pdf extension.
          filename: style < 0.8 ? `invoice-${number}.pdf` : `${number}.pdf`,
          contentType: 'application/pdf',
          content: pdf,
        },
      ];
      if (style > 0.85) attachments.unshift({ filename: 'logo.png', contentType: 'image/png', content: LOGO });
      const mail = {
        from: `${vendor} <billing@${slug(vendor)}.example>`,
        subject: rnd() < 0.5 ? `Your invoice ${number}` : `${vendor}: invoice for your account`,
        date,
        messageId,
        text: `Dear customer, your invoice ${number} of EUR ${amount} is attached.`,
        attachments,
      };
      push(mail, sha256(pdf));
      // Now and then the same message arrives twice (two deliveries, two UIDs): two messages, one invoice.
      if (rnd() < 0.02 && messages.length < count) push(mail, sha256(pdf));
      continue;
    }
    if (r < 0.22) {
      const kind = pick(['newsletter', 'terms', 'boarding'] as const);
      if (kind === 'newsletter') {
        // A PDF that qualifies by name, but the subject is a newsletter: not an invoice.
        push(
          {
            from: `${pick(MAILERS)} <news@digest.example>`,
            subject: `Our monthly newsletter #${i}`,
            date,
            messageId,
            attachments: [
              {
                filename: `catalog-${i % 7}.pdf`,
                contentType: 'application/pdf',
                content: invoicePdf([`Catalog ${i % 7}`]),
              },
            ],
          },
          null,
        );
      } else if (kind === 'terms') {
        push(
          {
            from: `${pick(VENDORS)} <legal@vendor.example>`,
            subject: 'Updated terms of sale',
            date,
            messageId,
            attachments: [
              { filename: 'logo.png', contentType: 'image/png', content: LOGO },
              { filename: 'terms.pdf', contentType: 'application/pdf', content: TERMS },
            ],
          },
          null,
        );
      } else {
        push(
          {
            from: 'Sky Airways <checkin@skyair.example>',
            subject: `Your trip ${i}`,
            date,
            messageId,
            attachments: [
              {
                filename: `boarding-pass-${i}.pdf`,
                contentType: 'application/pdf',
                content: invoicePdf([`Seat ${i}`]),
              },
            ],
          },
          null,
        );
      }
      continue;
    }
    if (r < 0.6) {
      push(
        {
          from: `${pick(MAILERS)} <news@digest.example>`,
          subject: `Newsletter ${i}: what happened this week`,
          date,
          messageId,
          text: `Hello reader,\n\n${'This week in short. '.repeat(20 + Math.floor(rnd() * 60))}\n\nUnsubscribe anytime.`,
        },
        null,
      );
    } else {
      // A receipt in the body only: with attachments required (the default), not an invoice.
      push(
        {
          from: `${pick(VENDORS)} <orders@shop.example>`,
          subject: `Receipt for order ${i}`,
          date,
          messageId,
          text: `Thank you for your order ${i}. Total paid: EUR ${(rnd() * 200).toFixed(2)}.\n${'Item line. '.repeat(10 + Math.floor(rnd() * 30))}`,
        },
        null,
      );
    }
  }

  const invoices = new Set(messages.map((m) => m.invoiceKey).filter((k): k is string => k !== null));
  return {
    messages,
    expectedInvoices: invoices.size,
    expectedAttachmentRows: messages.reduce((n, m) => n + m.attachmentHashes.length, 0),
    expectedBlobs: new Set(messages.flatMap((m) => m.attachmentHashes)),
  };
}
