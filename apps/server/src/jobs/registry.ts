import { z } from 'zod';
import { AppError } from '../errors';
import type { ProviderAccessService } from '../oidc/provider-access.service';
import type { MailSyncService } from '../sync/mail-sync.service';
import { defineJob, type JobRegistry } from './job-registry';

/**
 * Every job type of the product: name → payload schema → handler. Domain modules add their jobs here
 * (gmail_sync, drive_upload, full_sync, ...). Enqueueing an unknown name or a bad payload is refused.
 */
export const noopJob = defineJob({
  // A diagnostic job: it only reports progress. Used by the benchmarks and to check that workers run.
  payload: z.object({
    steps: z.number().int().min(0).max(1000).default(0),
    step_ms: z.number().int().min(0).max(60_000).default(0),
  }),
  async handler({ payload, progress, signal }) {
    for (let step = 1; step <= payload.steps; step++) {
      signal.throwIfAborted();
      if (payload.step_ms > 0) await new Promise((r) => setTimeout(r, payload.step_ms));
      await progress((step / payload.steps) * 100, `Step ${step} of ${payload.steps}`);
    }
    return 'Done';
  },
});

/** What the product's job handlers need; built by the runtime before the queue. */
export interface JobDependencies {
  providerAccess: ProviderAccessService;
  mailSync: MailSyncService;
}

const syncPayload = z.object({
  account_ids: z.array(z.string().uuid()).max(100).optional(),
  initial_setup: z.boolean().optional(),
});

function summary(results: Array<{ ok: boolean; email: string; message: string }>): string {
  if (results.length === 0) return 'No mail account is connected yet';
  return results.map((r) => `${r.email}: ${r.ok ? '' : 'failed: '}${r.message}`).join('; ');
}

export function createJobRegistry(deps: JobDependencies) {
  return {
    noop: noopJob,
    gmail_sync: defineJob({
      // The spec's name: the mail sync of every source of the accounts in scope (IMAP, Gmail API).
      payload: syncPayload,
      async handler({ ownerId, payload, progress, signal }) {
        const results = await deps.mailSync.sync(ownerId, payload.account_ids, { signal, progress });
        if (results.length > 0 && results.every((r) => !r.ok)) {
          throw new AppError(summary(results), { code: 'sync_failed', status: 502 });
        }
        return summary(results);
      },
    }),
    full_sync: defineJob({
      // Mail sync (with field extraction as messages are stored), then the drive upload step.
      payload: syncPayload,
      async handler({ ownerId, payload, progress, signal }) {
        await progress(5, payload.initial_setup ? 'First sync of your mailboxes' : 'Syncing mail');
        const results = await deps.mailSync.sync(ownerId, payload.account_ids, {
          signal,
          progress: (percent, message) => progress(5 + percent * 0.85, message),
        });
        await progress(95, 'Drive upload is not available yet on this server');
        return `${summary(results)}. Drive upload: not available yet.`;
      },
    }),
    token_refresh: defineJob({
      // Refreshes the person's provider access before it expires; a refused grant marks that account only.
      payload: z.object({}),
      async handler({ ownerId, progress }) {
        await progress(10, 'Refreshing provider access');
        const result = await deps.providerAccess.refreshAll(ownerId);
        return result.failed > 0
          ? `Refreshed ${result.refreshed} account(s); ${result.failed} need a new sign-in`
          : `Refreshed ${result.refreshed} account(s)`;
      },
    }),
  } satisfies JobRegistry;
}

export type AppJobRegistry = ReturnType<typeof createJobRegistry>;
