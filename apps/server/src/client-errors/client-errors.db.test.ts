import type { ClientErrorReport } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { clientErrorsRoutes } from './client-errors.routes';
import { ClientErrorsService } from './client-errors.service';

const t = useTestDatabase();

const report = (message: string, extra: Partial<ClientErrorReport> = {}): ClientErrorReport => ({
  message,
  stack: `Error: ${message}\n    at App (app.js:1:1)`,
  source: 'error',
  url: 'http://localhost/dashboard',
  at: '2026-11-27T07:00:00.000Z',
  ...extra,
});

describe('POST /client-errors (spec §8 error reporting)', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let service: ClientErrorsService;
  let token = '';
  let ownerId = '';
  const KEPT = 5;

  beforeAll(async () => {
    const { db } = t().database;
    service = new ClientErrorsService(db, KEPT);
    let authenticate: Parameters<typeof clientErrorsRoutes>[1]['authenticate'] = async () => {
      throw new Error('not ready');
    };
    harness = await buildAuthTestApp(db, {
      routes: [
        clientErrorsRoutes(service, { authenticate: (request) => authenticate(request), rateLimitPerMinute: 3 }),
      ],
    });
    authenticate = (request) => harness.auth.sessions.authenticate(request.headers);
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
  });
  afterAll(() => harness.app.close());

  const send = (reports: unknown[], remoteAddress: string, headers: Record<string, string> = {}) =>
    harness.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      remoteAddress,
      headers,
      payload: { reports },
    });

  it('stores a visitor’s reports without an owner, with the address they came from', async () => {
    const res = await send([report('landing broke', { source: 'unhandledrejection' })], '10.0.0.1');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ stored: 1 });
    const [row] = (await service.latest()).filter((r) => r.message === 'landing broke');
    expect(row).toMatchObject({
      ownerId: null,
      clientAddress: '10.0.0.1',
      source: 'unhandledrejection',
      level: null,
      url: 'http://localhost/dashboard',
    });
    expect(row?.occurredAt.toISOString()).toBe('2026-11-27T07:00:00.000Z');
  });

  it('stores a signed-in person’s reports under their id, with the boundary level', async () => {
    const res = await send([report('page broke', { source: 'boundary', level: 'page' })], '10.0.0.2', bearer(token));
    expect(res.statusCode).toBe(202);
    const [row] = (await service.latest()).filter((r) => r.message === 'page broke');
    expect(row).toMatchObject({ ownerId, source: 'boundary', level: 'page' });
  });

  it('keeps a report sent with a token that no longer works, as anonymous', async () => {
    const res = await send([report('stale token')], '10.0.0.3', bearer('not-a-token'));
    expect(res.statusCode).toBe(202);
    const [row] = (await service.latest()).filter((r) => r.message === 'stale token');
    expect(row?.ownerId).toBeNull();
  });

  it('refuses more than the 50 reports of the queue, an empty batch and an unknown source', async () => {
    const many = Array.from({ length: 51 }, (_, i) => report(`r${i}`));
    expect((await send(many, '10.0.0.4')).statusCode).toBe(400);
    expect((await send([], '10.0.0.4')).statusCode).toBe(400);
    expect((await send([report('x', { source: 'console' as 'error' })], '10.0.0.5')).statusCode).toBe(400);
  });

  it('limits each client address per minute, not the others', async () => {
    for (let i = 0; i < 3; i++) expect((await send([report(`burst ${i}`)], '10.0.0.6')).statusCode).toBe(202);
    const limited = await send([report('burst 3')], '10.0.0.6');
    expect(limited.statusCode).toBe(429);
    expect((await send([report('elsewhere')], '10.0.0.7')).statusCode).toBe(202);
    expect((await service.latest()).some((r) => r.message === 'burst 3')).toBe(false);
  });

  it('keeps only the newest reports up to the cap', async () => {
    for (let i = 0; i < 8; i++) await send([report(`capped ${i}`)], `10.0.1.${i}`);
    const rows = await service.latest(100);
    expect(rows).toHaveLength(KEPT);
    expect(rows.map((r) => r.message)).toEqual(['capped 7', 'capped 6', 'capped 5', 'capped 4', 'capped 3']);
  });

  it('is declared in the OpenAPI document', async () => {
    const doc = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.paths['/api/v1/client-errors']?.post).toBeDefined();
  });
});
