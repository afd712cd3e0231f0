import type { Job } from '@invoicebox/core';
import type { JobRow } from '../db/schema';
import { NotFoundError } from '../errors';
import type { JobsRepository } from './jobs.repository';

/** The person-facing side of jobs: their history, one job, clearing it. Always scoped to the caller. */
export class JobsService {
  constructor(private readonly repository: JobsRepository) {}

  async list(ownerId: string, limit: number): Promise<Job[]> {
    return (await this.repository.listForOwner(ownerId, limit)).map(toJob);
  }

  async get(ownerId: string, id: string): Promise<Job> {
    const row = await this.repository.findForOwner(ownerId, id);
    if (!row) throw new NotFoundError('Job not found');
    return toJob(row);
  }

  async clearAll(ownerId: string): Promise<number> {
    return this.repository.deleteFinishedForOwner(ownerId);
  }
}

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    progress: row.progress,
    message: row.message,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
