import {
  AccountIdParamsSchema,
  AccountListResponseSchema,
  ConnectedAccountSchema,
  ImapConnectBodySchema,
  UpdateScopeBodySchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { connectRouteOptions, DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE } from '../http/connect-limit';
import type { AccountsService } from './accounts.service';
import type { ImapAccountsService } from './imap-accounts.service';

export function accountsRoutes(
  service: AccountsService,
  imap?: ImapAccountsService,
  options: { connectRateLimitPerMinute?: number } = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    if (imap) {
      app.post(
        '/gmail/accounts/imap',
        {
          ...connectRouteOptions(app, options.connectRateLimitPerMinute ?? DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE),
          schema: {
            tags: ['accounts'],
            summary: 'Connects an IMAP mailbox (the server is tried first; the password is stored encrypted)',
            body: ImapConnectBodySchema,
            response: { 200: ConnectedAccountSchema },
          },
        },
        async (request) => imap.connect(request.user.id, request.body),
      );
    }

    app.get(
      '/gmail/accounts',
      {
        schema: {
          tags: ['accounts'],
          summary: 'The connected mail accounts and the multi-account session (scope, primary, active)',
          response: { 200: AccountListResponseSchema },
        },
      },
      async (request) => service.list(request.user.id),
    );

    app.post(
      '/gmail/accounts/:id/primary',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Makes an account the primary (used for drive uploads and as the default)',
          params: AccountIdParamsSchema,
          response: { 200: ConnectedAccountSchema },
        },
      },
      async (request) => service.setPrimary(request.user.id, request.params.id),
    );

    app.post(
      '/gmail/accounts/:id/activate',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Makes an account the active one (the one the "current" scope shows)',
          params: AccountIdParamsSchema,
          response: { 200: ConnectedAccountSchema },
        },
      },
      async (request) => service.activate(request.user.id, request.params.id),
    );

    app.delete(
      '/gmail/accounts/:id',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Disconnects an account; the primary cannot be removed while others exist (409)',
          params: AccountIdParamsSchema,
          response: { 200: z.object({ removed: ConnectedAccountSchema }) },
        },
      },
      async (request) => service.remove(request.user.id, request.params.id),
    );

    app.put(
      '/gmail/accounts/scope',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Chooses whose data views and operations cover: current, all, or a custom selection',
          body: UpdateScopeBodySchema,
          response: { 200: AccountListResponseSchema },
        },
      },
      async (request) => service.updateScope(request.user.id, request.body.selectedScope, request.body.selectedUserIds),
    );
  };
}
