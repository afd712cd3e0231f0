import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A person. Until sign-in lands there is exactly one: the local owner. Every owned row points here. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  displayName: text('display_name').notNull(),
  isLocalOwner: boolean('is_local_owner').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
