import { JobStartedResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountsService } from '../accounts/accounts.service';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';

// The starters are often called with no body at all (null), or an empty one.
const SyncBodySchema = z.object({ user_ids: z.array(z.string()).max(100).optional() }).nullish();

/** The sync starters of spec §7; each returns the job id to poll. */
export function syncRoutes(queue: JobQueue<AppJobRegistry>, accounts: AccountsService): FastifyPluginAsyncZod {
  return async (app) => {
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
