import type { LoggerOptions } from 'pino';

/** Keys whose values never reach a log line, at any depth pino can see (top level and one object down). */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'passcode',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'backend_jwt',
  'client_secret',
  'secret',
  'code_verifier',
  'api_key',
  'apiKey',
  'file_data',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        ...SECRET_KEYS.map((k) => `"${k}"`),
        ...SECRET_KEYS.map((k) => `*["${k}"]`),
        ...SECRET_KEYS.map((k) => `*.*["${k}"]`),
      ],
      censor: '[redacted]',
    },
    // No request objects in logs: our one line per request is written by the onResponse hook.
    serializers: {
      err: (err: Error & { code?: string }) => ({
        type: err.name,
        message: err.message,
        code: err.code,
        stack: err.stack,
      }),
    },
  };
}

const SECRET_QUERY_PARAMS = new Set([
  'code',
  'link',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'key',
  'api_key',
  'session',
  'secret',
]);

/** The request URL as it may be logged: values of secret-looking query parameters are replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY_PARAMS.has(key.toLowerCase())) params.set(key, '[redacted]');
  }
  return `${url.slice(0, q)}?${params.toString()}`;
}
