import {
  type ForwardingConfig,
  type ForwardingConfigBody,
  ForwardingConfigSchema,
  ForwardingStartResponseSchema,
  ForwardingStatsSchema,
  type SmtpRelayBody,
  SmtpRelayResponseSchema,
} from '@invoicebox/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError, api } from '../../../lib/api-client';
import { JOB_POLL_INTERVAL_MS } from '../../../lib/constants';
import { setActiveJobId } from '../../jobs/active-job-store';

/** Everything of the forwarding module sits under this key: a finished job and the shell's Refresh reach it at once. */
export const forwardingQueryKey = ['forwarding'] as const;
export const forwardingConfigQueryKey = [...forwardingQueryKey, 'config'] as const;
export const forwardingStatsQueryKey = [...forwardingQueryKey, 'stats'] as const;

/** Spec §8 toasts and load messages. */
export const FORWARDING_TEXT = {
  loadFailed:
    'Failed to load forwarding configuration. This might be your first time setting up forwarding. Please refresh the page or try again later.',
  statsFailed: 'Failed to load forwarding statistics: ',
  saved: 'Forwarding configuration updated successfully',
  saveFailed: 'Failed to update forwarding configuration',
  started: 'Invoice forwarding started',
  startFailed: 'Failed to start forwarding',
} as const;

/** Mails waiting for a retry are re-read now and then, not every 2 s: a backoff can last minutes. */
export const PENDING_POLL_INTERVAL_MS = 10_000;

/** The server's own words when it gave some (a refused address, no sender), for a toast's description. */
export function serverMessage(error: unknown): string | undefined {
  if (error instanceof ApiError && error.status > 0 && !/^HTTP \d+$/.test(error.message)) return error.message;
  return undefined;
}

export const useForwardingConfig = () =>
  useQuery({
    queryKey: forwardingConfigQueryKey,
    queryFn: ({ signal }) => api.get('/forwarding/config', { schema: ForwardingConfigSchema, signal }),
    // Asked again on every visit: the sender or the backlog may have changed since the cache was written.
    staleTime: 0,
  });

/**
 * GET /forwarding/stats: every 2 s while a forwarding job runs, every 10 s while mails are still pending (a sync
 * queued them, or they wait for a retry), otherwise once.
 */
export const useForwardingStats = (jobRunning: boolean) =>
  useQuery({
    queryKey: forwardingStatsQueryKey,
    queryFn: ({ signal }) => api.get('/forwarding/stats', { schema: ForwardingStatsSchema, signal }),
    staleTime: 0,
    refetchInterval: (q) =>
      jobRunning ? JOB_POLL_INTERVAL_MS : (q.state.data?.total_pending ?? 0) > 0 ? PENDING_POLL_INTERVAL_MS : false,
  });

export function useSaveForwardingConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ForwardingConfigBody) => api.put('/forwarding/config', { schema: ForwardingConfigSchema, body }),
    onSuccess: async (config: ForwardingConfig) => {
      client.setQueryData(forwardingConfigQueryKey, config);
      toast.success(FORWARDING_TEXT.saved);
      await client.invalidateQueries({ queryKey: forwardingStatsQueryKey });
    },
    onError: (error) => {
      toast.error(FORWARDING_TEXT.saveFailed, { description: serverMessage(error) });
    },
  });
}

/** POST /forwarding/start ('Forward Now'): its job becomes the active job, so the shell shows its progress. */
export function useStartForwarding() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/forwarding/start', { schema: ForwardingStartResponseSchema }),
    onSuccess: async ({ job_id, queued }) => {
      setActiveJobId(job_id);
      toast.success(FORWARDING_TEXT.started, {
        description: queued === 1 ? '1 mail queued' : `${queued} mails queued`,
      });
      await Promise.all([
        client.invalidateQueries({ queryKey: forwardingQueryKey }),
        client.invalidateQueries({ queryKey: ['jobs'] }),
      ]);
    },
    onError: (error) => {
      toast.error(FORWARDING_TEXT.startFailed, { description: serverMessage(error) });
    },
  });
}

export const smtpRelayQueryKey = [...forwardingQueryKey, 'smtp-relay'] as const;

/** Settings → SMTP relay: the person's own relay (never its password), or null. */
export const useSmtpRelay = () =>
  useQuery({
    queryKey: smtpRelayQueryKey,
    queryFn: ({ signal }) => api.get('/forwarding/smtp-relay', { schema: SmtpRelayResponseSchema, signal }),
  });

/** The server connects and logs in with it before it saves it; a refusal comes back as an ApiError with its reason. */
export function useSaveSmtpRelay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SmtpRelayBody) => api.put('/forwarding/smtp-relay', { schema: SmtpRelayResponseSchema, body }),
    onSuccess: async (answer) => {
      client.setQueryData(smtpRelayQueryKey, answer);
      // The sender shown on the Forwarding screen changes with it.
      await client.invalidateQueries({ queryKey: forwardingConfigQueryKey });
    },
  });
}
