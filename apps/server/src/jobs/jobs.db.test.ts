import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestDatabase } from '../../test/db';
import { waitFor } from '../../test/wait-for';
import { users } from '../db/schema';
import { AppError, NotFoundError, ValidationError } from '../errors';
import { JobQueue } from './job-queue';
import { defineJob } from './job-registry';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

const t = useTestDatabase();

class FlakyError extends AppError {
  constructor() {
    super('temporarily broken', { code: 'flaky', status: 503, retryable: true });
  }
}

const attemptsSeen = new Map<string, number>();

const registry = {
  count: defineJob({
    payload: z.object({ steps: z.number().int().min(1) }),
    async handler({ payload, progress }) {
      for (let i = 1; i <= payload.steps; i++) await progress((i / payload.steps) * 100, `step ${i}`);
      return `counted to ${payload.steps}`;
    },
  }),
  flaky_once: defineJob({
    payload: z.object({ key: z.string() }),
    async handler({ payload, attempt }) {
      attemptsSeen.set(payload.key, attempt);
      if (attempt === 1) throw new FlakyError();
      return 'second time lucky';
    },
  }),
  // The database "goes away" under the first run (the error a dropped connection gives), then is back.
  outage_once: defineJob({
    payload: z.object({ key: z.string() }),
    async handler({ payload, attempt }) {
      attemptsSeen.set(payload.key, attempt);
      if (attempt === 1) {
        throw new Error('Failed query: insert ...', {
          cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        });
      }
      return 'ran again once the database was back';
    },
    retryLimit: 0,
  }),
  broken: defineJob({
    payload: z.object({}),
    async handler() {
      throw new AppError('this cannot work', { code: 'permanent', status: 422, retryable: false });
    },
  }),
};

describe('job queue and job records', () => {
  let queue: JobQueue<typeof registry>;
  let repository: JobsRepository;
  let service: JobsService;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const { db } = t().database;
    const rows = await db
      .insert(users)
      .values([
        { email: 'alice@example.com', displayName: 'Alice' },
        { email: 'bob@example.com', displayName: 'Bob' },
      ])
      .returning();
    alice = rows[0]!.id;
    bob = rows[1]!.id;
    repository = new JobsRepository(db);
    service = new JobsService(repository);
    queue = new JobQueue(registry, repository, {
      connectionString: t().url,
      leaseSeconds: 2,
      timeoutSeconds: 60,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
    });
    await queue.start();
    await queue.work(2);
  });

  afterAll(async () => {
    await queue.stop(1000);
  });

  const finished = (owner: string, id: string) =>
    waitFor(async () => {
      const job = await service.get(owner, id);
      return job.status === 'completed' || job.status === 'failed' ? job : undefined;
    });
  const delivered = (id: string) =>
    waitFor(async () => ((await queue.deliveryState(id)) === 'completed' ? true : undefined));

  it('refuses unknown job types and bad payloads at enqueue', async () => {
    await expect(queue.enqueue(alice, 'nope' as 'count', { steps: 1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(queue.enqueue(alice, 'count', { steps: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(queue.enqueue(alice, 'count', { steps: 'x' } as never)).rejects.toThrow(/invalid payload/);
    expect(await service.list(alice, 20)).toEqual([]);
  });

  it('runs a job to completion with progress and its final message', async () => {
    const id = await queue.enqueue(alice, 'count', { steps: 4 });
    const pending = await service.get(alice, id);
    expect(pending).toMatchObject({ id, type: 'count', progress: 0 });
    const job = await finished(alice, id);
    expect(job).toMatchObject({ status: 'completed', progress: 100, message: 'counted to 4', error: null });
    expect(job.started_at).not.toBeNull();
    expect(Date.parse(job.finished_at!)).toBeGreaterThanOrEqual(Date.parse(job.started_at!));
    // pg-boss hears of it just after our record.
    expect(await delivered(id)).toBe(true);
  });

  it('retries a retryable failure and then completes', async () => {
    const id = await queue.enqueue(alice, 'flaky_once', { key: 'k1' });
    const job = await finished(alice, id);
    expect(job).toMatchObject({ status: 'completed', message: 'second time lucky' });
    expect(attemptsSeen.get('k1')).toBe(2);
  });

  it('runs a job again in the same delivery when the database went away under it: no attempt is spent', async () => {
    const id = await queue.enqueue(alice, 'outage_once', { key: 'outage' });
    const job = await finished(alice, id);
    // With no retry allowed, only a rerun within the delivery can complete it.
    expect(job).toMatchObject({ status: 'completed', message: 'ran again once the database was back' });
    expect(attemptsSeen.get('outage')).toBe(2);
    // pg-boss hears of it just after our record.
    expect(await delivered(id)).toBe(true);
  });

  it('fails a permanent error at once, with its message', async () => {
    const id = await queue.enqueue(alice, 'broken', {});
    const job = await finished(alice, id);
    expect(job).toMatchObject({ status: 'failed', error: 'this cannot work' });
    const row = await repository.findById(id);
    expect(row?.attempts).toBe(1);
  });

  it('scopes every read and delete to the owner', async () => {
    const id = await queue.enqueue(alice, 'count', { steps: 1 });
    await finished(alice, id);
    await expect(service.get(bob, id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await service.list(bob, 20)).toEqual([]);
    expect(await service.clearAll(bob)).toBe(0);
    expect((await service.list(alice, 20)).map((j) => j.id)).toContain(id);
  });

  it('lists newest first with a limit, and clear-all keeps unfinished jobs', async () => {
    const { db } = t().database;
    const [carol] = await db.insert(users).values({ email: 'carol@example.com', displayName: 'Carol' }).returning();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await queue.enqueue(carol!.id, 'count', { steps: 1 }));
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const id of ids) await finished(carol!.id, id);
    const listed = await service.list(carol!.id, 2);
    expect(listed.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    await repository.insert({ id: crypto.randomUUID(), ownerId: carol!.id, type: 'count', payload: {} });
    expect(await service.clearAll(carol!.id)).toBe(3);
    expect((await service.list(carol!.id, 20)).map((j) => j.status)).toEqual(['pending']);
  });

  it('hands a job whose worker stopped renewing its lease back to the queue', async () => {
    const id = crypto.randomUUID();
    await repository.insert({ id, ownerId: alice, type: 'count', payload: {} });
    await repository.markRunning(id, 'dead-worker');
    await t().database.pool.query(`update jobs set heartbeat_at = now() - interval '1 hour' where id = $1`, [id]);
    const reclaimed = await repository.reclaimExpiredLeases(2);
    expect(reclaimed).toEqual([{ id, type: 'count' }]);
    expect(await repository.reclaimExpiredLeases(2)).toEqual([]); // exactly once
    expect((await repository.findById(id))?.status).toBe('pending');
  });
});
