import { boolean, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/** A person's product preferences (one row per person; no row = the defaults). */
export const userPreferences = pgTable('user_preferences', {
  ownerId: uuid('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Spec §5: an email counts as an invoice only with a qualifying attachment (default on). */
  attachmentsRequired: boolean('attachments_required').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
