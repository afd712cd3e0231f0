import { z } from 'zod';

/**
 * Sign-in through an OpenID Connect provider (Google or a configured issuer), run by the server.
 * 1. POST /auth/oidc/{provider}/start → `{ url }`; the browser goes there (a binding cookie is set on the way).
 *    With purpose `add_account` the call carries the backend token: the account joins the signed-in person.
 * 2. The provider redirects to GET /auth/oidc/{provider}/callback, which redirects the browser to the SPA's
 *    `/auth/callback?code=<one-time code>` (or `?error=<message>`).
 * 3. POST /auth/code `{ code }` (no auth header) → the session (SessionResponseSchema of auth.schema.ts), once.
 */
export const OidcProviderParamsSchema = z.object({ provider: z.string().min(1).max(40) });

export const OidcStartBodySchema = z.object({
  purpose: z.enum(['sign_in', 'add_account']).default('sign_in'),
});
export type OidcStartBody = z.infer<typeof OidcStartBodySchema>;

export const OidcStartResponseSchema = z.object({ url: z.string().url() });
export type OidcStartResponse = z.infer<typeof OidcStartResponseSchema>;

export const CodeExchangeBodySchema = z.object({ code: z.string().min(16).max(200) });
export type CodeExchangeBody = z.infer<typeof CodeExchangeBodySchema>;
