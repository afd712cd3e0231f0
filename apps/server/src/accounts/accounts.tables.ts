import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/**
 * A person's connected mail accounts (spec §3 "connected account"). At most one primary (used for drive uploads and
 * as the default) and one active (the account the person is looking at) per owner, enforced by partial unique indexes.
 */
export const mailAccounts = pgTable(
  'mail_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['google', 'oidc', 'imap', 'mbox', 'upload'] }).notNull(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    isActive: boolean('is_active').notNull().default(false),
    needsReauth: boolean('needs_reauth').notNull().default(false),
    reauthReason: text('reauth_reason'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /** The mailbox of "Try it with sample data": removed, with all it brought, by "Remove sample data". */
    isSample: boolean('is_sample').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mail_accounts_owner_provider_email_uq').on(t.ownerId, t.provider, sql`lower(${t.email})`),
    uniqueIndex('mail_accounts_one_primary_uq').on(t.ownerId).where(sql`${t.isPrimary}`),
    uniqueIndex('mail_accounts_one_active_uq').on(t.ownerId).where(sql`${t.isActive}`),
    index('mail_accounts_owner_created_idx').on(t.ownerId, t.createdAt),
  ],
);

/** The selected account scope of the multi-account session (spec §3), one row per person. */
export const accountScopes = pgTable('account_scopes', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  scope: text('scope', { enum: ['current', 'all', 'custom'] })
    .notNull()
    .default('current'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The accounts of a custom scope. */
export const accountScopeSelections = pgTable(
  'account_scope_selections',
  {
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => mailAccounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.accountId] })],
);

export type MailAccountRow = typeof mailAccounts.$inferSelect;

/**
 * How to reach an IMAP account: server, user and the password (or app password) encrypted with the secret box, the
 * folders to read, and the sync cursor (per folder: UIDVALIDITY and the last UID stored).
 */
export const imapSettings = pgTable('imap_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => mailAccounts.id, { onDelete: 'cascade' }),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  secure: boolean('secure').notNull(),
  username: text('username').notNull(),
  passwordEncrypted: text('password_encrypted').notNull(),
  mailboxes: text('mailboxes').array().notNull().default(sql`'{INBOX}'::text[]`),
  syncCursor: jsonb('sync_cursor'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ImapSettingsRow = typeof imapSettings.$inferSelect;

/** Where the last mail sync of an account stopped, for sources whose cursor is not per folder (Gmail's historyId). */
export const mailSyncState = pgTable('mail_sync_state', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => mailAccounts.id, { onDelete: 'cascade' }),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  cursor: jsonb('cursor'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
