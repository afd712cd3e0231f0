import {
  DriveConnectionBodySchema,
  DriveConnectionSchema,
  DriveLinkResponseSchema,
  DriveStatusResponseSchema,
  DriveUploadBodySchema,
  JobStartedResponseSchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountsService } from '../accounts/accounts.service';
import { NotFoundError } from '../errors';
import {
  connectRouteOptions,
  DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE,
  perPersonRouteOptions,
} from '../http/connect-limit';
import { servedFileHeaders } from '../http/file-headers';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';
import type { DriveService } from './drive.service';

/** Spec §7 drive calls, the drive choice of Settings, and the Drive button's link. */
export function driveRoutes(
  drive: DriveService,
  queue: JobQueue<AppJobRegistry>,
  accounts: AccountsService,
  options: { connectRateLimitPerMinute?: number } = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/sync/drive/upload',
      {
        schema: {
          tags: ['drive'],
          summary:
            'Starts filing the invoices of the accounts in scope (or the given user_ids that are yours) in the drive; ' +
            'target_user_id picks the Google account whose drive is used (default: the primary)',
          body: DriveUploadBodySchema,
          response: { 200: JobStartedResponseSchema },
        },
      },
      async (request) => {
        const ownerId = request.user.id;
        const userIds = request.body?.user_ids;
        const account_ids = userIds?.length ? await accounts.resolveAccountIds(ownerId, userIds) : undefined;
        const target = request.body?.target_user_id;
        if (target && !(await accounts.resolveAccountIds(ownerId, [target])).includes(target)) {
          throw new NotFoundError('Account not found');
        }
        return {
          job_id: await queue.enqueue(ownerId, 'drive_upload', {
            ...(account_ids ? { account_ids } : {}),
            ...(target ? { target_account_id: target } : {}),
          }),
        };
      },
    );

    app.post(
      '/sync/drive/status',
      {
        // It asks the drive whether it answers: three times the connect limit, per person.
        ...perPersonRouteOptions(
          app,
          3 * (options.connectRateLimitPerMinute ?? DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE),
          'Too many drive checks; try again in a minute',
        ),
        schema: {
          tags: ['drive'],
          summary: 'Which drive is used, whether it answers, its root, and per account the invoices filed or not',
          response: { 200: DriveStatusResponseSchema },
        },
      },
      async (request) => drive.status(request.user.id),
    );

    app.get(
      '/drive/connection',
      {
        schema: {
          tags: ['drive'],
          summary: 'The drive your invoices are filed in (the WebDAV password is never returned)',
          response: { 200: DriveConnectionSchema },
        },
      },
      async (request) => drive.connection(request.user.id),
    );

    app.put(
      '/drive/connection',
      {
        // Every choice is tried at once; a WebDAV URL is a server the person names.
        ...connectRouteOptions(app, options.connectRateLimitPerMinute ?? DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE),
        schema: {
          tags: ['drive'],
          summary: 'Chooses the drive: the local folder, Google Drive of a Google account, or a WebDAV server',
          body: DriveConnectionBodySchema,
          response: { 200: DriveConnectionSchema },
        },
      },
      async (request) => drive.configure(request.user.id, request.body),
    );

    app.post(
      '/invoices/:id/drive-link',
      {
        schema: {
          tags: ['drive'],
          summary: "A link that opens the invoice's file in the drive (valid for one minute when served from here)",
          params: z.object({ id: z.string().uuid() }),
          response: { 200: DriveLinkResponseSchema },
        },
      },
      async (request) => drive.link(request.user.id, request.params.id),
    );

    app.get(
      // The link is in the query: it is longer than a path parameter may be (Fastify's maxParamLength).
      '/drive/open',
      {
        // A browser window opened by the Drive button carries no bearer token: the short-lived link is the proof.
        config: { public: true },
        schema: {
          tags: ['drive'],
          summary: 'Opens a drive file through a link made by /invoices/{id}/drive-link',
          querystring: z.object({ link: z.string().min(1).max(4000) }),
        },
      },
      async (request, reply) => {
        const opened = await drive.openLink(request.query.link);
        if (opened.kind === 'redirect') return reply.redirect(opened.url);
        // PDFs and images open in the browser; anything that could run script is a sandboxed download.
        return reply
          .headers(servedFileHeaders({ contentType: opened.contentType, filename: opened.name }, 'inline'))
          .header('content-length', opened.size)
          .header('cache-control', 'private, no-store')
          .header('referrer-policy', 'no-referrer')
          .send(opened.stream);
      },
    );
  };
}
