import {
  ForwardingConfigBodySchema,
  ForwardingConfigSchema,
  ForwardingStartResponseSchema,
  ForwardingStatsSchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ForwardingService } from './forwarding.service';

/** The four forwarding calls of spec §7. */
export function forwardingRoutes(forwarding: ForwardingService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/forwarding/config',
      {
        schema: {
          tags: ['forwarding'],
          summary:
            'Your forwarding config (enabled, target_emails), when it was enabled, the sender mails go out with, ' +
            'and how many invoices Forward Now would add',
          response: { 200: ForwardingConfigSchema },
        },
      },
      async (request) => forwarding.getConfig(request.user.id),
    );
    app.put(
      '/forwarding/config',
      {
        schema: {
          tags: ['forwarding'],
          summary:
            'Saves enabled and target_emails. Addresses are parsed (RFC 5322, one bare address each), duplicates ' +
            'refused whatever their case, at most 20; switching on sets enabled_at (invoices found from then on are ' +
            'forwarded after each sync)',
          body: ForwardingConfigBodySchema,
          response: { 200: ForwardingConfigSchema },
        },
      },
      async (request) => forwarding.updateConfig(request.user.id, request.body),
    );
    app.post(
      '/forwarding/start',
      {
        schema: {
          tags: ['forwarding'],
          summary:
            'Forward Now: queues every invoice of the account scope not yet sent or queued to each recipient and starts the invoice_forwarding job (409 when forwarding is off, has no recipient or no sender)',
          response: { 200: ForwardingStartResponseSchema },
        },
      },
      async (request) => forwarding.start(request.user.id),
    );
    app.get(
      '/forwarding/stats',
      {
        schema: {
          tags: ['forwarding'],
          summary: 'Forwarded, failed and pending mails of the account scope, the success rate and the latest failures',
          response: { 200: ForwardingStatsSchema },
        },
      },
      async (request) => forwarding.stats(request.user.id),
    );
  };
}
