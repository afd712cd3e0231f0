import { JobSchema } from '@invoicebox/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { jobsQueryKey } from './get-jobs';

export function getJob(id: string, signal?: AbortSignal) {
  return api.get(`/jobs/${encodeURIComponent(id)}`, { schema: JobSchema, signal });
}

export const jobQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...jobsQueryKey, 'detail', id] as const,
    queryFn: ({ signal }) => getJob(id, signal),
  });
