import {
  AuthMethodsResponseSchema,
  ChallengeBodySchema,
  ChallengeResponseSchema,
  EnrolFactorBodySchema,
  EnrolFactorResponseSchema,
  ExchangeBodySchema,
  ExchangeResponseSchema,
  FactorIdParamsSchema,
  FactorListResponseSchema,
  LogoutResponseSchema,
  RecoveryBodySchema,
  SessionResponseSchema,
  SignInBodySchema,
  SignInResponseSchema,
  SignUpAcceptedResponseSchema,
  SignUpBodySchema,
  StoreTokensBodySchema,
  StoreTokensResponseSchema,
  ValidateResponseSchema,
  VerifyFactorBodySchema,
} from '@invoicebox/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OidcClient } from '../oidc/oidc.client';
import type { UsersService } from '../users/users.service';
import type { LocalAuthService } from './local-auth.service';
import { LockedOutError } from './lockout';
import type { MfaService } from './mfa.service';
import type { ProviderTokensService } from './provider-tokens';
import type { SecretBox } from './secret-box';
import { type SessionsService, toAuthUser } from './sessions.service';
import type { SigningKeys } from './signing-keys';

export interface AuthModule {
  local: LocalAuthService;
  sessions: SessionsService;
  mfa: MfaService;
  providerTokens: ProviderTokensService;
  keys: SigningKeys;
  /** Requests per minute and client address on the endpoints that take a password, a code or a session token. */
  rateLimitPerMinute: number;
  /** The configured OpenID Connect providers, by id ('google', 'oidc'). */
  oidcClients: Map<string, OidcClient>;
  /** Encryption of data at rest. */
  box: SecretBox;
  /** Runs `fn` with people creation serialised (the first person becomes the owner). */
  withSignupLock: <T>(fn: (users: UsersService) => Promise<T>) => Promise<T>;
}

/** request.ip is the socket's address, or the forwarded client's when the operator trusts a proxy. */
const context = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], clientAddress: request.ip });

/** The spec §7 identity calls and the local account, under /api/v1/auth. */
export function authRoutes(auth: AuthModule): FastifyPluginAsyncZod {
  return async (app) => {
    // Public here means "no backend token required": these routes check their own credentials.
    const open = { public: true, rateLimit: { max: auth.rateLimitPerMinute, timeWindow: 60_000 } };

    app.addHook('onError', async (_request, reply, error) => {
      if (error instanceof LockedOutError) reply.header('retry-after', String(error.retryAfterSeconds));
    });

    app.get(
      '/auth/methods',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Which sign-in methods this installation offers',
          security: [],
          response: { 200: AuthMethodsResponseSchema },
        },
      },
      async () => auth.local.methods(),
    );

    app.post(
      '/auth/local/signup',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary:
            'Create the local account: the first one becomes the owner and is signed in (201); later ones, when ' +
            'sign-up is open, get the same 202 whether or not the address had an account, then sign in',
          security: [],
          body: SignUpBodySchema,
          response: { 201: SessionResponseSchema, 202: SignUpAcceptedResponseSchema },
        },
      },
      async (request, reply) => {
        const { status, body } = await auth.local.signUp(request.body, context(request));
        return reply.status(status).send(body);
      },
    );

    app.post(
      '/auth/local/signin',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Sign in with email and password; a second factor, when enrolled, is asked for next',
          security: [],
          body: SignInBodySchema,
          response: { 200: SignInResponseSchema },
        },
      },
      async (request) => auth.local.signIn(request.body, context(request)),
    );

    app.post(
      '/auth/exchange',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Exchange the identity session token for a backend token; stores provider tokens sent along',
          security: [],
          body: ExchangeBodySchema,
          response: { 200: ExchangeResponseSchema },
        },
      },
      async (request) => auth.sessions.exchange(request.body),
    );

    app.get(
      '/auth/validate',
      { schema: { tags: ['auth'], summary: 'Check the backend token', response: { 200: ValidateResponseSchema } } },
      async (request) => ({
        valid: true as const,
        user: toAuthUser(request.user),
        expires_at: request.principal.tokenExpiresAt.toISOString(),
      }),
    );

    app.post(
      '/auth/tokens',
      {
        schema: {
          tags: ['auth'],
          summary: 'Store the provider tokens of the signed-in person (encrypted; never returned)',
          body: StoreTokensBodySchema,
          response: { 200: StoreTokensResponseSchema },
        },
      },
      async (request) => {
        const { body, user } = request;
        const stored = await auth.providerTokens.store(user.id, {
          provider: body.provider ?? 'google',
          accountEmail: body.account_email ?? user.email,
          accessToken: body.access_token,
          refreshToken: body.refresh_token,
          expiresInSeconds: body.expires_in,
          scope: body.scope,
        });
        return {
          stored: true as const,
          provider: stored.provider,
          account_email: stored.accountEmail,
          expires_at: stored.expiresAt?.toISOString() ?? null,
        };
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'End the server session of the backend token',
          response: { 200: LogoutResponseSchema },
        },
      },
      async (request) => {
        await auth.sessions.revoke(request.user.id, request.principal.sessionId);
        return { success: true as const };
      },
    );

    await app.register(factorRoutes(auth, open));
  };
}

