import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { invoices } from '../invoices/invoices.tables';
import { users } from '../users/users.tables';

/** A person's forwarding settings (spec §3 Forwarding config); no row = disabled, no recipients. */
export const forwardingConfig = pgTable('forwarding_config', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /** Lower-cased, unique, in the order they were added. */
  targetEmails: text('target_emails').array().notNull().default(sql`'{}'::text[]`),
  /** When forwarding was last switched on: a sync forwards only invoices created at or after it. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  maxRecipients: integer('max_recipients').notNull().default(20),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const FORWARDING_STATES = ['pending', 'sending', 'sent', 'failed'] as const;

/**
 * One mail to send: an invoice's original email to one recipient. The unique key makes queueing idempotent (a sync
 * and Forward Now racing queue one row); the states pending → sending → sent | failed, with `sending` written and
 * committed BEFORE the provider is called, tell a worker that picks a row up whether a send may already have happened
 * (then the sender's Sent folder is searched for `message_id` before sending again).
 */
export const forwardingOutbox = pgTable(
  'forwarding_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    status: text('status', { enum: FORWARDING_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Deterministic per (invoice, recipient): `<fwd-{hash}@invoicebox>`; what the Sent-folder look-up searches. */
    messageId: text('message_id').notNull(),
    /** Which sender took it to `sending` (gmail, smtp, smtp_server): the look-up asks the same one. */
    senderKind: text('sender_kind'),
    /**
     * The job (jobs.id) that took it to `sending`. Such a row is taken over only by a later delivery of the same job
     * (its earlier worker died) or once that job no longer runs.
     */
    claimedBy: uuid('claimed_by'),
    /** A temporary failure waits until then. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('forwarding_outbox_owner_invoice_recipient_uq').on(t.ownerId, t.invoiceId, t.recipient),
    index('forwarding_outbox_owner_status_idx').on(t.ownerId, t.status, t.nextAttemptAt),
    index('forwarding_outbox_invoice_idx').on(t.invoiceId),
  ],
);

export type ForwardingOutboxRow = typeof forwardingOutbox.$inferSelect;

/** A person's own SMTP relay (Settings), tried before it is saved; the password is encrypted with the secret box. */
export const forwardingSmtpRelays = pgTable('forwarding_smtp_relays', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  tls: text('tls', { enum: ['tls', 'starttls', 'none'] }).notNull(),
  username: text('username').notNull(),
  passwordEncrypted: text('password_encrypted').notNull(),
  fromAddress: text('from_address').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
