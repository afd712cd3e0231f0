import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, isDatabaseUnavailable } from '../errors';

/** The one place where errors become the API's `{ error, code }` bodies. Unknown errors are a logged 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toResponse(error);
    if (status >= 500) {
      request.log.error({ err: error, error_code: body.code }, 'request failed');
    } else {
      request.log.info({ status, error_code: body.code, error: body.error }, 'request rejected');
    }
    if (status === 503) reply.header('retry-after', '5');
    return reply.status(status).send(body);
  });
}

export function toResponse(error: FastifyError | Error): { status: number; body: { error: string; code: string } } {
  if (error instanceof AppError) return { status: error.status, body: { error: error.message, code: error.code } };
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    const where = fastifyError.validationContext ?? 'request';
    const details = fastifyError.validation
      .map((v) => `${where}${v.instancePath ? v.instancePath.replaceAll('/', '.') : ''}: ${v.message}`)
      .join('; ');
    return { status: 400, body: { error: `Invalid ${where}: ${details}`, code: 'validation_failed' } };
  }
  if (isResponseSerializationError(fastifyError)) {
    return { status: 500, body: { error: 'Internal server error', code: 'internal' } };
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { error: 'The database is unavailable; try again shortly', code: 'service_unavailable' },
    };
  }
  // Fastify's own client errors: malformed JSON, body too large, unsupported media type, ...
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const codes: Record<number, string> = {
      400: 'bad_request',
      404: 'not_found',
      405: 'method_not_allowed',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      429: 'rate_limited',
    };
    return { status, body: { error: fastifyError.message, code: codes[status] ?? 'bad_request' } };
  }
  return { status: 500, body: { error: 'Internal server error', code: 'internal' } };
}
