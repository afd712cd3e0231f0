import { jobTypeLabel } from '@invoicebox/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../../lib/api-client';
import { JOB_CLEAR_DELAY_MS, JOB_FINAL_TOAST_MS, JOB_POLL_INTERVAL_MS } from '../../../lib/constants';
import { getActiveJobId, setActiveJobId, subscribeActiveJobId } from '../active-job-store';
import { jobQueryOptions } from '../api/get-job';

const isFinished = (status: string | undefined) => status === 'completed' || status === 'failed';

/**
 * Spec §4: the active job is polled every 2 s; a toast with its type label says 'Processing' until it ends,
 * then 'Completed' or 'Failed' for 5 s; the active job is cleared 2 s after the end.
 */
/** What a finished job may have changed: its results are asked for again. */
const CHANGED_BY_JOBS = [['invoices'], ['accounts'], ['drive-status'], ['jobs', 'list'], ['forwarding']] as const;

export function useActiveJob() {
  const client = useQueryClient();
  const jobId = useSyncExternalStore(subscribeActiveJobId, getActiveJobId, () => null);

  const query = useQuery({
    ...jobQueryOptions(jobId ?? ''),
    enabled: jobId !== null,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (q) => (isFinished(q.state.data?.status) ? false : JOB_POLL_INTERVAL_MS),
    refetchIntervalInBackground: true,
    retry: false,
  });
  const job = jobId !== null && query.data?.id === jobId ? query.data : undefined;
  const status = job?.status;
  const type = job?.type;

  useEffect(() => {
    if (!jobId || !status || !type) return;
    const label = jobTypeLabel(type);
    if (status === 'completed') {
      toast.success(label, { id: jobId, description: 'Completed', duration: JOB_FINAL_TOAST_MS });
    } else if (status === 'failed') {
      toast.error(label, { id: jobId, description: 'Failed', duration: JOB_FINAL_TOAST_MS });
    } else {
      toast.loading(label, { id: jobId, description: 'Processing', duration: Number.POSITIVE_INFINITY });
      return;
    }
    for (const queryKey of CHANGED_BY_JOBS) void client.invalidateQueries({ queryKey });
    const timer = setTimeout(() => {
      if (getActiveJobId() === jobId) setActiveJobId(null);
    }, JOB_CLEAR_DELAY_MS);
    return () => clearTimeout(timer);
  }, [jobId, status, type, client]);

  // A job that no longer exists (deleted with the history) cannot finish: forget it and its toast.
  const missing = query.error instanceof ApiError && query.error.status === 404;
  useEffect(() => {
    if (!missing || !jobId) return;
    toast.dismiss(jobId);
    if (getActiveJobId() === jobId) setActiveJobId(null);
  }, [missing, jobId]);

  return { jobId, job, setActiveJob: setActiveJobId, clearActiveJob: () => setActiveJobId(null) };
}
