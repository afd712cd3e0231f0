import { PreferencesSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PreferencesService } from './preferences.service';

export function preferencesRoutes(preferences: PreferencesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/preferences',
      {
        schema: {
          tags: ['settings'],
          summary: 'Your preferences (whether an invoice email needs a document attached)',
          response: { 200: PreferencesSchema },
        },
      },
      async (request) => preferences.get(request.user.id),
    );
    app.put(
      '/settings/preferences',
      {
        schema: {
          tags: ['settings'],
          summary: 'Changes your preferences; they apply to the next sync or import',
          body: PreferencesSchema,
          response: { 200: PreferencesSchema },
        },
      },
      async (request) => preferences.update(request.user.id, request.body),
    );
  };
}
