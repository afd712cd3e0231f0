import { randomUUID } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { UploadResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';
import { type AddedFile, tooLarge, type UploadsService } from './uploads.service';

/**
 * `POST /invoices/upload`: several documents in one multipart request. Each file part is streamed to a temporary
 * file of our own naming (never a name from the request) with the size limit applied while it streams; a file over
 * the limit is cut off and reported, the others go on. Then all go through UploadsService (the mail ingest).
 */
export function uploadsRoutes(uploads: UploadsService, tempDir: string, maxFiles: number): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: uploads.maxBytes, files: maxFiles, fields: 20, fieldSize: 1024, parts: maxFiles + 20 },
    });

    app.post(
      '/invoices/upload',
      {
        schema: {
          tags: ['invoices'],
          summary:
            'Adds documents (PDF, JPEG, PNG, HEIC, e-invoice XML, .eml) sent as multipart/form-data file parts: each goes ' +
            'through the mail ingest (SHA-256 dedupe, extraction, drive filing) into your Uploads source; one ' +
            'result per file, in order',
          consumes: ['multipart/form-data'],
          response: { 200: UploadResponseSchema },
        },
      },
      async (request) => {
        if (!request.isMultipart()) {
          throw new UnsupportedMediaTypeError('Send the files as multipart/form-data file parts');
        }
        const dir = path.join(tempDir, 'invoicebox-uploads');
        await fs.mkdir(dir, { recursive: true, mode: 0o700 });
        const files: AddedFile[] = [];
        // Every temporary file made, also one cut short by a dropped request.
        const made: string[] = [];
        try {
          try {
            for await (const part of request.files()) {
              const file = path.join(dir, `${randomUUID()}.upload`);
              made.push(file);
              let size = 0;
              part.file.on('data', (chunk: Buffer) => {
                size += chunk.length;
              });
              await pipeline(part.file, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
              if (part.file.truncated) {
                await fs.rm(file, { force: true });
                files.push({ name: part.filename, size, refused: tooLarge(uploads.maxBytes) });
              } else {
                files.push({ name: part.filename, path: file, size });
              }
            }
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_FILES_LIMIT') {
              throw new PayloadTooLargeError(`Send at most ${maxFiles} files at once`);
            }
            throw error;
          }
          if (files.length === 0) throw new ValidationError('The request has no file part');
          return await uploads.add(request.user.id, files, 'upload');
        } finally {
          await Promise.all(made.map((file) => fs.rm(file, { force: true })));
        }
      },
    );
  };
}
