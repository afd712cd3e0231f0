import { z } from 'zod';

/** Job types of spec §3; later modules add theirs here so that web and server agree on the list. */
export const JOB_TYPES = [
  'gmail_sync',
  'drive_upload',
  'full_sync',
  'bank_statement_analysis',
  'token_refresh',
  'mail_import',
  'document_upload',
  'sample_data',
  'forwarding',
  'invoice_forwarding',
  'noop',
] as const;
export const JobTypeSchema = z.enum(JOB_TYPES);
export type JobType = z.infer<typeof JobTypeSchema>;

export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** The Job entity of spec §3 as the API shows it. */
export const JobSchema = z.object({
  id: z.string(),
  type: z.string(),
  status: JobStatusSchema,
  progress: z.number().int().min(0).max(100),
  message: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Job = z.infer<typeof JobSchema>;

export const JobListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type JobListQuery = z.infer<typeof JobListQuerySchema>;

export const JobListResponseSchema = z.object({ jobs: z.array(JobSchema) });
export type JobListResponse = z.infer<typeof JobListResponseSchema>;

export const JobIdParamsSchema = z.object({ id: z.string().uuid() });

export const ClearJobsResponseSchema = z.object({ deleted: z.number().int() });

/** What every sync starter returns (spec §7: "Each of the three sync starters returns job_id"). */
export const JobStartedResponseSchema = z.object({ job_id: z.string() });
export type JobStartedResponse = z.infer<typeof JobStartedResponseSchema>;

/** Labels shown in History and in job toasts. */
export const JOB_TYPE_LABELS: Record<string, string> = {
  gmail_sync: 'Gmail Sync',
  drive_upload: 'Drive Upload',
  full_sync: 'Full Sync',
  bank_statement_analysis: 'Bank Statement Analysis',
  token_refresh: 'Token Refresh',
  mail_import: 'Mail Import',
  document_upload: 'Documents Added',
  sample_data: 'Sample Data Import',
  forwarding: 'Invoice Forwarding',
  invoice_forwarding: 'Invoice Forwarding',
  noop: 'Test Job',
};

export function jobTypeLabel(type: string): string {
  return JOB_TYPE_LABELS[type] ?? type.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}
