import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

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

export type JobRow = typeof jobs.$inferSelect;
