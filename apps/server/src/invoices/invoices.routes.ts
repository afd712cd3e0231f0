import {
  InvoiceListQuerySchema,
  InvoiceListResponseSchema,
  InvoiceStatsQuerySchema,
  InvoiceStatsSchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../errors';
import type { InvoicesService } from './invoices.service';

/** RFC 6266 Content-Disposition: an ASCII fallback and the UTF-8 name, with nothing that could break the header. */
export function contentDisposition(filename: string): string {
  const clean = [...filename]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/["\\/]/g, '_');
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_') || 'attachment';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean || 'attachment')}`;
}

export function invoicesRoutes(service: InvoicesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/invoices',
      {
        schema: {
          tags: ['invoices'],
          summary: 'Invoices of the selected accounts with the filters of the Invoice Analysis screen',
          querystring: InvoiceListQuerySchema,
          response: { 200: InvoiceListResponseSchema },
        },
      },
      async (request) => service.list(request.user.id, request.query),
    );

    app.get(
      '/invoices/stats',
      {
        schema: {
          tags: ['invoices'],
          summary: 'Totals for the dashboard, in the primary currency, with every currency listed',
          querystring: InvoiceStatsQuerySchema,
          response: { 200: InvoiceStatsSchema },
        },
      },
      async (request) => service.stats(request.user.id, request.query.user_ids),
    );

    app.get(
      '/invoices/:id/attachments/:attachmentId',
      {
        schema: {
          tags: ['invoices'],
          summary: 'Downloads one attachment of an invoice',
          params: z.object({ id: z.string().uuid(), attachmentId: z.coerce.number().int().min(0).max(10_000) }),
        },
      },
      async (request, reply) => {
        const found = await service.attachment(request.user.id, request.params.id, request.params.attachmentId);
        if (!found) throw new NotFoundError('Attachment not found');
        return reply
          .header('content-type', found.contentType || 'application/octet-stream')
          .header('content-disposition', contentDisposition(found.filename))
          .header('x-content-type-options', 'nosniff')
          .send(found.bytes);
      },
    );
  };
}
