import type {} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '../errors';
import { ConnectionFailedError } from '../net/outbound';

export const DEFAULT_CONNECT_RATE_LIMIT_PER_MINUTE = 10;

/**
 * Route options for the calls that connect to a server a person names (connect IMAP, connect WebDAV, port check).
 * Each try costs the server a connection and may take seconds, and a burst of them is how a port scan looks: every
 * call counts against a limit per person and one per client address (@fastify/rate-limit's counters, as the sign-in
 * routes use). The reason a connection failed is hidden from the person (ConnectionFailedError) and logged here.
 */
export function connectRouteOptions(app: Pick<FastifyInstance, 'createRateLimit'>, perMinute: number) {
  const limits = [
    app.createRateLimit({
      max: perMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `person:${request.user.id}`,
    }),
    app.createRateLimit({ max: perMinute, timeWindow: 60_000, keyGenerator: (request) => `address:${request.ip}` }),
  ];
  return {
    preHandler: refuseOverLimit(limits, 'Too many connection attempts; try again in a minute'),
    onError: async (request: FastifyRequest, _reply: FastifyReply, error: Error) => {
      if (error instanceof ConnectionFailedError) {
        request.log.warn({ reason: reasons(error.cause) }, 'could not connect to the server a person named');
      }
    },
  };
}

/**
 * Route options for a call that reaches out to a server on each request without connecting anew (the drive's status:
 * it asks the drive whether it answers): a limit per person, generous enough for a person clicking around, so that
 * one session cannot turn it into a stream of requests to a server of its choosing.
 */
export function perPersonRouteOptions(
  app: Pick<FastifyInstance, 'createRateLimit'>,
  perMinute: number,
  message: string,
) {
  const limit = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `person:${request.routeOptions.url}:${request.user.id}`,
  });
  return { preHandler: refuseOverLimit([limit], message) };
}

type RateLimit = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A preHandler counting the call against each limit: after the auth hook (onRequest), so that the person is known;
 * after validation, so that typos cost nothing.
 */
function refuseOverLimit(limits: RateLimit[], message: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const limit of limits) {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(result.ttlInSeconds));
        throw new RateLimitedError(message);
      }
    }
  };
}

/** The messages of an error and of its causes, outermost first (the err serializer shows only the first). */
function reasons(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error as { message?: unknown; cause?: unknown } | undefined; e && messages.length < 5; ) {
    if (typeof e.message === 'string') messages.push(e.message);
    e = e.cause as typeof e;
  }
  return messages;
}
