import { ClearJobsResponseSchema } from '@invoicebox/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { api } from '../../../lib/api-client';
import { jobsQueryKey } from './get-jobs';

export function clearJobs() {
  return api.delete('/jobs/clear-all', { schema: ClearJobsResponseSchema });
}

export function useClearJobs() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: clearJobs,
    onSuccess: async () => {
      toast.success('All activity logs cleared successfully');
      await client.invalidateQueries({ queryKey: jobsQueryKey });
    },
    onError: () => {
      toast.error('Failed to clear activity logs');
    },
  });
}
