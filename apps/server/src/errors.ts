/**
 * One error hierarchy for the whole server. Each error carries a stable snake_case `code`, the HTTP `status` the API
 * answers with, and whether the operation may succeed if retried (job runners read `retryable`).
 * The single mapping to the `{ error }` body lives in http/error-handler.ts.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly retryable: boolean;
  /** Exit code when this error ends a CLI command. */
  readonly exitCode: number | undefined;

  constructor(
    message: string,
    options: { code: string; status: number; retryable?: boolean; cause?: unknown; exitCode?: number },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.exitCode = options.exitCode;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'validation_failed', status: 400, cause });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super(message, { code: 'unauthorized', status: 401 });
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden') {
    super(message, { code: 'forbidden', status: 403 });
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(message, { code: 'not_found', status: 404 });
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, { code: 'conflict', status: 409 });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'Request body is too large') {
    super(message, { code: 'payload_too_large', status: 413 });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Unsupported content type') {
    super(message, { code: 'unsupported_media_type', status: 415 });
  }
}

export class UnprocessableError extends AppError {
  constructor(message: string) {
    super(message, { code: 'unprocessable', status: 422 });
  }
}

export class RateLimitedError extends AppError {
  constructor(message = 'Too many requests', retryable = true) {
    super(message, { code: 'rate_limited', status: 429, retryable });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'service_unavailable', status: 503, retryable: true, cause });
  }
}

/** A bad setting: the message names the variable; the CLI exits with code 1. */
export class ConfigError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'config_invalid', status: 500, cause, exitCode: 1 });
  }
}

/**
 * Network-level and server-shutdown errors of PostgreSQL: the database is (temporarily) unreachable.
 * Looks through `cause` chains (the query layer wraps the driver's errors) and AggregateError's `errors` (a host name
 * with several addresses).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const networkCodes = ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN'];
  // SQLSTATE class 08 (connection exception) and 57P0x (operator intervention: shutdown, crash, cannot connect now).
  if (
    typeof e.code === 'string' &&
    (networkCodes.includes(e.code) || e.code.startsWith('08') || /^57P0[1-3]$/.test(e.code))
  ) {
    return true;
  }
  // node-postgres raises these without a code when a connection dies or cannot be had in time.
  if (
    e instanceof Error &&
    (e.message.startsWith('Connection terminated') ||
      e.message.startsWith('timeout exceeded when trying to connect') ||
      e.message === 'Client has encountered a connection error and is not queryable')
  ) {
    return true;
  }
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.some((item) => isDatabaseUnavailable(item, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * The message of an error worth showing a person or storing: for a failed query the driver's reason, never the
 * SQL and its parameters (the query layer puts both in its message: kilobytes, and whatever the parameters held).
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message.startsWith('Failed query: ') && error.cause !== undefined) return errorMessage(error.cause);
  if (error.message) return error.message;
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length > 0) return errorMessage(inner[0]);
  return (error as { code?: string }).code ?? error.name;
}

/**
 * One line for an unreachable database: where (host:port, from the error or else from `url`, never a password) and
 * why, e.g. `the database is unreachable at 127.0.0.1:5432 (ECONNREFUSED)`.
 */
export function databaseUnreachableMessage(error: unknown, url?: string): string {
  const found = findConnectTarget(error, 0);
  let where = found;
  if (!where && url) {
    try {
      const u = new URL(url);
      where = `${u.hostname}:${u.port || '5432'}`;
    } catch {
      // an unparsable URL says nothing about where
    }
  }
  const why = findCode(error, 0) ?? errorMessage(error);
  return `the database is unreachable${where ? ` at ${where}` : ''} (${why})`;
}

function findConnectTarget(error: unknown, depth: number): string | undefined {
  const e = error as { address?: unknown; port?: unknown; cause?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 5) return undefined;
  if (typeof e.address === 'string' && typeof e.port === 'number') {
    return e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`;
  }
  for (const inner of Array.isArray(e.errors) ? e.errors : []) {
    const target = findConnectTarget(inner, depth + 1);
    if (target) return target;
  }
  return findConnectTarget(e.cause, depth + 1);
}

function findCode(error: unknown, depth: number): string | undefined {
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object' || depth > 5) return undefined;
  if (typeof e.code === 'string' && /^[A-Z]/.test(e.code)) return e.code;
  const inner = Array.isArray(e.errors) ? e.errors[0] : undefined;
  return findCode(inner, depth + 1) ?? findCode(e.cause, depth + 1);
}
