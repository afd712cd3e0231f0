import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { users } from '../db/schema';
import { UnauthorizedError } from '../errors';
import { JobsRepository } from '../jobs/jobs.repository';
import { JobsService } from '../jobs/jobs.service';
import { createLogger } from '../logger';
import { buildApp } from './app';

const t = useTestDatabase();

describe('the HTTP API', () => {
  const logLines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  let ownerId: string;
  let otherId: string;
  let databaseUp = true;

  beforeAll(async () => {
    const { db } = t().database;
    const rows = await db
      .insert(users)
      .values([
        { email: 'me@example.com', displayName: 'Me' },
        { email: 'other@example.com', displayName: 'Other' },
      ])
      .returning();
    ownerId = rows[0]!.id;
    otherId = rows[1]!.id;
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    app = await buildApp({
      config: { requestBodyLimitBytes: 1024 * 1024, webDistDir: '/nonexistent' },
      logger: createLogger('info', stream),
      health: { engine: t().engine, database: async () => databaseUp, queue: async () => databaseUp },
      jobs: new JobsService(new JobsRepository(db)),
      authenticate: async (request) => {
        // Stands in for sign-in (issue 4): a bearer token naming the person.
        const header = request.headers.authorization;
        if (header === 'Bearer me-secret-token') {
          return { user: rows[0]!, sessionId: crypto.randomUUID(), tokenExpiresAt: new Date(Date.now() + 3_600_000) };
        }
        throw new UnauthorizedError();
      },
      // A route that hands its input to PostgreSQL as text, as most routes do.
      routes: [
        async (api) => {
          api.post('/test/echo', async (request) => {
            const { rows } = await t().database.pool.query('select $1::text as text', [
              (request.body as { text?: string }).text ?? (request.query as { q?: string }).q ?? '',
            ]);
            return rows[0];
          });
        },
      ],
    });
  });

  afterAll(async () => {
    await app.close();
  });

  const auth = { authorization: 'Bearer me-secret-token' };

  it('answers health without auth, and 503 with the same shape when the database is down', async () => {
    const ok = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'ok', database: { status: 'up', engine: t().engine } });
    expect(ok.json().version).toMatch(/^\d+\.\d+\.\d+/);
    databaseUp = false;
    const down = await app.inject({ method: 'GET', url: '/api/v1/health' });
    databaseUp = true;
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ status: 'degraded', database: { status: 'down' } });
  });

  it('refuses protected routes without a signed-in person', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/jobs' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Authentication required', code: 'unauthorized' });
  });

  it('lists jobs of the caller only, newest first, with the default limit', async () => {
    const { db } = t().database;
    const repo = new JobsRepository(db);
    const mine = await repo.insert({ id: crypto.randomUUID(), ownerId, type: 'noop', payload: {} });
    const theirs = await repo.insert({ id: crypto.randomUUID(), ownerId: otherId, type: 'noop', payload: {} });
    const res = await app.inject({ method: 'GET', url: '/api/v1/jobs', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json().jobs.map((j: { id: string }) => j.id)).toEqual([mine.id]);
    expect(res.json().jobs[0]).toMatchObject({ type: 'noop', status: 'pending', progress: 0 });

    const other = await app.inject({ method: 'GET', url: `/api/v1/jobs/${theirs.id}`, headers: auth });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Job not found', code: 'not_found' });
    const own = await app.inject({ method: 'GET', url: `/api/v1/jobs/${mine.id}`, headers: auth });
    expect(own.json().id).toBe(mine.id);
  });

  it('validates queries and params with the shared schemas (400 with an error field)', async () => {
    const badLimit = await app.inject({ method: 'GET', url: '/api/v1/jobs?limit=0', headers: auth });
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().code).toBe('validation_failed');
    expect(badLimit.json().error).toMatch(/limit/);
    const badId = await app.inject({ method: 'GET', url: '/api/v1/jobs/not-a-uuid', headers: auth });
    expect(badId.statusCode).toBe(400);
  });

  it('refuses a NUL character in a JSON body, a query or a path with 400, before it reaches the database', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const fine = await app.inject({ method: 'POST', url: '/api/v1/test/echo', headers, payload: { text: 'a' } });
    expect(fine.json()).toEqual({ text: 'a' });
    for (const request of [
      { url: '/api/v1/test/echo', payload: '{"text": "a\\u0000b"}' },
      { url: '/api/v1/test/echo', payload: '{"list": [{"k\\u0000": 1}]}' },
      { url: '/api/v1/test/echo?q=a%00b', payload: '{}' },
    ]) {
      const response = await app.inject({ method: 'POST', headers, ...request });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/^The request (body|query) contains a NUL character/);
    }
    const path = await app.inject({ method: 'GET', url: '/api/v1/jobs/a%00b', headers: auth });
    expect(path.statusCode).toBe(400);
  });

  it('answers malformed JSON with 400, oversize bodies with 413 and wrong content types with 415', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    const malformed = await app.inject({ method: 'DELETE', url: '/api/v1/jobs/clear-all', headers, payload: '{"a":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBeTruthy();
    const huge = await app.inject({
      method: 'DELETE',
      url: '/api/v1/jobs/clear-all',
      headers,
      payload: JSON.stringify({ x: 'a'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    const xml = await app.inject({
      method: 'DELETE',
      url: '/api/v1/jobs/clear-all',
      headers: { ...auth, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
  });

  it('clears only finished jobs of the caller', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/v1/jobs/clear-all', headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: 0 }); // the caller's only job is still pending
  });

  it('answers unknown API paths with JSON 404, never the web app', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/nothing-here',
      headers: { ...auth, accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('serves the installed documentation as text', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('npm install && npm start');
    expect((await app.inject({ method: 'GET', url: '/docs/architecture' })).body).toContain(
      '# Invoicebox architecture',
    );
  });

  it('publishes an OpenAPI document generated from the same schemas', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/health', '/api/v1/jobs', '/api/v1/jobs/{id}', '/api/v1/jobs/clear-all']),
    );
    expect(doc.paths['/api/v1/jobs'].get.parameters[0]).toMatchObject({ name: 'limit', in: 'query' });
  });

  it('writes one log line per request with secrets redacted', async () => {
    logLines.length = 0;
    await app.inject({
      method: 'GET',
      url: '/api/v1/jobs?access_token=query-secret-value&limit=5',
      headers: { ...auth, cookie: 'session=cookie-secret-value' },
    });
    await app.inject({ method: 'GET', url: '/api/v1/jobs', headers: { authorization: 'Bearer wrong-secret-token' } });
    const text = logLines.join('\n');
    for (const secret of ['me-secret-token', 'query-secret-value', 'cookie-secret-value', 'wrong-secret-token']) {
      expect(text).not.toContain(secret);
    }
    const requestLines = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requestLines).toHaveLength(2);
    expect(requestLines[0]).toMatchObject({ method: 'GET', status: 200, user_id: ownerId });
    expect(requestLines[0].url).toBe('/api/v1/jobs?access_token=%5Bredacted%5D&limit=5');
  });
});
