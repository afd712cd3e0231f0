import { InboundAddressSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { InboundAddressService } from './inbound-address.service';

export function inboundRoutes(addresses: InboundAddressService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/inbound-address',
      {
        schema: {
          tags: ['settings'],
          summary:
            'Your address for mailing or forwarding invoices in (made on first call); enabled is false when the ' +
            'operator has not turned the listener on',
          response: { 200: InboundAddressSchema },
        },
      },
      async (request) => addresses.current(request.user.id),
    );
    app.post(
      '/settings/inbound-address/rotate',
      {
        schema: {
          tags: ['settings'],
          summary: 'Replaces your invoice address with a new one; mail to the old one is refused from now on',
          response: { 200: InboundAddressSchema },
        },
      },
      async (request) => addresses.rotate(request.user.id),
    );
  };
}
