import { JobListResponseSchema } from '@invoicebox/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { HISTORY_JOB_LIMIT } from '../../../lib/constants';

export const jobsQueryKey = ['jobs'] as const;

export function getJobs(limit: number, signal?: AbortSignal) {
  return api.get('/jobs', { schema: JobListResponseSchema, query: { limit }, signal });
}

export const jobsQueryOptions = (limit: number = HISTORY_JOB_LIMIT) =>
  queryOptions({
    queryKey: [...jobsQueryKey, 'list', { limit }] as const,
    queryFn: ({ signal }) => getJobs(limit, signal),
  });

export function useJobs(limit: number = HISTORY_JOB_LIMIT) {
  return useQuery(jobsQueryOptions(limit));
}
