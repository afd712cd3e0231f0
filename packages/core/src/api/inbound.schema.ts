import { z } from 'zod';

/**
 * A person's address for mailing or forwarding invoices in (Settings). `enabled` is false when the operator has not
 * turned the listener on (SMTP_INBOUND_PORT and SMTP_INBOUND_DOMAIN); then `address` is null.
 */
export const InboundAddressSchema = z.object({
  enabled: z.boolean(),
  address: z.string().nullable(),
  created_at: z.string().nullable(),
  /**
   * The last mails received at any of the person's invoice addresses, invoice or not: how a person sees that a
   * forwarding rule works, or reads the confirmation code Gmail sends before it forwards.
   */
  recent: z.array(
    z.object({
      received_at: z.string(),
      from: z.string().nullable(),
      subject: z.string().nullable(),
      is_invoice: z.boolean(),
    }),
  ),
});
export type InboundAddress = z.infer<typeof InboundAddressSchema>;
