import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../errors';
import type { JobsService } from '../jobs/jobs.service';
import { createLogger } from '../logger';
import { buildApp } from './app';

describe('security headers', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let webDist: string;

  beforeAll(async () => {
    webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-web-'));
    await fs.mkdir(path.join(webDist, 'assets'));
    await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><script type="module" src="/assets/a.js">');
    await fs.writeFile(path.join(webDist, 'assets', 'a.js'), 'export {};');
    const personal: FastifyPluginAsyncZod = async (api) => {
      api.get('/personal', async () => ({ email: 'me@example.com' }));
      api.get('/cacheable', async (_request, reply) => reply.header('cache-control', 'public, max-age=60').send({}));
    };
    app = await buildApp({
      config: { requestBodyLimitBytes: 1024 * 1024, webDistDir: webDist },
      logger: createLogger('silent'),
      health: { engine: 'embedded', database: async () => true, queue: async () => true },
      jobs: {} as JobsService,
      authenticate: async (request) => {
        if (request.headers.authorization !== 'Bearer t') throw new UnauthorizedError();
        return { user: { id: 'u' }, sessionId: 's', tokenExpiresAt: new Date() } as never;
      },
      routes: [personal],
    });
  });
  afterAll(async () => {
    await app.close();
    await fs.rm(webDist, { recursive: true, force: true });
  });

  const csp = (value: string | number | string[] | undefined) =>
    new Map(
      String(value)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...sources]) => [name!, sources]),
    );

  it('gives the SPA a policy with scripts from itself only, no framing, no sniffing, no referrer', async () => {
    const res = await app.inject({ url: '/invoices', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    const policy = csp(res.headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('script-src-attr')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('sends the same headers on assets, API answers and errors', async () => {
    for (const [url, status] of [
      ['/assets/a.js', 200],
      ['/api/v1/health', 200],
      ['/api/v1/personal', 401],
      ['/api/v1/nothing-here', 401],
      ['/nothing-here.js', 404],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(csp(res.headers['content-security-policy']).get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('marks API answers no-store unless a route chooses its caching', async () => {
    const personal = await app.inject({ url: '/api/v1/personal', headers: { authorization: 'Bearer t' } });
    expect(personal.json()).toEqual({ email: 'me@example.com' });
    expect(personal.headers['cache-control']).toBe('no-store');
    const refused = await app.inject({ url: '/api/v1/personal' });
    expect(refused.headers['cache-control']).toBe('no-store');
    const cacheable = await app.inject({ url: '/api/v1/cacheable', headers: { authorization: 'Bearer t' } });
    expect(cacheable.headers['cache-control']).toBe('public, max-age=60');
    const asset = await app.inject({ url: '/assets/a.js' });
    expect(asset.headers['cache-control']).not.toBe('no-store');
  });
});
