import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded-postgres';
import { buildApp } from './http/app';
import { createLogger } from './logger';
import { createRuntime, type Runtime } from './runtime';

/**
 * The database goes away while the app runs: health says so, requests get 503, and everything (API and queue)
 * recovers by itself when the server is back. Runs its own embedded PostgreSQL so it can stop and restart it.
 */
describe('database outage while running', () => {
  let dir: string;
  let server: EmbeddedDatabase;
  let runtime: Runtime;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  let token: string;
  let ownerId: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-outage-'));
    await fs.chmod(dir, 0o755);
    server = await startEmbeddedPostgres(dir);
    port = Number(new URL(server.url).port);
    const config = loadConfig({
      DATABASE_URL: server.url,
      INVOICEBOX_DATA_DIR: path.join(dir, 'data'),
      JOB_LEASE_SECONDS: '2',
      SHUTDOWN_GRACE_SECONDS: '1',
    });
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    runtime = await createRuntime(config, logger);
    await runtime.queue.work(1);
    app = await buildApp({
      config,
      logger,
      health: runtime.health,
      jobs: runtime.jobs,
      authenticate: runtime.authenticate,
      auth: runtime.auth,
    });
    const signup = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'owner@example.com', password: 'correct horse battery' },
    });
    token = signup.json().token;
    ownerId = signup.json().user.id;
  });

  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('leaves no exit hook of embedded-postgres that would turn a failing exit code into 0', () => {
    // async-exit-hook answers 'beforeExit' with process.exit(0): a CLI error or a failed test run would exit 0;
    // on 'exit' it throws.
    const hooked = [...process.listeners('beforeExit'), ...process.listeners('exit')].filter((l) =>
      l.toString().includes('eventFilters'),
    );
    expect(hooked).toEqual([]);
  });

  it('reports 503 while the database is down and recovers when it returns', async () => {
    expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
    const auth = { authorization: `Bearer ${token}` };

    await server.stop();
    const health = await app.inject({ url: '/api/v1/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'degraded', database: { status: 'down' } });
    const jobs = await app.inject({ url: '/api/v1/jobs', headers: auth });
    expect(jobs.statusCode).toBe(503);
    expect(jobs.json()).toEqual({
      error: 'The database is unavailable; try again shortly',
      code: 'service_unavailable',
    });
    expect(jobs.headers['retry-after']).toBe('5');

    server = await startEmbeddedPostgres(dir, () => {}, { port });
    let recovered = 0;
    for (let i = 0; i < 100 && recovered !== 200; i++) {
      recovered = (await app.inject({ url: '/api/v1/health' })).statusCode;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(200);
    expect((await app.inject({ url: '/api/v1/jobs', headers: auth })).statusCode).toBe(200);

    // The queue recovered too: a job enqueued now is run to the end.
    const id = await runtime.queue.enqueue(ownerId, 'noop', { steps: 1, step_ms: 0 });
    let status = '';
    for (let i = 0; i < 150 && status !== 'completed'; i++) {
      status = (await runtime.jobs.get(ownerId, id)).status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe('completed');
  });
});
