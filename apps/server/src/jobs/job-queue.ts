import { randomUUID } from 'node:crypto';
import os from 'node:os';
import PgBoss from 'pg-boss';
import { AppError, ValidationError } from '../errors';
import type { JobRegistry, PayloadOf } from './job-registry';
import type { JobsRepository } from './jobs.repository';

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
  private workerIds: string[] = [];
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

  /** Connects and creates pg-boss's schema and our queue if missing (both are idempotent and lock-protected). */
  async start(): Promise<void> {
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
      await this.repository.markFailed(id, `Could not queue the job: ${(error as Error).message}`);
      throw error;
    }
    return id;
  }

  /** Starts `concurrency` pollers in this process, plus the lease heartbeat and the lost-worker sweeper. */
  async work(concurrency: number): Promise<void> {
    if (!this.started) throw new Error('JobQueue.start() first');
    for (let i = 0; i < concurrency; i++) {
      const workerId: string = await this.boss.work<QueueMessage>(
        QUEUE_NAME,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          if (!job) return;
          try {
            await this.run(job);
          } finally {
            // Drain a busy queue at full speed; poll at the interval only when idle.
            (this.boss as unknown as { notifyWorker(id: string): void }).notifyWorker(workerId);
          }
        },
      );
      this.workerIds.push(workerId);
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
    await this.boss.stop({ graceful: true, timeout: graceMs, wait: true, close: true });
    for (const id of this.running.keys()) {
      await this.repository
        .markPending(id, 'Interrupted by shutdown; the job will be run again', this.workerId)
        .catch(() => {});
    }
    this.started = false;
  }

  /** Looks in pg-boss for a job's delivery state (tests and diagnostics). */
  async deliveryState(id: string): Promise<string | undefined> {
    const job = await this.boss.getJobById(QUEUE_NAME, id, { includeArchive: true });
    return job?.state;
  }

  private async run(job: PgBoss.JobWithMetadata<QueueMessage>): Promise<void> {
    const { type, owner_id: ownerId, payload } = job.data;
    const definition = this.registry[type];
    const row = await this.repository.markRunning(job.id, this.workerId);
    if (!row) return; // cleared by its owner, or already finished by an earlier delivery: nothing to do
    if (!definition) {
      await this.repository.markFailed(job.id, `No handler for job type '${type}'`, this.workerId);
      return;
    }
    const controller = new AbortController();
    this.running.set(job.id, controller);
    const attempt = row.attempts;
    const isLastAttempt = job.retryCount >= job.retryLimit;
    try {
      const parsed = definition.payload.parse(payload);
      const message = await definition.handler({
        jobId: job.id,
        ownerId,
        payload: parsed,
        attempt,
        signal: controller.signal,
        progress: (percent, text) => this.repository.reportProgress(job.id, this.workerId, clampPercent(percent), text),
      });
      await this.repository.markCompleted(job.id, this.workerId, message);
    } catch (error) {
      const text = errorText(error);
      if (this.shutdown.signal.aborted) {
        await this.repository.markPending(job.id, 'Interrupted by shutdown; the job will be run again', this.workerId);
        throw error; // pg-boss records the failure and retries it
      }
      const retryable =
        error instanceof AppError ? error.retryable : !(error instanceof Error && error.name === 'ZodError');
      if (retryable && !isLastAttempt) {
        this.log('warn', 'job attempt failed; retrying', { job_id: job.id, type, attempt, error: text });
        await this.repository.markPending(job.id, `Attempt ${attempt} failed: ${text}. Retrying.`, this.workerId);
        throw error;
      }
      this.log('error', 'job failed', { job_id: job.id, type, attempt, error: text });
      await this.repository.markFailed(job.id, text, this.workerId);
      // Completed in pg-boss on purpose: a permanent failure must not be delivered again.
    } finally {
      this.running.delete(job.id);
    }
  }

  private async renewLeases(): Promise<void> {
    try {
      await this.repository.heartbeat([...this.running.keys()], this.workerId);
    } catch (error) {
      this.log('warn', 'could not renew job leases', { error: errorText(error) });
    }
  }

  private async reclaimLostJobs(): Promise<void> {
    try {
      const lost = await this.repository.reclaimExpiredLeases(this.options.leaseSeconds);
      for (const { id, type } of lost) {
        this.log('warn', 'job lost its worker; handing it to another', { job_id: id, type });
        await this.boss.fail(QUEUE_NAME, id, { message: 'worker lost (lease expired)' });
        const state = await this.deliveryState(id);
        if (state === 'failed') await this.repository.markFailed(id, 'The worker running this job was lost too often');
      }
    } catch (error) {
      this.log('warn', 'lease sweep failed', { error: errorText(error) });
    }
  }

  private log(level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) {
    this.options.log?.(level, message, detail);
  }
}

function clampPercent(value: number): number {
  return Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
