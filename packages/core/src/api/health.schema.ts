import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_seconds: z.number(),
  database: z.object({
    /** `restarting`: the embedded server died and is being started again by this process. */
    status: z.enum(['up', 'down', 'restarting']),
    engine: z.enum(['embedded', 'external']),
    /** Embedded server run by this process: the restart attempt under way, and restarts since start-up. */
    restart_attempt: z.number().int().optional(),
    restarts: z.number().int().optional(),
  }),
  queue: z.object({ status: z.enum(['up', 'down']) }),
  /** Spec §8 'Health check failed', on a 503 only (the error field is what a client shows). */
  error: z.string().optional(),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
