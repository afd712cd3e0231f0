import { describe, expect, it } from 'vitest';
import { ConflictError, isDatabaseUnavailable, NotFoundError, RateLimitedError } from '../errors';
import { toResponse } from './error-handler';
import { redactUrl } from './logging';

describe('error mapping', () => {
  it('maps app errors to their status and code', () => {
    expect(toResponse(new NotFoundError('Job not found'))).toEqual({
      status: 404,
      body: { error: 'Job not found', code: 'not_found' },
    });
    expect(toResponse(new ConflictError('taken')).status).toBe(409);
    expect(toResponse(new RateLimitedError()).status).toBe(429);
  });

  it('hides unknown errors behind a 500 with no stack or message', () => {
    const res = toResponse(new Error('secret internal detail at /home/x.ts:12'));
    expect(res).toEqual({ status: 500, body: { error: 'Internal server error', code: 'internal' } });
  });

  it('turns an unreachable database (also when wrapped) into 503', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('Failed query: select 1', { cause: refused });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(toResponse(wrapped).status).toBe(503);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
  });
});

describe('URL redaction for logs', () => {
  it.each([
    ['/api/v1/jobs', '/api/v1/jobs'],
    ['/api/v1/jobs?limit=5', '/api/v1/jobs?limit=5'],
    ['/auth/callback?code=abc&state=xyz', '/auth/callback?code=%5Bredacted%5D&state=%5Bredacted%5D'],
    ['/x?ACCESS_TOKEN=t&refresh_token=r&page=2', '/x?ACCESS_TOKEN=%5Bredacted%5D&refresh_token=%5Bredacted%5D&page=2'],
  ])('%s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
