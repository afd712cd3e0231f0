import { JobStartedResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountsService } from '../accounts/accounts.service';
import { connectRouteOptions, DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE } from '../http/connect-limit';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';
import type { SyncDiagnosticsService } from './sync-diagnostics.service';

// The starters are often called with no body at all (null), or an empty one.
const SyncBodySchema = z.object({ user_ids: z.array(z.string()).max(100).optional() }).nullish();

/** The sync starters of spec §7; each returns the job id to poll. */
const PortCheckResponseSchema = z.object({
  accounts: z.array(
    z.object({
      account_id: z.string(),
      email: z.string(),
      provider: z.string(),
      host: z.string().nullable(),
      port: z.number().int().nullable(),
      reachable: z.boolean().nullable(),
      latency_ms: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

const UserAggregationResponseSchema = z.object({
  accounts: z.array(
    z.object({
      account_id: z.string(),
      email: z.string(),
      provider: z.string(),
      is_primary: z.boolean(),
      last_sync: z.string().nullable(),
      messages: z.number().int(),
      invoices: z.number().int(),
    }),
  ),
  totals: z.object({ accounts: z.number().int(), messages: z.number().int(), invoice_links: z.number().int() }),
});

export function syncRoutes(
  queue: JobQueue<AppJobRegistry>,
  accounts: AccountsService,
  diagnostics: SyncDiagnosticsService,
  options: { connectRateLimitPerMinute?: number } = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sync/port-check',
      {
        ...connectRouteOptions(app, options.connectRateLimitPerMinute ?? DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE),
        schema: {
          tags: ['sync'],
          summary: "Whether each connected account's mail server answers from here (TCP connect, no credentials)",
          response: { 200: PortCheckResponseSchema },
        },
      },
      async (request) => diagnostics.portCheck(request.user.id),
    );

    app.post(
      '/sync/user-aggregation',
      {
        schema: {
          tags: ['sync'],
          summary: 'Per connected account: messages scanned, invoices found, last sync',
          response: { 200: UserAggregationResponseSchema },
        },
      },
      async (request) => diagnostics.userAggregation(request.user.id),
    );

    const scoped = async (ownerId: string, userIds: string[] | undefined) =>
      userIds?.length ? await accounts.resolveAccountIds(ownerId, userIds) : undefined;

    app.post(
      '/sync/gmail',
      {
        schema: {
          tags: ['sync'],
          summary: 'Starts the mail sync of the accounts in scope (or the given user_ids that are yours)',
          body: SyncBodySchema,
          response: { 200: JobStartedResponseSchema },
        },
      },
      async (request) => {
        const account_ids = await scoped(request.user.id, request.body?.user_ids);
        return { job_id: await queue.enqueue(request.user.id, 'gmail_sync', account_ids ? { account_ids } : {}) };
      },
    );

    app.post(
      '/sync/full',
      {
        schema: {
          tags: ['sync'],
          summary: 'Starts a full sync: mail sync, extraction, drive upload; initial_setup=true after a first sign-in',
          querystring: z.object({ initial_setup: z.enum(['true', 'false']).optional() }),
          body: SyncBodySchema,
          response: { 200: JobStartedResponseSchema },
        },
      },
      async (request) => {
        const account_ids = await scoped(request.user.id, request.body?.user_ids);
        return {
          job_id: await queue.enqueue(request.user.id, 'full_sync', {
            ...(account_ids ? { account_ids } : {}),
            initial_setup: request.query.initial_setup === 'true',
          }),
        };
      },
    );
  };
}
