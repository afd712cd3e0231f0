import {
  ForwardingConfigBodySchema,
  ForwardingConfigSchema,
  ForwardingStartResponseSchema,
  ForwardingStatsSchema,
  SmtpRelayBodySchema,
  SmtpRelayResponseSchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { connectRouteOptions, DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE } from '../http/connect-limit';
import type { ForwardingService } from './forwarding.service';
import type { SmtpRelayService } from './smtp-relay.service';

/** The four forwarding calls of spec §7, and the person's own SMTP relay of Settings. */
export function forwardingRoutes(
  forwarding: ForwardingService,
  relays: SmtpRelayService,
  options: { connectRateLimitPerMinute?: number } = {},
): FastifyPluginAsyncZod {
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
    app.get(
      '/forwarding/smtp-relay',
      {
        schema: {
          tags: ['forwarding'],
          summary: 'Your own SMTP relay for forwarding (the password is never returned); null when you have none',
          response: { 200: SmtpRelayResponseSchema },
        },
      },
      async (request) => ({ relay: await relays.get(request.user.id) }),
    );
    app.put(
      '/forwarding/smtp-relay',
      {
        // The relay is tried (connect, TLS, sign-in) before it is saved: a server the person names.
        ...connectRouteOptions(app, options.connectRateLimitPerMinute ?? DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE),
        schema: {
          tags: ['forwarding'],
          summary:
            'Sets your own SMTP relay (host, port, TLS mode, user, app password, From); it is tried before it is ' +
            'saved and used instead of the server’s relay when you have no Google account',
          body: SmtpRelayBodySchema,
          response: { 200: SmtpRelayResponseSchema },
        },
      },
      async (request) => ({ relay: await relays.save(request.user.id, request.body) }),
    );
    app.delete(
      '/forwarding/smtp-relay',
      {
        schema: {
          tags: ['forwarding'],
          summary: 'Removes your own SMTP relay',
          response: { 200: SmtpRelayResponseSchema },
        },
      },
      async (request) => relays.remove(request.user.id),
    );
  };
}
