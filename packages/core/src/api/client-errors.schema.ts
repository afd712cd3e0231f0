import { z } from 'zod';
import { IsoInstant } from './common.schema';

/** Spec §8/§9: the browser queues at most 50 unhandled errors; one report carries at most that many. */
export const CLIENT_ERROR_QUEUE_MAX = 50;

/** One unhandled error of the web app, as the browser queued it (spec §8 error reporting). */
export const ClientErrorReportSchema = z.object({
  message: z.string().max(2000),
  stack: z.string().max(8000).optional(),
  source: z.enum(['error', 'unhandledrejection', 'boundary']),
  /** The error boundary level that caught it (spec §8: component, page or critical). */
  level: z.enum(['component', 'page', 'critical']).optional(),
  url: z.string().max(2000),
  at: IsoInstant,
});
export type ClientErrorReport = z.infer<typeof ClientErrorReportSchema>;

/** POST /client-errors: the queued reports, sent at once. */
export const ClientErrorBatchSchema = z.object({
  reports: z.array(ClientErrorReportSchema).min(1).max(CLIENT_ERROR_QUEUE_MAX),
});
export type ClientErrorBatch = z.infer<typeof ClientErrorBatchSchema>;

export const ClientErrorBatchResponseSchema = z.object({ stored: z.number().int() });
