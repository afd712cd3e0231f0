import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/**
 * A person's addresses for mailing invoices in (`invoices+<token>@<SMTP_INBOUND_DOMAIN>`). One is current; a
 * retired one (after "New address") is refused from then on, so a leaked address can be shut without a support call.
 */
export const inboundAddresses = pgTable(
  'inbound_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Random, unguessable, lower case (mail systems may fold the local part's case). */
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (table) => [
    index('inbound_addresses_owner_idx').on(table.ownerId),
    // At most one current address per person (two first visits at once make one).
    uniqueIndex('inbound_addresses_current_idx').on(table.ownerId).where(sql`retired_at is null`),
  ],
);
