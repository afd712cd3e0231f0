import { z } from 'zod';

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_seconds: z.number(),
  database: z.object({ status: z.enum(['up', 'down']), engine: z.enum(['embedded', 'external']) }),
  queue: z.object({ status: z.enum(['up', 'down']) }),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
