import { z } from 'zod';
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

export const jobRegistry = {
  noop: noopJob,
} satisfies JobRegistry;

export type AppJobRegistry = typeof jobRegistry;
