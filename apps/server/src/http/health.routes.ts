import { type HealthResponse, HealthResponseSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { version } from '../version';

export interface HealthProbe {
  engine: 'embedded' | 'external';
  database(): Promise<boolean>;
  queue(): Promise<boolean>;
  /** The embedded server's supervision, when this process runs it. */
  embedded?():
    | { state: 'running' | 'restarting' | 'attached' | 'stopped'; attempt: number; restarts: number }
    | undefined;
}

const startedAt = Date.now();

/** Spec §8: the error a client shows for a 503. */
export const HEALTH_CHECK_FAILED = 'Health check failed';

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
        const embedded = probe.embedded?.();
        const supervised = embedded && embedded.state !== 'attached' ? embedded : undefined;
        const restarting = !database && supervised?.state === 'restarting';
        const body: HealthResponse = {
          status: database && queue ? 'ok' : 'degraded',
          version,
          uptime_seconds: Math.round((Date.now() - startedAt) / 100) / 10,
          database: {
            status: database ? 'up' : restarting ? 'restarting' : 'down',
            engine: probe.engine,
            ...(restarting ? { restart_attempt: supervised.attempt } : {}),
            ...(supervised ? { restarts: supervised.restarts } : {}),
          },
          queue: { status: queue ? 'up' : 'down' },
          ...(database && queue ? {} : { error: HEALTH_CHECK_FAILED }),
        };
        return reply.status(body.status === 'ok' ? 200 : 503).send(body);
      },
    );
  };
}
