/** The email-derived record of SPEC §3/§5, the input of the document-candidate rules. */
import type { EmailDerivedRecord } from '@invoicebox/core';
import type { MailAttachment, MailMessage } from './mail-message';

/** The domain of an address, lowercased: 'billing@Acme.com' → 'acme.com'. */
export function senderDomain(address: string | null | undefined): string | null {
  const at = address?.lastIndexOf('@') ?? -1;
  if (!address || at === -1) return null;
  const domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return domain || null;
}

/** vendor = the sender's display name, else the sender's domain; details = the decoded subject. */
export function toEmailDerivedRecord(message: MailMessage): EmailDerivedRecord<MailAttachment> {
  const address = message.from?.address ?? null;
  return {
    vendor: message.from?.name || senderDomain(address),
    details: message.subject,
    email: address,
    amount: null,
    attachments: message.attachments,
  };
}
