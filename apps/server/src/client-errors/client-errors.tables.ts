import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/**
 * Unhandled errors of the web app (spec §8 error reporting), kept for the operator to read in the database. The owner
 * is set when the sender was signed in; anonymous reports (the landing page, a broken sign-in) have none.
 */
export const clientErrorReports = pgTable(
  'client_error_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The address the report came from (the rate-limit key), to tell one noisy browser from many. */
    clientAddress: text('client_address').notNull(),
    source: text('source').notNull(),
    level: text('level'),
    message: text('message').notNull(),
    stack: text('stack'),
    url: text('url').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('client_error_reports_received_idx').on(table.receivedAt),
    index('client_error_reports_owner_idx').on(table.ownerId),
  ],
);

export type ClientErrorReportRow = typeof clientErrorReports.$inferSelect;
