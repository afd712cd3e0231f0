import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { mailAccounts } from '../accounts/accounts.tables';
import { users } from '../users/users.tables';

/**
 * Which drive a person files into (one row per person; no row = the local folder, the embedded default).
 * - local: a folder under the data dir.
 * - google: Google Drive of a connected Google account (null = the primary account, spec §6).
 * - webdav: any WebDAV server; the app password is encrypted with the secret box and never returned.
 */
export const driveConnections = pgTable('drive_connections', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['local', 'google', 'webdav'] }).notNull(),
  googleAccountId: uuid('google_account_id').references(() => mailAccounts.id, { onDelete: 'set null' }),
  webdavUrl: text('webdav_url'),
  webdavUsername: text('webdav_username'),
  webdavPasswordEncrypted: text('webdav_password_encrypted'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type DriveConnectionRow = typeof driveConnections.$inferSelect;

/**
 * Drive links (POST /invoices/{id}/drive-link) that were opened: a link opens its file once. The primary key makes
 * the second of two simultaneous opens lose, in any API process; rows are deleted some minutes after the link expired.
 */
export const driveLinkUses = pgTable(
  'drive_link_uses',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('drive_link_uses_expires_at_idx').on(t.expiresAt)],
);
