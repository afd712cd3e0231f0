import { TokenRefreshResponseSchema, TokenStatusResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ProviderAccessService } from './provider-access.service';

export function syncTokenRoutes(access: ProviderAccessService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sync/token/status',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Provider access of each connected account: valid, expiring, expired, revoked or missing',
          response: { 200: TokenStatusResponseSchema },
        },
      },
      async (request) => access.status(request.user.id),
    );
    app.post(
      '/sync/token/refresh',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Refreshes the provider access of every connected account now',
          response: { 200: TokenRefreshResponseSchema },
        },
      },
      async (request) => access.refreshAll(request.user.id),
    );
  };
}
