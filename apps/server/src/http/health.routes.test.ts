import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { type HealthProbe, healthRoutes } from './health.routes';

async function healthWith(probe: HealthProbe) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(healthRoutes(probe));
  const response = await app.inject({ url: '/health' });
  await app.close();
  return { status: response.statusCode, body: response.json() };
}

describe('GET /health and the embedded server supervision', () => {
  it('says restarting, with the attempt, while the supervised embedded server is being started again', async () => {
    let state: 'running' | 'restarting' = 'restarting';
    let up = false;
    const probe: HealthProbe = {
      engine: 'embedded',
      database: async () => up,
      queue: async () => up,
      embedded: () => ({ state, attempt: state === 'restarting' ? 3 : 0, restarts: state === 'restarting' ? 1 : 2 }),
    };
    expect(await healthWith(probe)).toEqual({
      status: 503,
      body: expect.objectContaining({
        status: 'degraded',
        database: { status: 'restarting', engine: 'embedded', restart_attempt: 3, restarts: 1 },
      }),
    });
    state = 'running';
    up = true;
    expect((await healthWith(probe)).body).toMatchObject({
      status: 'ok',
      database: { status: 'up', engine: 'embedded', restarts: 2 },
    });
  });

  it('says down when the database is not one this process restarts', async () => {
    const body = (await healthWith({ engine: 'external', database: async () => false, queue: async () => false })).body;
    expect(body.database).toEqual({ status: 'down', engine: 'external' });
    // Spec §8: the error a client shows.
    expect(body.error).toBe('Health check failed');
    const ok = await healthWith({ engine: 'external', database: async () => true, queue: async () => true });
    expect(ok.body).not.toHaveProperty('error');
  });
});
