import { type HealthResponse, HealthResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { version } from '../version';

export interface HealthProbe {
  engine: 'embedded' | 'external';
  database(): Promise<boolean>;
  queue(): Promise<boolean>;
}

const startedAt = Date.now();

/** GET /health: no auth. 200 when the database and the queue answer, 503 (same body) when either does not. */
export function healthRoutes(probe: HealthProbe): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Status of the database and the job queue, version and uptime',
          security: [],
          response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
        },
      },
      async (_request, reply) => {
        const [database, queue] = await Promise.all([probe.database(), probe.queue()]);
        const body: HealthResponse = {
          status: database && queue ? 'ok' : 'degraded',
          version,
          uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10,
          database: { status: database ? 'up' : 'down', engine: probe.engine },
          queue: { status: queue ? 'up' : 'down' },
        };
        return reply.status(body.status === 'ok' ? 200 : 503).send(body);
      },
    );
  };
}
