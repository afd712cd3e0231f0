import { once } from 'node:events';
import { Readable } from 'node:stream';
import {
  AccountInvoicesResponseSchema,
  InvoiceExportQuerySchema,
  InvoiceListQuerySchema,
  InvoiceListResponseSchema,
  InvoiceStatsQuerySchema,
  InvoiceStatsSchema,
} from '@invoicebox/core';
import { ZipArchive } from 'archiver';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../errors';
import { contentDisposition, servedFileHeaders } from '../http/file-headers';
import type { ExportRow, InvoicesService } from './invoices.service';

const EXPORT_COLUMNS = [
  'id',
  'vendor',
  'email',
  'amount',
  'amount_minor',
  'currency',
  'invoice_date',
  'invoice_number',
  'status',
  'category',
  'details',
  'drive_file_id',
  'attachments',
] as const satisfies ReadonlyArray<keyof ExportRow>;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled. A text starting with
 * = + - @ (or tab/CR) is prefixed with ' so that a spreadsheet does not run it as a formula.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* csvLines(rows: AsyncIterable<ExportRow>): AsyncGenerator<string> {
  yield `${EXPORT_COLUMNS.join(',')}\r\n`;
  for await (const row of rows) yield `${EXPORT_COLUMNS.map((c) => csvField(row[c])).join(',')}\r\n`;
}

async function* jsonLines(rows: AsyncIterable<ExportRow>): AsyncGenerator<string> {
  yield '{"invoices":[';
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}\n${JSON.stringify(row)}`;
    first = false;
  }
  yield '\n]}\n';
}

/**
 * The ZIP export: `invoices.csv` and the documents in `YYYY/MM/` folders. Entries are added one at a time (the next
 * only after the previous is written), so a large export never holds many files open or in memory; a document missing
 * from storage is listed in `missing.txt` instead of breaking the archive.
 */
export function invoicesZip(
  csv: AsyncIterable<string>,
  documents: AsyncIterable<{ name: string; sha256: string }>,
  service: Pick<InvoicesService, 'documentStream'>,
  log: { warn(obj: object, msg: string): void },
): Readable {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  // Resolves when the archive has written the entry just appended (rejects on an archive error).
  const append = async (source: string | Readable, name: string) => {
    const written = once(archive, 'entry');
    archive.append(source, { name });
    await written;
  };
  void (async () => {
    try {
      let text = '';
      for await (const line of csv) text += line;
      await append(text, 'invoices.csv');
      const missing: string[] = [];
      for await (const doc of documents) {
        const stream = await service.documentStream(doc.sha256);
        if (!stream) {
          missing.push(doc.name);
          continue;
        }
        await append(stream, `Invoices/${doc.name}`);
      }
      if (missing.length > 0) {
        archive.append(`Not in storage any more:\n${missing.join('\n')}\n`, { name: 'missing.txt' });
      }
      await archive.finalize();
    } catch (error) {
      log.warn({ err: error }, 'invoice ZIP export failed');
      archive.abort();
      archive.destroy(error as Error);
    }
  })();
  return archive;
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
      '/gmail/accounts/invoices',
      {
        schema: {
          tags: ['invoices'],
          summary: 'The invoice list grouped per connected account in scope, with the filters of GET /invoices',
          querystring: InvoiceListQuerySchema,
          response: { 200: AccountInvoicesResponseSchema },
        },
      },
      async (request) => service.listByAccount(request.user.id, request.query),
    );

    app.get(
      '/invoices/export',
      {
        schema: {
          tags: ['invoices'],
          summary: 'The filtered invoices as a CSV (RFC 4180, formula-safe) or JSON file, streamed, newest first',
          querystring: InvoiceExportQuerySchema,
        },
      },
      async (request, reply) => {
        const { format, ...filters } = request.query;
        const rows = service.exportRows(request.user.id, filters);
        const day = new Date().toISOString().slice(0, 10);
        if (format === 'zip') {
          return reply
            .header('content-type', 'application/zip')
            .header('content-disposition', contentDisposition(`invoices-${day}.zip`))
            .header('cache-control', 'no-store')
            .send(invoicesZip(csvLines(rows), service.exportDocuments(request.user.id, filters), service, request.log));
        }
        return reply
          .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header('content-disposition', contentDisposition(`invoices-${day}.${format}`))
          .header('cache-control', 'no-store')
          .send(Readable.from(format === 'csv' ? csvLines(rows) : jsonLines(rows)));
      },
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
        const found = await service.attachmentStream(request.user.id, request.params.id, request.params.attachmentId);
        if (!found) throw new NotFoundError('Attachment not found');
        // Always a download: the app saves it; a hostile HTML or SVG never renders in our origin.
        return reply
          .headers(servedFileHeaders(found, 'attachment'))
          .header('content-length', found.size)
          .send(found.stream);
      },
    );
  };
}
