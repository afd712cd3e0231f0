import { z } from 'zod';

/**
 * A person's address for mailing or forwarding invoices in (Settings). `enabled` is false when the operator has not
 * turned the listener on (SMTP_INBOUND_PORT and SMTP_INBOUND_DOMAIN); then `address` is null.
 */
export const InboundAddressSchema = z.object({
  enabled: z.boolean(),
  address: z.string().nullable(),
  created_at: z.string().nullable(),
});
export type InboundAddress = z.infer<typeof InboundAddressSchema>;
