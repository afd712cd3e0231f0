import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type JobRow, jobs } from '../db/schema';
import { boundedText } from '../db/storable-text';

/** Longest message or error kept on a job: an error that quotes a whole mail must not make the write fail or grow. */
export const JOB_TEXT_LIMIT = 2000;

/** Every text written to a job can be stored: no NUL, no lone surrogate, bounded. */
function jobText(text: string): string {
  return boundedText(text, JOB_TEXT_LIMIT);
}

/**
 * SQL on the jobs table and nothing else. Every read and delete that serves a person is scoped by owner. Every text
 * written is made storable first (jobText).
 */
export class JobsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: { id: string; ownerId: string; type: string; payload: unknown }): Promise<JobRow> {
    const [inserted] = await this.db
      .insert(jobs)
      .values({ ...row, status: 'pending' })
      .returning();
    return inserted!;
  }

  /**
   * Records work that ran inline (an upload answered in its own request) as a finished job, so that the job history
   * shows it like queued work. It never was running here: no lease, nothing for a sweeper to take.
   */
  async recordFinished(row: {
    id: string;
    ownerId: string;
    type: string;
    payload: unknown;
    startedAt: Date;
    status: 'completed' | 'failed';
    message: string;
  }): Promise<void> {
    const text = jobText(row.message);
    await this.db.insert(jobs).values({
      id: row.id,
      ownerId: row.ownerId,
      type: row.type,
      payload: row.payload,
      status: row.status,
      progress: 100,
      message: text,
      error: row.status === 'failed' ? text : null,
      attempts: 1,
      startedAt: row.startedAt,
      finishedAt: sql`now()`,
    });
  }

  async listForOwner(ownerId: string, limit: number): Promise<JobRow[]> {
    return this.db
      .select()
      .from(jobs)
      .where(eq(jobs.ownerId, ownerId))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit);
  }

  async findForOwner(ownerId: string, id: string): Promise<JobRow | undefined> {
    const [row] = await this.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.ownerId, ownerId), eq(jobs.id, id)));
    return row;
  }

  /** Whether the person has a job of `type` waiting to start. */
  async hasPending(ownerId: string, type: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.ownerId, ownerId), eq(jobs.type, type), eq(jobs.status, 'pending')))
      .limit(1);
    return row !== undefined;
  }

  async findById(id: string): Promise<JobRow | undefined> {
    const [row] = await this.db.select().from(jobs).where(eq(jobs.id, id));
    return row;
  }

  /** Finished jobs only: a running job keeps its record until it ends. */
  async deleteFinishedForOwner(ownerId: string): Promise<number> {
    const deleted = await this.db
      .delete(jobs)
      .where(and(eq(jobs.ownerId, ownerId), inArray(jobs.status, ['completed', 'failed'])))
      .returning({ id: jobs.id });
    return deleted.length;
  }

  /** Claims a delivery for this worker. Returns undefined when the job is gone or already finished. */
  async markRunning(id: string, workerId: string): Promise<JobRow | undefined> {
    const [row] = await this.db
      .update(jobs)
      .set({
        status: 'running',
        workerId,
        attempts: sql`${jobs.attempts} + 1`,
        heartbeatAt: sql`now()`,
        startedAt: sql`coalesce(${jobs.startedAt}, now())`,
        error: null,
      })
      .where(and(eq(jobs.id, id), inArray(jobs.status, ['pending', 'running'])))
      .returning();
    return row;
  }

  /** Progress from the worker that holds the job; a worker that lost its lease changes nothing. */
  async reportProgress(id: string, workerId: string, progress: number, message: string | undefined): Promise<void> {
    await this.db
      .update(jobs)
      .set({
        progress,
        heartbeatAt: sql`now()`,
        ...(message === undefined ? {} : { message: jobText(message) }),
      })
      .where(and(eq(jobs.id, id), eq(jobs.workerId, workerId), eq(jobs.status, 'running')));
  }

  /**
   * After the database came back: the job is run again by the worker that holds it, unless a sweeper handed it to
   * another meanwhile (then false).
   */
  async resume(id: string, workerId: string): Promise<boolean> {
    const updated = await this.db
      .update(jobs)
      .set({ attempts: sql`${jobs.attempts} + 1`, heartbeatAt: sql`now()`, error: null })
      .where(and(eq(jobs.id, id), eq(jobs.workerId, workerId), eq(jobs.status, 'running')))
      .returning({ id: jobs.id });
    return updated.length > 0;
  }

  async heartbeat(ids: string[], workerId: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(jobs)
      .set({ heartbeatAt: sql`now()` })
      .where(and(inArray(jobs.id, ids), eq(jobs.workerId, workerId), eq(jobs.status, 'running')));
  }

  async markCompleted(id: string, workerId: string, message: string | undefined): Promise<boolean> {
    const updated = await this.db
      .update(jobs)
      .set({
        status: 'completed',
        progress: 100,
        finishedAt: sql`now()`,
        heartbeatAt: null,
        ...(message === undefined ? {} : { message: jobText(message) }),
      })
      .where(and(eq(jobs.id, id), eq(jobs.workerId, workerId), eq(jobs.status, 'running')))
      .returning({ id: jobs.id });
    return updated.length > 0;
  }

  async markFailed(id: string, error: string, workerId?: string): Promise<boolean> {
    const text = jobText(error);
    const updated = await this.db
      .update(jobs)
      .set({ status: 'failed', error: text, message: text, finishedAt: sql`now()`, heartbeatAt: null })
      .where(
        and(
          eq(jobs.id, id),
          inArray(jobs.status, ['pending', 'running']),
          workerId ? eq(jobs.workerId, workerId) : undefined,
        ),
      )
      .returning({ id: jobs.id });
    return updated.length > 0;
  }

  /** Back to pending, to be delivered again (retry, shutdown, lost worker). False when it was not running (here). */
  async markPending(id: string, message: string, workerId?: string): Promise<boolean> {
    const updated = await this.db
      .update(jobs)
      .set({ status: 'pending', message: jobText(message), heartbeatAt: null })
      .where(and(eq(jobs.id, id), eq(jobs.status, 'running'), workerId ? eq(jobs.workerId, workerId) : undefined))
      .returning({ id: jobs.id });
    return updated.length > 0;
  }

  /**
   * Atomically takes the running jobs whose worker stopped renewing its lease and puts them back to pending.
   * Only one sweeper wins each row, so a lost job is handed back exactly once.
   */
  async reclaimExpiredLeases(
    leaseSeconds: number,
    exceptWorkerId?: string,
  ): Promise<Array<{ id: string; type: string }>> {
    return this.db
      .update(jobs)
      .set({ status: 'pending', message: 'Worker lost; the job will be run again', heartbeatAt: null })
      .where(
        and(
          eq(jobs.status, 'running'),
          lt(jobs.heartbeatAt, sql`now() - make_interval(secs => ${leaseSeconds})`),
          exceptWorkerId ? ne(jobs.workerId, exceptWorkerId) : undefined,
        ),
      )
      .returning({ id: jobs.id, type: jobs.type });
  }
}
