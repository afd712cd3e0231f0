import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';

/**
 * The mail that forwards one invoice to one recipient: a short cover mail ("Invoice from <vendor>, <amount>, <date>")
 * with the original email attached UNCHANGED as message/rfc822 (no transfer encoding: the bytes are the original's).
 * Why not a raw re-send with Resent-* headers: see docs/architecture.md (Forwarding).
 */
export interface ForwardedInvoice {
  invoiceId: string;
  vendor: string | null;
  amount: string | null;
  invoiceDate: string | null;
  subject: string | null;
  senderEmail: string | null;
  /** The original email as received; null for invoices stored before raw messages were kept. */
  raw: Buffer | null;
  /** Used only when `raw` is null: the stored files of the message, attached as they are. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/** Deterministic per (invoice, recipient): the same mail always carries the same Message-ID, whoever sends it. */
export function forwardingMessageId(invoiceId: string, recipient: string): string {
  const hash = createHash('sha256').update(`${invoiceId}\n${recipient.toLowerCase()}`).digest('hex').slice(0, 32);
  return `<fwd-${hash}@invoicebox>`;
}

export function coverSubject(invoice: Pick<ForwardedInvoice, 'vendor' | 'amount' | 'invoiceDate'>): string {
  const parts = [`Invoice from ${invoice.vendor?.trim() || 'Unknown Vendor'}`];
  if (invoice.amount) parts.push(invoice.amount);
  if (invoice.invoiceDate) parts.push(invoice.invoiceDate);
  return parts.join(', ');
}

export async function buildForwardMessage(
  invoice: ForwardedInvoice,
  envelope: { from: string; to: string; replyTo?: string | null; messageId: string; date?: Date },
): Promise<Buffer> {
  const subject = coverSubject(invoice);
  const lines = [`${subject}.`, ''];
  if (invoice.subject) lines.push(`Original subject: ${invoice.subject}`);
  if (invoice.senderEmail) lines.push(`Originally from: ${invoice.senderEmail}`);
  lines.push(
    '',
    invoice.raw
      ? 'The original email is attached unchanged.'
      : 'The original email was not kept; its files are attached as they were received.',
    '',
    '-- Forwarded by Invoicebox',
  );
  const eightBit = invoice.raw ? invoice.raw.some((b) => b > 0x7f) : false;
  const attachments = invoice.raw
    ? [
        {
          filename: 'original-invoice-email.eml',
          contentType: 'message/rfc822',
          content: invoice.raw,
          // message/rfc822 may not be base64-encoded (RFC 2046 §5.2.1): the original goes in as it is.
          ...(eightBit ? { headers: { 'Content-Transfer-Encoding': '8bit' } } : {}),
          contentDisposition: 'attachment',
        },
      ]
    : invoice.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content }));
  const composer = new MailComposer({
    from: envelope.from,
    to: envelope.to,
    ...(envelope.replyTo ? { replyTo: envelope.replyTo } : {}),
    subject,
    messageId: envelope.messageId,
    date: envelope.date ?? new Date(),
    text: lines.join('\n'),
    attachments,
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Invoicebox-Forwarded': invoice.invoiceId },
  });
  return composer.compile().build();
}