/** Second factors: enrolment with a backend token; challenge, verify and recovery also with an mfa token. */
function factorRoutes(
  auth: AuthModule,
  open: { public: boolean; rateLimit: { max: number; timeWindow: number } },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/auth/factors',
      {
        schema: {
          tags: ['auth'],
          summary: 'The second factors of the signed-in person',
          response: { 200: FactorListResponseSchema },
        },
      },
      async (request) => ({ factors: await auth.mfa.list(request.user.id) }),
    );

    app.post(
      '/auth/factors',
      {
        schema: {
          tags: ['auth'],
          summary: 'Start enrolling a TOTP factor: its secret and otpauth:// URI',
          body: EnrolFactorBodySchema,
          response: { 201: EnrolFactorResponseSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await auth.mfa.enrol(request.user, request.body.friendly_name)),
    );

    app.delete(
      '/auth/factors/:factorId',
      {
        schema: {
          tags: ['auth'],
          summary: 'Remove a second factor',
          params: FactorIdParamsSchema,
          response: { 200: z.object({ deleted: z.literal(true) }) },
        },
      },
      async (request) => {
        await auth.mfa.remove(request.user.id, request.params.factorId);
        return { deleted: true as const };
      },
    );

    app.post(
      '/auth/factors/:factorId/challenge',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Challenge a factor (bearer: the mfa token of a sign-in, or a backend token when enrolling)',
          params: FactorIdParamsSchema,
          body: ChallengeBodySchema,
          response: { 200: ChallengeResponseSchema },
        },
      },
      async (request) => auth.mfa.challenge(request.headers, request.params.factorId),
    );

    app.post(
      '/auth/factors/:factorId/verify',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Verify a code against a challenge; opens the session',
          params: FactorIdParamsSchema,
          body: VerifyFactorBodySchema,
          response: { 200: SessionResponseSchema },
        },
      },
      async (request) => auth.mfa.verify(request.headers, request.params.factorId, request.body, context(request)),
    );

    app.post(
      '/auth/recovery',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Complete a sign-in with a single-use recovery code (bearer: the mfa token)',
          body: RecoveryBodySchema,
          response: { 200: SessionResponseSchema },
        },
      },
      async (request) => auth.mfa.recover(request.headers, request.body.code, context(request)),
    );

    app.post(
      '/auth/recovery-codes',
      {
        schema: {
          tags: ['auth'],
          summary: 'Replace the recovery codes (shown once)',
          response: { 200: z.object({ recovery_codes: z.array(z.string()) }) },
        },
      },
      async (request) => ({ recovery_codes: await auth.mfa.regenerateRecoveryCodes(request.user.id) }),
    );
  };
}

/** GET /.well-known/jwks.json at the server root: the public keys that verify our tokens. */
export function jwksRoutes(keys: SigningKeys): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/.well-known/jwks.json',
      {
        schema: {
          tags: ['auth'],
          summary: 'Public keys of the token signatures (JWKS)',
          security: [],
          response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return keys.jwks();
      },
    );
  };
}
