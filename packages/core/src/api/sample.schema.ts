import { z } from 'zod';

/**
 * "Try it with sample data" (issue 16): a bundled sample mailbox and bank statement, imported through the mail import
 * and the statement upload, marked as sample and removed with one click.
 */
export const SampleDataStatusSchema = z.object({
  /** Whether this server has the sample files (they are generated when the server is built). */
  available: z.boolean(),
  /** Whether the sample mailbox is loaded for this person. */
  loaded: z.boolean(),
  /** The sample mailbox (a connected account flagged sample), when loaded. */
  account_id: z.string().nullable(),
  account_email: z.string(),
  /** The person's sample statements. */
  statement_ids: z.array(z.string()),
  /** Invoices found in the sample mailbox so far. */
  invoices: z.number().int(),
  /** The job importing it (the last one started), to follow its progress. */
  job_id: z.string().nullable(),
  /** Whether its import or the analysis of its statement is still running. */
  importing: z.boolean(),
});
export type SampleDataStatus = z.infer<typeof SampleDataStatusSchema>;

export const SampleDataRemovedSchema = z.object({
  accounts: z.number().int(),
  invoices: z.number().int(),
  statements: z.number().int(),
});
export type SampleDataRemoved = z.infer<typeof SampleDataRemovedSchema>;

/** Shown on the badge of the sample mailbox and of its invoices and statement. */
export const SAMPLE_BADGE_LABEL = 'Sample data';
