import { z } from 'zod';
import type { ProviderAccessService } from '../oidc/provider-access.service';
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
}

export function createJobRegistry(deps: JobDependencies) {
  return {
    noop: noopJob,
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
