import { z } from 'zod';

/** Where a person's invoices are filed (spec §1 and §6; Settings → Drive). */
export const DRIVE_KINDS = ['local', 'google', 'webdav'] as const;
export const DriveKindSchema = z.enum(DRIVE_KINDS);
export type DriveKind = z.infer<typeof DriveKindSchema>;

export const DRIVE_KIND_LABELS: Record<DriveKind, string> = {
  local: 'Local folder',
  google: 'Google Drive',
  webdav: 'WebDAV',
};

/** The drive connection as the API shows it; the WebDAV password is never returned. */
export const DriveConnectionSchema = z.object({
  kind: DriveKindSchema,
  /** The folder or URL invoices are filed under. */
  root: z.string(),
  google_account: z.object({ id: z.string(), email: z.string() }).nullable(),
  webdav: z.object({ url: z.string(), username: z.string() }).nullable(),
});
export type DriveConnection = z.infer<typeof DriveConnectionSchema>;

export const DriveConnectionBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  /** account_id: a connected Google account of yours; omitted = the primary account (spec §6). */
  z.object({ kind: z.literal('google'), account_id: z.string().uuid().optional() }),
  z.object({
    kind: z.literal('webdav'),
    url: z
      .string()
      .trim()
      .url()
      .max(2000)
      .refine((u) => /^https?:\/\//i.test(u), 'The WebDAV address must start with http:// or https://'),
    username: z.string().trim().min(1).max(320),
    password: z.string().min(1).max(1000),
  }),
]);
export type DriveConnectionBody = z.infer<typeof DriveConnectionBodySchema>;

/** POST /sync/drive/upload (spec §3 drive upload multi-user payload). */
export const DriveUploadBodySchema = z
  .object({
    user_ids: z.array(z.string()).max(100).optional(),
    target_user_id: z.string().optional(),
  })
  .nullish();
export type DriveUploadBody = z.infer<typeof DriveUploadBodySchema>;

export const DriveStatusResponseSchema = z.object({
  drive: z.object({
    kind: DriveKindSchema,
    root: z.string(),
    /** Whether the drive answered with the stored credentials just now. */
    reachable: z.boolean(),
    error: z.string().nullable(),
    /**
     * Why this drive may not work for this deployment although it answers here: a local folder when the database
     * is external, so that workers on other machines may run the uploads. Null when there is nothing to say.
     */
    warning: z.string().nullable(),
  }),
  accounts: z.array(
    z.object({
      account_id: z.string(),
      email: z.string(),
      is_primary: z.boolean(),
      uploaded: z.number().int(),
      pending: z.number().int(),
      failed: z.number().int(),
    }),
  ),
  totals: z.object({ uploaded: z.number().int(), pending: z.number().int(), failed: z.number().int() }),
});
export type DriveStatusResponse = z.infer<typeof DriveStatusResponseSchema>;

/** A link the Drive button opens: Google Drive's own page, or a short-lived link to the file on this server. */
export const DriveLinkResponseSchema = z.object({ url: z.string() });
export type DriveLinkResponse = z.infer<typeof DriveLinkResponseSchema>;
