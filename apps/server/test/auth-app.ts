import { Writable } from 'node:stream';
import type { SessionResponse } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SignUpResult } from '../src/auth/local-auth.service';
import type { AuthConfig, Config } from '../src/config';
import type { Db } from '../src/db/client';
import { buildApp } from '../src/http/app';
import { JobsRepository } from '../src/jobs/jobs.repository';
import { JobsService } from '../src/jobs/jobs.service';
import { createLogger } from '../src/logger';
import { createAuthModule } from '../src/runtime';
import { UsersRepository } from '../src/users/users.repository';
import { UsersService } from '../src/users/users.service';

export const TEST_SECRET = 'a-test-secret-of-at-least-32-characters!';

export const DEFAULT_TEST_AUTH: AuthConfig = {
  allowSignup: false,
  sessionSeconds: 30 * 86_400,
  backendTokenSeconds: 3600,
  keyRotationSeconds: 30 * 86_400,
  rateLimitPerMinute: 10_000,
};

/** A settable clock: every auth service of one test app reads it. */
export class TestClock {
  ms = Date.now();
  readonly now = () => new Date(this.ms);
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** The real app with the real auth module on a test database, its log lines captured. */
export async function buildAuthTestApp(
  db: Db,
  options: {
    auth?: Partial<AuthConfig>;
    secret?: string;
    routes?: FastifyPluginAsyncZod[];
    trustProxy?: Config['trustProxy'];
  } = {},
) {
  const clock = new TestClock();
  const logLines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const users = new UsersService(new UsersRepository(db));
  const auth = await createAuthModule(
    { auth: { ...DEFAULT_TEST_AUTH, ...options.auth }, secret: options.secret ?? TEST_SECRET, dataDir: '/nonexistent' },
    db,
    users,
    clock.now,
  );
  const app = await buildApp({
    config: { requestBodyLimitBytes: 1024 * 1024, webDistDir: '/nonexistent', trustProxy: options.trustProxy },
    logger: createLogger('debug', stream),
    health: { engine: 'external', database: async () => true, queue: async () => true },
    jobs: new JobsService(new JobsRepository(db)),
    authenticate: (request) => auth.sessions.authenticate(request.headers),
    auth,
    routes: options.routes ?? [],
  });
  return { app, auth, users, clock, logLines };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Signs a person up through a test app's API (the first one becomes the owner; later ones get the neutral 202 and
 * sign in): their backend token and user id.
 */
export async function signUpThroughApi(
  app: Awaited<ReturnType<typeof buildAuthTestApp>>['app'],
  email: string,
  password = 'a long password',
): Promise<{ token: string; userId: string }> {
  let response = await app.inject({ method: 'POST', url: '/api/v1/auth/local/signup', payload: { email, password } });
  if (response.statusCode === 202) {
    response = await app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email, password } });
    if (response.statusCode !== 200)
      throw new Error(`sign-in of ${email} failed: ${response.statusCode} ${response.body}`);
  } else if (response.statusCode !== 201) {
    throw new Error(`sign-up of ${email} failed: ${response.statusCode} ${response.body}`);
  }
  const body = response.json() as { token: string; user: { id: string } };
  return { token: body.token, userId: body.user.id };
}

/** The session of a sign-up that made the owner (201); throws on the neutral answer of later sign-ups. */
export function ownerSession(result: SignUpResult): SessionResponse {
  if (result.status !== 201) throw new Error(`sign-up did not sign in: ${JSON.stringify(result.body)}`);
  return result.body;
}
