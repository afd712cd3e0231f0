import { SampleDataRemovedSchema, SampleDataStatusSchema } from '@invoicebox/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { JOB_POLL_INTERVAL_MS } from '../../../lib/constants';

export const sampleQueryKey = ['sample-data'] as const;

/** Everything a load or a removal of the sample changes. */
export const CHANGED_BY_SAMPLE = [
  sampleQueryKey,
  ['invoices'],
  ['accounts'],
  ['bank-statements'],
  ['jobs', 'list'],
] as const;

export const getSampleData = (signal?: AbortSignal) =>
  api.get('/sample-data', { schema: SampleDataStatusSchema, signal });

export const loadSampleData = () => api.post('/sample-data', { schema: SampleDataStatusSchema });

export const removeSampleData = () => api.delete('/sample-data', { schema: SampleDataRemovedSchema });

/**
 * The sample's state, polled while it is being imported (the invoices
 * and the statement arrive through jobs).
 */
export const useSampleData = () =>
  useQuery({
    queryKey: sampleQueryKey,
    queryFn: ({ signal }) => getSampleData(signal),
    refetchInterval: (query) => (query.state.data?.importing ? JOB_POLL_INTERVAL_MS : false),
  });
