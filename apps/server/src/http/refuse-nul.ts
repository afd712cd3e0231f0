import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../errors';

/**
 * PostgreSQL text cannot hold the NUL character (U+0000): a request that carries one in its JSON body, query or path
 * would fail at the database with a 500. It is refused up front with a 400 instead, for every API route.
 */
export async function refuseNul(request: FastifyRequest): Promise<void> {
  for (const [part, value] of [
    ['body', request.body],
    ['query', request.query],
    ['path', request.params],
  ] as const) {
    if (holdsNul(value, 0)) throw new ValidationError(`The request ${part} contains a NUL character (\\u0000)`);
  }
}

function holdsNul(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  // Streams (uploads) and buffers are read by their routes; only parsed JSON is walked.
  if (!value || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value) || 'pipe' in value) return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v, depth + 1));
}
