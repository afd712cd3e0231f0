import { MeResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export function meRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me',
      { schema: { tags: ['auth'], summary: 'The signed-in person', response: { 200: MeResponseSchema } } },
      async (request) => ({
        user: { id: request.user.id, email: request.user.email, display_name: request.user.displayName },
      }),
    );
  };
}
