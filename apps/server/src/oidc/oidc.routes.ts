import {
  CodeExchangeBodySchema,
  OidcProviderParamsSchema,
  OidcStartBodySchema,
  OidcStartResponseSchema,
  SessionResponseSchema,
} from '@invoicebox/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../auth/sessions.service';
import { AppError } from '../errors';
import type { OidcSignInService } from './oidc-sign-in.service';

const BINDING_COOKIE = 'ibx_oidc';
const COOKIE_PATH = '/api/v1/auth/oidc';
/** The SPA's callback screen: a fixed path of our own origin, so no redirect can be steered elsewhere. */
const SPA_CALLBACK = '/auth/callback';

export function oidcRoutes(
  service: OidcSignInService,
  options: {
    publicUrl: string;
    rateLimitPerMinute: number;
    authenticate: (request: FastifyRequest) => Promise<Principal>;
  },
): FastifyPluginAsyncZod {
  const secure = options.publicUrl.startsWith('https:');
  return async (app) => {
    const open = { public: true, rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } };

    app.post(
      '/auth/oidc/:provider/start',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Starts a sign-in (or, with a backend token, an account connection) at an OpenID Connect provider',
          params: OidcProviderParamsSchema,
          body: OidcStartBodySchema,
          response: { 200: OidcStartResponseSchema },
        },
      },
      async (request, reply) => {
        const ownerId =
          request.body.purpose === 'add_account' ? (await options.authenticate(request)).user.id : undefined;
        const { url, binding } = await service.start(request.params.provider, request.body.purpose, ownerId);
        reply.header(
          'set-cookie',
          `${BINDING_COOKIE}=${binding}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure ? '; Secure' : ''}`,
        );
        return { url };
      },
    );

    app.get(
      '/auth/oidc/:provider/callback',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Where the provider sends the browser back; redirects to the SPA with a one-time code or an error',
          params: OidcProviderParamsSchema,
          querystring: z.record(z.string(), z.string()),
        },
      },
      async (request, reply) => {
        const callbackUrl = new URL(`${options.publicUrl}${request.url}`);
        clearBinding(reply, secure);
        try {
          const { code } = await service.callback(
            request.params.provider,
            callbackUrl,
            readCookie(request, BINDING_COOKIE),
            { userAgent: request.headers['user-agent'], clientAddress: request.ip },
          );
          return reply.redirect(`${SPA_CALLBACK}?code=${encodeURIComponent(code)}`, 302);
        } catch (error) {
          // The SPA's error state shows the message; the details stay in our log.
          const message =
            error instanceof AppError ? error.message : 'Unexpected error: sign-in could not be completed';
          if (!(error instanceof AppError) || error.status >= 500)
            request.log.error({ err: error }, 'oidc callback failed');
          return reply.redirect(`${SPA_CALLBACK}?error=${encodeURIComponent(message)}`, 302);
        }
      },
    );

    app.post(
      '/auth/code',
      {
        config: open,
        schema: {
          tags: ['auth'],
          summary: 'Redeems the one-time code of the sign-in redirect for the session (once, within a minute)',
          security: [],
          body: CodeExchangeBodySchema,
          response: { 200: SessionResponseSchema },
        },
      },
      async (request) => service.redeem(request.body.code),
    );
  };
}

function clearBinding(reply: FastifyReply, secure: boolean): void {
  reply.header(
    'set-cookie',
    `${BINDING_COOKIE}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`,
  );
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
