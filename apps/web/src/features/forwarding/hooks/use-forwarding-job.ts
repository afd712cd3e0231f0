import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { JOB_POLL_INTERVAL_MS } from '../../../lib/constants';
import { getActiveJobId, subscribeActiveJobId } from '../../jobs/active-job-store';
import { jobQueryOptions } from '../../jobs/api/get-job';
import { forwardingQueryKey } from '../api/forwarding-api';

const finished = (status: string | undefined) => status === 'completed' || status === 'failed';
/** The server runs Forward Now as `invoice_forwarding`; `forwarding` is the older name in core's job list. */
const FORWARDING_JOB_TYPES: ReadonlySet<string> = new Set(['invoice_forwarding', 'forwarding']);

/**
 * Whether the active job (spec §4) is a forwarding job that still runs. It shares the shell's job query, so the two
 * poll as one; when it ends, the forwarding stats and backlog are read again.
 */
export function useForwardingJobRunning(): boolean {
  const client = useQueryClient();
  const jobId = useSyncExternalStore(subscribeActiveJobId, getActiveJobId, () => null);
  const job = useQuery({
    ...jobQueryOptions(jobId ?? ''),
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (q) => (finished(q.state.data?.status) ? false : JOB_POLL_INTERVAL_MS),
    refetchIntervalInBackground: true,
    retry: false,
  });
  const data = jobId !== null && job.data?.id === jobId ? job.data : undefined;
  const running = data !== undefined && FORWARDING_JOB_TYPES.has(data.type) && !finished(data.status);

  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) void client.invalidateQueries({ queryKey: forwardingQueryKey });
    wasRunning.current = running;
  }, [running, client]);
  return running;
}
