import { z } from 'zod';

/**
 * Invoice forwarding (spec §2 Forwarding, §3 forwarding config and stats, §5 address rules, §7 /forwarding/*).
 * Each invoice's original email is delivered once to each recipient; the server keeps an outbox per
 * (invoice, recipient) and sends through the person's Google account (Gmail API) or an SMTP relay.
 */

/** Most recipient addresses one person may forward to. */
export const FORWARDING_MAX_RECIPIENTS = 20;

/** Messages of spec §5 (address add) and the server's own refusals of a PUT /forwarding/config body. */
export const FORWARDING_MESSAGES = {
  invalidAddress: 'Please enter a valid email address',
  duplicateAddress: 'Email address already added',
  tooManyRecipients: `At most ${FORWARDING_MAX_RECIPIENTS} recipient addresses can be added`,
  /** POST /forwarding/start without a sender (409). */
  noSender:
    'No sender is configured: sign in with a Google account, or set an SMTP relay in Settings, so invoices can be sent',
  /** POST /forwarding/start while forwarding is off or has no recipients (409). */
  notEnabled: 'Forwarding is not enabled or has no recipient addresses',
  /** The rule shown on the screen: what is forwarded without asking, and what Forward Now adds. */
  rule: 'Only invoices found after forwarding was enabled are forwarded automatically; use Forward Now to send earlier invoices.',
} as const;

/**
 * Which sender delivers the mail:
 * - `gmail`: the person's Google account, with the Gmail API (users.messages.send);
 * - `smtp`: the SMTP relay the person set in Settings;
 * - `smtp_server`: the SMTP relay of this server install (SMTP_* environment variables).
 */
export const FORWARDING_SENDER_KINDS = ['gmail', 'smtp', 'smtp_server'] as const;
export const ForwardingSenderKindSchema = z.enum(FORWARDING_SENDER_KINDS);
export type ForwardingSenderKind = z.infer<typeof ForwardingSenderKindSchema>;

export const FORWARDING_SENDER_LABELS: Record<ForwardingSenderKind, string> = {
  gmail: 'Gmail',
  smtp: 'SMTP relay (Settings)',
  smtp_server: 'SMTP relay of this server',
};

/** The sender as the screen shows it; `configured: false` means Forward Now cannot start (see `reason`). */
export const ForwardingSenderSchema = z.object({
  configured: z.boolean(),
  kind: ForwardingSenderKindSchema.nullable(),
  /** The From address mails are sent as (the Google account's email, the relay's from address). */
  from: z.string().nullable(),
  /** Why no sender is configured, for the person; null when one is. */
  reason: z.string().nullable(),
});
export type ForwardingSender = z.infer<typeof ForwardingSenderSchema>;

/** GET /forwarding/config and the answer of PUT: the spec §3 Forwarding config plus what the screen says. */
export const ForwardingConfigSchema = z.object({
  enabled: z.boolean(),
  target_emails: z.array(z.string()),
  /**
   * When forwarding was last switched on (ISO instant); only invoices found at or after it are forwarded on sync.
   * Null while it has never been enabled.
   */
  enabled_at: z.string().nullable(),
  /** FORWARDING_MESSAGES.rule: the rule above in words. */
  rule: z.string(),
  max_recipients: z.number().int(),
  sender: ForwardingSenderSchema,
  /** Invoices in the account scope not yet delivered (nor queued) to every recipient: what Forward Now would add. */
  backlog: z.number().int(),
});
export type ForwardingConfig = z.infer<typeof ForwardingConfigSchema>;

/**
 * PUT /forwarding/config (spec §7: enabled, target_emails). Addresses are checked on the server with a real address
 * parser; a bad one answers 400 with FORWARDING_MESSAGES.invalidAddress, a duplicate (case-insensitive) with
 * duplicateAddress, more than FORWARDING_MAX_RECIPIENTS with tooManyRecipients.
 */
export const ForwardingConfigBodySchema = z.object({
  enabled: z.boolean(),
  target_emails: z.array(z.string().max(320)).max(100),
});
export type ForwardingConfigBody = z.infer<typeof ForwardingConfigBodySchema>;

/** POST /forwarding/start ('Forward Now'): the job that sends, and how many (invoice, recipient) mails it queued. */
export const ForwardingStartResponseSchema = z.object({
  job_id: z.string(),
  queued: z.number().int(),
});
export type ForwardingStartResponse = z.infer<typeof ForwardingStartResponseSchema>;

/** One failed delivery, with the reason the provider gave (permanent failures are not retried). */
export const ForwardingFailureSchema = z.object({
  invoice_id: z.string(),
  vendor: z.string().nullable(),
  recipient: z.string(),
  error: z.string(),
  at: z.string(),
});
export type ForwardingFailure = z.infer<typeof ForwardingFailureSchema>;

/** GET /forwarding/stats (spec §3), from the outbox, in the account scope. */
export const ForwardingStatsSchema = z.object({
  total_forwarded: z.number().int(),
  total_failed: z.number().int(),
  /** Queued or being sent (including ones waiting for a retry). */
  total_pending: z.number().int(),
  /** Percentage 0–100 of forwarded over forwarded + failed; 0 when nothing was tried. */
  success_rate: z.number(),
  last_forwarded_at: z.string().nullable(),
  /** The latest failures, newest first (up to 10). */
  recent_failures: z.array(ForwardingFailureSchema),
});
export type ForwardingStats = z.infer<typeof ForwardingStatsSchema>;

export const FORWARDING_DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export const ForwardingDeliveryStatusSchema = z.enum(FORWARDING_DELIVERY_STATUSES);
export type ForwardingDeliveryStatus = z.infer<typeof ForwardingDeliveryStatusSchema>;

/** Per invoice: to whom it was (or is being) forwarded; the invoice card's forwarded-to badge. */
export const InvoiceForwardedToSchema = z.object({
  recipient: z.string(),
  status: ForwardingDeliveryStatusSchema,
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
});
export type InvoiceForwardedTo = z.infer<typeof InvoiceForwardedToSchema>;

/** TLS modes of an SMTP relay: implicit TLS (465), STARTTLS required (587), or none (local relays only). */
export const SMTP_TLS_MODES = ['tls', 'starttls', 'none'] as const;
export const SmtpTlsModeSchema = z.enum(SMTP_TLS_MODES);
export type SmtpTlsMode = z.infer<typeof SmtpTlsModeSchema>;

/** GET /forwarding/smtp-relay: the person's relay from Settings (the password is never returned); null if none. */
export const SmtpRelaySchema = z.object({
  host: z.string(),
  port: z.number().int(),
  tls: SmtpTlsModeSchema,
  username: z.string(),
  from: z.string(),
});
export type SmtpRelay = z.infer<typeof SmtpRelaySchema>;

export const SmtpRelayResponseSchema = z.object({ relay: SmtpRelaySchema.nullable() });
export type SmtpRelayResponse = z.infer<typeof SmtpRelayResponseSchema>;

/** PUT /forwarding/smtp-relay: tried (connect + log in) before it is saved; the password is stored encrypted. */
export const SmtpRelayBodySchema = z.object({
  host: z.string().trim().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  tls: SmtpTlsModeSchema,
  username: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1000),
  /** The From address; defaults to the username when that is an address. */
  from: z.string().trim().max(320).optional(),
});
export type SmtpRelayBody = z.infer<typeof SmtpRelayBodySchema>;
