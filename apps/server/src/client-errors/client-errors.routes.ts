import { ClientErrorBatchResponseSchema, ClientErrorBatchSchema } from '@invoicebox/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Principal } from '../auth/sessions.service';
import type { ClientErrorsService } from './client-errors.service';

/** Reports per minute from one client address: enough for a real failure, not for a loop flooding the table. */
export const CLIENT_ERROR_RATE_LIMIT_PER_MINUTE = 10;

/**
 * Spec §8 error reporting: the browser sends its queued unhandled errors here. Open to visitors too (errors of the
 * landing page and of a failed sign-in matter most); a signed-in sender's reports carry their id.
 */
export function clientErrorsRoutes(
  service: ClientErrorsService,
  options: {
    authenticate: (request: FastifyRequest) => Promise<Principal>;
    rateLimitPerMinute?: number;
  },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/client-errors',
      {
        config: {
          public: true,
          rateLimit: { max: options.rateLimitPerMinute ?? CLIENT_ERROR_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 },
        },
        schema: {
          tags: ['errors'],
          summary: 'Stores unhandled errors of the web app for the operator (signed in or not; rate-limited)',
          body: ClientErrorBatchSchema,
          response: { 202: ClientErrorBatchResponseSchema },
        },
      },
      async (request, reply) => {
        // A missing or stale token is no reason to lose the report: it is stored without an owner.
        const ownerId = await options.authenticate(request).then(
          (principal) => principal.user.id,
          () => null,
        );
        const stored = await service.store(request.body.reports, { ownerId, clientAddress: request.ip });
        return reply.code(202).send({ stored });
      },
    );
  };
}
