import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The one schema of Invoicebox, for the embedded and the external PostgreSQL alike. Migrations under ../drizzle are
 * generated from it with `npm run db:generate -w @invoicebox/server`; keep to features of PostgreSQL 15.
 */

/** A person. Until sign-in lands there is exactly one: the local owner. Every owned row points here. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  displayName: text('display_name').notNull(),
  isLocalOwner: boolean('is_local_owner').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The Job entity of the spec (§3) as the API shows it. Delivery, retries and locking belong to pg-boss; this row is
 * the owner-scoped, human-readable record of the same job (same id), updated by the worker that runs it.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    progress: integer('progress').notNull().default(0),
    message: text('message'),
    error: text('error'),
    payload: jsonb('payload').notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    workerId: text('worker_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_owner_created_idx').on(t.ownerId, t.createdAt.desc()),
    index('jobs_running_heartbeat_idx').on(t.heartbeatAt).where(sql`${t.status} = 'running'`),
    check('jobs_progress_range', sql`${t.progress} between 0 and 100`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;

export * from '../accounts/accounts.tables';
export * from '../auth/auth.tables';
export * from '../drive/drive.tables';
export * from '../invoices/invoices.tables';
export * from '../oidc/oidc.tables';
export * from '../settings/settings.tables';
