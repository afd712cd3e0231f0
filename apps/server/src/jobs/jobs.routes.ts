import {
  ClearJobsResponseSchema,
  JobIdParamsSchema,
  JobListQuerySchema,
  JobListResponseSchema,
  JobSchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JobsService } from './jobs.service';

export function jobsRoutes(service: JobsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/jobs',
      {
        schema: {
          tags: ['jobs'],
          summary: 'The signed-in person’s jobs, newest first',
          querystring: JobListQuerySchema,
          response: { 200: JobListResponseSchema },
        },
      },
      async (request) => ({ jobs: await service.list(request.user.id, request.query.limit) }),
    );

    app.get(
      '/jobs/:id',
      {
        schema: {
          tags: ['jobs'],
          summary: 'One job with its status, progress and message',
          params: JobIdParamsSchema,
          response: { 200: JobSchema },
        },
      },
      async (request) => service.get(request.user.id, request.params.id),
    );

    app.delete(
      '/jobs/clear-all',
      {
        schema: {
          tags: ['jobs'],
          summary: 'Deletes the finished jobs of the signed-in person (running ones stay)',
          response: { 200: ClearJobsResponseSchema },
        },
      },
      async (request) => ({ deleted: await service.clearAll(request.user.id) }),
    );
  };
}
