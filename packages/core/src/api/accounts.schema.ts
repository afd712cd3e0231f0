import { z } from 'zod';

/**
 * Kinds of mail account a person can connect. `upload` is each person's "Uploads" source: the documents they added
 * themselves (web upload, `invoicebox add`, the inbox folder). It is chosen in the account scope like a mailbox,
 * is never the primary, and has nothing to sync.
 */
export const MAIL_PROVIDERS = ['google', 'oidc', 'imap', 'mbox', 'upload'] as const;
export const MailProviderSchema = z.enum(MAIL_PROVIDERS);
export type MailProvider = z.infer<typeof MailProviderSchema>;

/** The connected account of spec §3 (camelCase as the spec names it), plus what a person needs to act on it. */
export const ConnectedAccountSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string(),
  isActive: z.boolean(),
  isPrimary: z.boolean(),
  lastSync: z.string().nullable(),
  provider: MailProviderSchema,
  /** Set when the provider refused our tokens (revoked, expired refresh token): the person must sign in again. */
  needsReauth: z.boolean(),
  reauthReason: z.string().nullable(),
});
export type ConnectedAccount = z.infer<typeof ConnectedAccountSchema>;

export const ACCOUNT_SCOPES = ['current', 'all', 'custom'] as const;
export const AccountScopeSchema = z.enum(ACCOUNT_SCOPES);
export type AccountScope = z.infer<typeof AccountScopeSchema>;

/** The multi-account session of spec §3, kept on the server. */
export const MultiAccountSessionSchema = z.object({
  connectedAccounts: z.array(ConnectedAccountSchema),
  selectedScope: AccountScopeSchema,
  selectedUserIds: z.array(z.string()),
  primaryUserId: z.string().nullable(),
  activeUserId: z.string().nullable(),
});
export type MultiAccountSession = z.infer<typeof MultiAccountSessionSchema>;

/** GET /gmail/accounts */
export const AccountListResponseSchema = z.object({
  accounts: z.array(ConnectedAccountSchema),
  session: MultiAccountSessionSchema,
});
export type AccountListResponse = z.infer<typeof AccountListResponseSchema>;

export const AccountIdParamsSchema = z.object({ id: z.string().uuid() });

/** PUT /gmail/accounts/scope */
export const UpdateScopeBodySchema = z.object({
  selectedScope: AccountScopeSchema,
  selectedUserIds: z.array(z.string()).max(100).default([]),
});
export type UpdateScopeBody = z.infer<typeof UpdateScopeBodySchema>;

/** `user_ids` as the spec's multi-user forms send it: a comma list in queries, an array in bodies. */
export const UserIdsQuerySchema = z
  .string()
  .max(4000)
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** §5: 'Cannot remove primary account. Set another account as primary first.' */
export const CANNOT_REMOVE_PRIMARY_MESSAGE = 'Cannot remove primary account. Set another account as primary first.';

/** POST /gmail/accounts/imap: connects any IMAP mailbox (password or app password); checked before it is saved. */
export const ImapConnectBodySchema = z.object({
  email: z.string().trim().email().max(320),
  display_name: z.string().trim().max(200).optional(),
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:]+\]$/, 'must be a host name or address'),
  port: z.number().int().min(1).max(65_535).default(993),
  /** TLS from the first byte (port 993); false for STARTTLS or a plain local server. */
  secure: z.boolean().default(true),
  /** Defaults to the email address. */
  username: z.string().trim().min(1).max(320).optional(),
  password: z.string().min(1).max(1024),
  mailboxes: z.array(z.string().trim().min(1).max(200)).min(1).max(20).default(['INBOX']),
});
export type ImapConnectBody = z.infer<typeof ImapConnectBodySchema>;
