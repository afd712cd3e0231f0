import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { withSchemaLock } from '../db/migrate';
import { boundedText } from '../db/storable-text';
import { AppError, errorMessage, isDatabaseUnavailable, ValidationError } from '../errors';
import type { JobRegistry, PayloadOf } from './job-registry';
import { JOB_TEXT_LIMIT, type JobsRepository } from './jobs.repository';

/**
 * Durable jobs on pg-boss, in the same PostgreSQL as everything else. pg-boss owns delivery, retries and locking;
 * the `jobs` table (see JobsRepository) is the person-facing record with progress and messages.
 *
 * All job types share ONE pg-boss queue and are dispatched through the registry: a process then needs only
 * `concurrency` pollers, not one per type per slot.
 *
 * pg-boss 10 has no heartbeat: a job whose worker died stays `active` until its expiry (hours, for long syncs).
 * So every worker renews a lease on the jobs it runs, and sweeps for jobs whose lease ran out, failing them in
 * pg-boss so that they are retried within seconds of a crash instead of hours.
 */
export const QUEUE_NAME = 'invoicebox';

/** Outages one delivery rides out by running the job again; past that it is failed and retried like any error. */
const MAX_OUTAGE_RERUNS = 5;

export interface JobQueueOptions {
  connectionString: string;
  /** Connections pg-boss may open (it keeps its own pool). */
  poolSize?: number;
  leaseSeconds: number;
  timeoutSeconds: number;
  /** How often pg-boss looks for new work when idle. */
  pollingIntervalSeconds?: number;
  /** Delay before a retry, doubled on each further attempt. */
  retryDelaySeconds?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
}

interface QueueMessage {
  owner_id: string;
  type: string;
  payload: unknown;
}

export class JobQueue<R extends JobRegistry> {
  private readonly boss: PgBoss;
  private readonly workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, AbortController>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly pollers: Promise<void>[] = [];
  private readonly shutdown = new AbortController();
  private started = false;

