import { z } from 'zod';

/** The display name of each person's Uploads source (a connected account of provider `upload`). */
export const UPLOADS_SOURCE_NAME = 'Uploads';

/**
 * What became of one added file (web upload, `invoicebox add`, the inbox folder):
 * - `added`: a new document, read and listed;
 * - `duplicate`: the same bytes are a document already (whichever way they came), nothing new was made;
 * - `unreadable`: stored and listed, but the document sandbox could not read its fields (`message` says why);
 * - `not_invoice`: an .eml the §5 rules do not take as an invoice;
 * - `failed`: refused, nothing stored (`code`: too_large, empty, not_a_document, unsupported_format).
 */
export const UPLOAD_FILE_STATUSES = ['added', 'duplicate', 'unreadable', 'not_invoice', 'failed'] as const;
export const UploadFileStatusSchema = z.enum(UPLOAD_FILE_STATUSES);
export type UploadFileStatus = z.infer<typeof UploadFileStatusSchema>;

export const UploadFileResultSchema = z.object({
  /** The file's name as sent (for display only; never used as a path). */
  name: z.string(),
  size: z.number().int().min(0),
  status: UploadFileStatusSchema,
  /** Stable reason for `failed` and `unreadable`, else null. */
  code: z.string().nullable(),
  /** One sentence for the person. */
  message: z.string(),
  sha256: z.string().nullable(),
  invoice_id: z.string().nullable(),
});
export type UploadFileResult = z.infer<typeof UploadFileResultSchema>;

export const UploadResponseSchema = z.object({
  files: z.array(UploadFileResultSchema),
  /** The Uploads source the documents were added to (choose it in the account scope to see them). */
  account_id: z.string().nullable(),
  /** The job record of this upload in the job history. */
  job_id: z.string().nullable(),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;
