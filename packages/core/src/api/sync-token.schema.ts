import { z } from 'zod';

/**
 * GET /sync/token/status and POST /sync/token/refresh: the state of each connected account's provider access.
 * - valid: the access token lives more than 5 minutes; expiring: less; expired: past, but a refresh token exists;
 * - revoked: the provider refused our refresh token: the person must sign in with that account again;
 * - missing: no provider tokens (e.g. an IMAP or mbox account, which needs none: `needs_tokens` is false).
 */
export const TOKEN_STATUSES = ['valid', 'expiring', 'expired', 'revoked', 'missing'] as const;
export const TokenStatusSchema = z.enum(TOKEN_STATUSES);
export type TokenStatus = z.infer<typeof TokenStatusSchema>;

export const AccountTokenStatusSchema = z.object({
  account_id: z.string(),
  email: z.string(),
  provider: z.string(),
  needs_tokens: z.boolean(),
  status: TokenStatusSchema,
  expires_at: z.string().nullable(),
  scopes: z.array(z.string()),
  /** Why the account needs a new sign-in, when it does. */
  message: z.string().nullable(),
});
export type AccountTokenStatus = z.infer<typeof AccountTokenStatusSchema>;

export const TokenStatusResponseSchema = z.object({ accounts: z.array(AccountTokenStatusSchema) });
export type TokenStatusResponse = z.infer<typeof TokenStatusResponseSchema>;

export const TokenRefreshResponseSchema = z.object({
  accounts: z.array(AccountTokenStatusSchema),
  refreshed: z.number().int(),
  failed: z.number().int(),
});
export type TokenRefreshResponse = z.infer<typeof TokenRefreshResponseSchema>;