  constructor(
    private readonly registry: R,
    private readonly repository: JobsRepository,
    private readonly options: JobQueueOptions,
  ) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      max: options.poolSize ?? 4,
      schema: 'pgboss',
      application_name: 'invoicebox-queue',
      // Expired-job detection and archiving; our own lease sweeper handles lost workers faster.
      maintenanceIntervalSeconds: 30,
    });
    this.boss.on('error', (error: Error) => {
      this.log('error', 'queue error', { error: error.message });
    });
  }

  get id(): string {
    return this.workerId;
  }

  /**
   * Connects and creates pg-boss's schema and our queue if missing, under the lock of the migrations: pg-boss's own
   * locking does not cover `create_queue`, and two processes starting on a new database deadlock there.
   */
  async start(): Promise<void> {
    // A connection of its own holds the lock: pg-boss works on its own pool meanwhile.
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'invoicebox-queue',
    });
    await client.connect();
    client.on('error', () => {});
    try {
      await withSchemaLock(client, async () => {
        await this.boss.start();
        const existing = await this.boss.getQueue(QUEUE_NAME);
        if (!existing) {
          await this.boss.createQueue(QUEUE_NAME, {
            name: QUEUE_NAME,
            expireInSeconds: this.options.timeoutSeconds,
            retryLimit: 3,
            retryDelay: this.options.retryDelaySeconds ?? 5,
            retryBackoff: true,
          });
        }
      });
    } finally {
      await client.end().catch(() => undefined);
    }
    this.started = true;
  }

  /**
   * Validates the payload against the registry, records the job for its owner, then hands it to pg-boss.
   * Call it after the transaction that created the work has committed.
   */
  async enqueue<K extends keyof R & string>(ownerId: string, type: K, payload: PayloadOf<R, K>): Promise<string> {
    const definition = this.registry[type];
    if (!definition) throw new ValidationError(`unknown job type '${type}'`);
    const parsed = definition.payload.safeParse(payload);
    if (!parsed.success) {
      throw new ValidationError(
        `invalid payload for job '${type}': ${parsed.error.issues.map((i) => i.message).join('; ')}`,
      );
    }
    const id = randomUUID();
    await this.repository.insert({ id, ownerId, type, payload: parsed.data });
    try {
      const message: QueueMessage = { owner_id: ownerId, type, payload: parsed.data };
      await this.boss.send(QUEUE_NAME, message as unknown as object, {
        id,
        retryLimit: definition.retryLimit ?? 3,
      });
    } catch (error) {
      await this.repository.markFailed(id, `Could not queue the job: ${errorMessage(error)}`).catch(() => false);
      throw error;
    }
    return id;
  }

  /** Starts `concurrency` pollers in this process, plus the lease heartbeat and the lost-worker sweeper. */
  async work(concurrency: number): Promise<void> {
    if (!this.started) throw new Error('JobQueue.start() first');
    for (let i = 0; i < concurrency; i++) {
      this.pollers.push(
        this.poll().catch((error) => this.log('error', 'job poller stopped', { error: errorMessage(error) })),
      );
    }
    const leaseMs = this.options.leaseSeconds * 1000;
    this.timers.push(
      setInterval(() => void this.renewLeases(), Math.max(250, leaseMs / 4)),
      setInterval(() => void this.reclaimLostJobs(), Math.max(500, leaseMs / 2)),
    );
  }

  /**
   * Graceful stop: no new deliveries, running handlers are told to stop (signal) and get up to `graceMs` to finish;
   * whatever still runs then is failed in pg-boss (so it is retried) and set back to pending in our record.
   */
  async stop(graceMs: number): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
    if (!this.started) return;
    this.shutdown.abort();
    for (const controller of this.running.values()) controller.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.pollers),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    for (const id of this.running.keys()) {
      const mine = await this.repository
        .markPending(id, 'Interrupted by shutdown; the job will be run again', this.workerId)
        .catch(() => false);
      if (mine) await this.boss.fail(QUEUE_NAME, id, { message: 'shut down while active' }).catch(() => undefined);
    }
    await this.boss.stop({ graceful: false, close: true, wait: true });
    this.started = false;
  }

  /** Looks in pg-boss for a job's delivery state (tests and diagnostics). */
  async deliveryState(id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(QUEUE_NAME, id, { includeArchive: true });
    return job?.state;
  }

  /**
   * One poller: fetches a job, runs it, records the outcome, and fetches the next at once; polls at the interval
   * only when idle. Our own loop instead of pg-boss's `work()`, whose completion calls are not awaited: with the
   * database away they reject unhandled and end the process. A fetch during an outage finds nothing.
   */
  private async poll(): Promise<void> {
    const stopped = this.shutdown.signal;
    const idleMs = (this.options.pollingIntervalSeconds ?? 1) * 1000;
    while (!stopped.aborted) {
      let job: PgBoss.JobWithMetadata<QueueMessage> | undefined;
      try {
        [job] = await this.boss.fetch<QueueMessage>(QUEUE_NAME, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        this.log('warn', 'could not fetch jobs', { error: errorMessage(error) });
      }
      if (stopped.aborted) {
        // Fetched as the process stops: handed straight back (pg-boss retries it).
        if (job) await this.boss.fail(QUEUE_NAME, job.id, { message: 'shut down before it started' }).catch(() => {});
        return;
      }
      if (!job) {
        await sleep(idleMs, stopped);
        continue;
      }
      try {
        await this.run(job);
      } catch (error) {
        // Only a database fault that is not an outage gets here (an outage is waited out inside run).
        this.log('error', 'could not record the outcome of a job', { job_id: job.id, error: errorMessage(error) });
      }
    }
  }

  /**
   * Runs one delivery and records its outcome in our record and then in pg-boss, both awaited; a write that meets a
   * database outage is retried until the database is back. pg-boss is told only while our record says this worker
   * still holds the job: after a long outage a sweeper may have handed it to another worker already.
   */
  private async run(job: PgBoss.JobWithMetadata<QueueMessage>): Promise<void> {
    const { type, owner_id: ownerId, payload } = job.data;
    const definition = this.registry[type];
    const row = await this.untilStored(() => this.repository.markRunning(job.id, this.workerId));
    if (!row) {
      // Cleared by its owner, or already finished by an earlier delivery: nothing to do.
      await this.untilStored(() => this.boss.complete(QUEUE_NAME, job.id));
      return;
    }
    if (!definition) {
      const mine = await this.untilStored(() =>
        this.repository.markFailed(job.id, `No handler for job type '${type}'`, this.workerId),
      );
      if (mine) await this.untilStored(() => this.boss.complete(QUEUE_NAME, job.id));
      return;
    }
    const controller = new AbortController();
    this.running.set(job.id, controller);
    let attempt = row.attempts;
    const isLastAttempt = job.retryCount >= job.retryLimit;
    try {
      for (let outages = 0; ; outages++) {
        let message: string | undefined;
        try {
          const parsed = definition.payload.parse(payload);
          message = await definition.handler({
            jobId: job.id,
            ownerId,
            payload: parsed,
            attempt,
            signal: controller.signal,
            progress: (percent, text) =>
              this.repository.reportProgress(job.id, this.workerId, clampPercent(percent), text),
          });
        } catch (error) {
          if (!this.shutdown.signal.aborted && isDatabaseUnavailable(error) && outages < MAX_OUTAGE_RERUNS) {
            // The database went away under the job: wait for it, then run the job again in this same delivery
            // (handlers are idempotent), so an outage costs no attempt. Unless it was handed to another worker.
            this.log('warn', 'database unavailable during a job; it runs again when the database is back', {
              job_id: job.id,
              type,
              error: errorMessage(error),
            });
            const mine = await this.untilStored(() => this.repository.resume(job.id, this.workerId));
            if (!mine) return;
            attempt += 1;
            continue;
          }
          await this.recordFailure(job, type, attempt, isLastAttempt, error);
          return;
        }
        const mine = await this.untilStored(() => this.repository.markCompleted(job.id, this.workerId, message));
        if (mine) await this.untilStored(() => this.boss.complete(QUEUE_NAME, job.id));
        return;
      }
    } finally {
      this.running.delete(job.id);
    }
  }

  private async recordFailure(
    job: PgBoss.JobWithMetadata<QueueMessage>,
    type: string,
    attempt: number,
    isLastAttempt: boolean,
    error: unknown,
  ): Promise<void> {
    const text = errorMessage(error);
    const failDelivery = (message: string) =>
      this.untilStored(() => this.boss.fail(QUEUE_NAME, job.id, { message: boundedText(message, JOB_TEXT_LIMIT) }));
    if (this.shutdown.signal.aborted) {
      const mine = await this.untilStored(() =>
        this.repository.markPending(job.id, 'Interrupted by shutdown; the job will be run again', this.workerId),
      );
      if (mine) await failDelivery(text); // pg-boss records the failure and retries it
      return;
    }
    const retryable =
      error instanceof AppError ? error.retryable : !(error instanceof Error && error.name === 'ZodError');
    if (retryable && !isLastAttempt) {
      this.log('warn', 'job attempt failed; retrying', { job_id: job.id, type, attempt, error: text });
      const mine = await this.untilStored(() =>
        this.repository.markPending(job.id, `Attempt ${attempt} failed: ${text}. Retrying.`, this.workerId),
      );
      if (mine) await failDelivery(text);
      return;
    }
    this.log('error', 'job failed', { job_id: job.id, type, attempt, error: text });
    const mine = await this.untilStored(() => this.repository.markFailed(job.id, text, this.workerId));
    // Completed in pg-boss on purpose: a permanent failure must not be delivered again.
    if (mine) await this.untilStored(() => this.boss.complete(QUEUE_NAME, job.id));
  }

  /**
   * Runs a write, and again while the database is unreachable (back-off up to 5 s), for as long as the outage lasts;
   * once the process stops, one more try only. Other errors are thrown.
   */
  private async untilStored<T>(write: () => Promise<T>): Promise<T> {
    let delay = 250;
    for (;;) {
      try {
        return await write();
      } catch (error) {
        if (!isDatabaseUnavailable(error) || this.shutdown.signal.aborted) throw error;
        if (delay === 250) this.log('warn', 'database unavailable; waiting for it', { error: errorMessage(error) });
        await sleep(delay, this.shutdown.signal);
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private async renewLeases(): Promise<void> {
    try {
      await this.repository.heartbeat([...this.running.keys()], this.workerId);
    } catch (error) {
      this.log('warn', 'could not renew job leases', { error: errorMessage(error) });
    }
  }

  private async reclaimLostJobs(): Promise<void> {
    try {
      // Not this process's own jobs: it is alive, and after a database outage (every lease expired) it resumes them.
      const lost = await this.repository.reclaimExpiredLeases(this.options.leaseSeconds, this.workerId);
      for (const { id, type } of lost) {
        this.log('warn', 'job lost its worker; handing it to another', { job_id: id, type });
        await this.boss.fail(QUEUE_NAME, id, { message: 'worker lost (lease expired)' });
        const state = await this.deliveryState(id);
        if (state === 'failed') await this.repository.markFailed(id, 'The worker running this job was lost too often');
      }
    } catch (error) {
      this.log('warn', 'lease sweep failed', { error: errorMessage(error) });
    }
  }

  private log(level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) {
    this.options.log?.(level, message, detail);
  }
}

function clampPercent(value: number): number {
  return Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
}

/** Waits `ms`, or less when `signal` is aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
