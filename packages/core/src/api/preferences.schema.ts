import { z } from 'zod';

/** A person's preferences (Settings): how mail is judged. */
export const PreferencesSchema = z.object({
  /** Only emails with a document attached (PDF, image, e-invoice…) count as invoices (spec §5; default true). */
  attachments_required: z.boolean(),
});
export type Preferences = z.infer<typeof PreferencesSchema>;

export const DEFAULT_PREFERENCES: Preferences = { attachments_required: true };
