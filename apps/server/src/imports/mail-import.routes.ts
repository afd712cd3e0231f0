import { JobStartedResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnsupportedMediaTypeError } from '../errors';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';
import type { MailImportService } from './mail-import.service';

/** What a browser sends for an mbox or .eml file (and what a script would). */
const MAIL_FILE_TYPES = ['application/octet-stream', 'application/mbox', 'message/rfc822', 'application/zip'];

export function mailImportRoutes(imports: MailImportService, queue: JobQueue<AppJobRegistry>): FastifyPluginAsyncZod {
  return async (app) => {
    // The body is handed over as the raw stream: the service writes it to disk with its own size limit.
    app.addContentTypeParser(MAIL_FILE_TYPES, (_request, payload, done) => done(null, payload));

    app.post(
      '/imports/mail',
      {
        schema: {
          tags: ['imports'],
          summary:
            'Uploads an mbox file, one .eml file or a Google Takeout .zip as the request body and starts ' +
            'importing it (a mail_import job); account_email names the mailbox it is shown as (default: yours)',
          querystring: z.object({ account_email: z.string().trim().email().max(320).optional() }),
          response: { 200: JobStartedResponseSchema },
        },
      },
      async (request) => {
        const body = request.body as NodeJS.ReadableStream | undefined;
        if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') {
          throw new UnsupportedMediaTypeError(
            `Send the mail file itself as the body, typed ${MAIL_FILE_TYPES.join(', ')}`,
          );
        }
        const uploadId = await imports.receive(request.user.id, body);
        const accountEmail = request.query.account_email;
        return {
          job_id: await queue.enqueue(request.user.id, 'mail_import', {
            upload_id: uploadId,
            ...(accountEmail ? { account_email: accountEmail } : {}),
          }),
        };
      },
    );
  };
}
