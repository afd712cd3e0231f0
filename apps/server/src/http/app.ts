import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import {
  type FastifyPluginAsyncZod,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type AuthModule, authRoutes, jwksRoutes } from '../auth/auth.routes';
import type { Principal } from '../auth/sessions.service';
import type { Config } from '../config';
import type { UserRow } from '../db/schema';
import { NotFoundError } from '../errors';
import { jobsRoutes } from '../jobs/jobs.routes';
import type { JobsService } from '../jobs/jobs.service';
import type { Logger } from '../logger';
import { version } from '../version';
import { registerErrorHandling } from './error-handler';
import { type HealthProbe, healthRoutes } from './health.routes';
import { registerLingeringClose } from './lingering-close';
import { redactUrl } from './logging';
import { meRoutes } from './me.routes';
import { refuseNul } from './refuse-nul';
import { registerSecurityHeaders } from './security-headers';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person; every owned query is scoped by `user.id`. */
    user: UserRow;
    /** The session and backend token behind `user`. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** The route answers without a backend token (it may check credentials of its own). */
    public?: boolean;
  }
}

export const API_PREFIX = '/api/v1';

export interface AppDependencies {
  config: Pick<Config, 'requestBodyLimitBytes' | 'webDistDir'> & Partial<Pick<Config, 'trustProxy'>>;
  health: HealthProbe;
  jobs: JobsService;
  /** Resolves the person behind a request; throws UnauthorizedError when there is none. */
  authenticate: (request: { headers: Record<string, string | string[] | undefined> }) => Promise<Principal>;
  /** Sign-in, tokens and the JWKS; without it the app has no auth routes (tests that bring their own authenticate). */
  auth?: AuthModule;
  logger: Logger;
  /** The domain modules' route plugins (accounts, invoices, ...), mounted under /api/v1 behind the auth hook. */
  routes?: FastifyPluginAsyncZod[];
}

/** Routes that answer without a signed-in person. */
const PUBLIC_ROUTES = new Set([`${API_PREFIX}/health`, `${API_PREFIX}/openapi.json`]);

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Fastify's own per-request lines are off: ours (onResponse below) is one line with a redacted URL.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.requestBodyLimitBytes,
    requestTimeout: 120_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 10_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: () => crypto.randomUUID(),
    // Off unless TRUST_PROXY says which proxies to believe: a forged X-Forwarded-For must not pick the rate-limit key.
    trustProxy:
      typeof deps.config.trustProxy === 'object' ? [...deps.config.trustProxy] : (deps.config.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // A refused body is read to its end (within bounds) so the client sees the 413 instead of a reset.
  registerLingeringClose(app, {
    maxDrainBytes: Math.max(2 * deps.config.requestBodyLimitBytes, 128 * 1024 * 1024),
    maxDrainMs: 30_000,
  });
  await registerSecurityHeaders(app, API_PREFIX);

  // One line per request, with the secret-looking query parameters of the URL redacted.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user_id: request.user?.id,
      },
      'request',
    );
  });

  // Only routes that ask for it (config.rateLimit) are limited: sign-in, sign-up, exchange, second factors.
  await app.register(fastifyRateLimit, { global: false });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Invoicebox API',
        version,
        description: 'Finds the invoices in your mail, files them in your drive and reconciles them with your bank.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request) => {
        const route = request.routeOptions.url ?? '';
        if (PUBLIC_ROUTES.has(route) || request.routeOptions.config?.public) return;
        const principal = await deps.authenticate(request);
        request.principal = principal;
        request.user = principal.user;
      });
      api.addHook('preValidation', refuseNul);
      if (deps.auth) await api.register(authRoutes(deps.auth));
      await api.register(healthRoutes(deps.health));
      await api.register(meRoutes());
      await api.register(jobsRoutes(deps.jobs));
      for (const routes of deps.routes ?? []) await api.register(routes);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      // Unknown API paths answer JSON, never the SPA.
      api.all('/*', { schema: { hide: true } }, async () => {
        throw new NotFoundError('Not found');
      });
    },
    { prefix: API_PREFIX },
  );

  if (deps.auth) await app.register(jwksRoutes(deps.auth.keys));
  registerDocs(app);
  await registerWebApp(app, deps.config.webDistDir ?? defaultWebDist());
  return app;
}

/** The installed version's documentation (README and architecture notes), as plain text. */
function registerDocs(app: FastifyInstance): void {
  const root = findUp('README.md');
  const pages: Record<string, string | undefined> = {
    '/docs': root && path.join(root, 'README.md'),
    '/docs/architecture': root && path.join(root, 'docs', 'architecture.md'),
  };
  for (const [url, file] of Object.entries(pages)) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      if (!file || !existsSync(file)) throw new NotFoundError('Documentation not found');
      return reply.type('text/plain; charset=utf-8').send(await readFile(file, 'utf8'));
    });
  }
}

/** The nearest folder above this module (src/http in tests, dist/ when bundled) holding `name`. */
function findUp(name: string): string | undefined {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, name)) && existsSync(path.join(dir, 'apps'))) return dir;
    dir = path.dirname(dir);
  }
  return undefined;
}

/** Serves the built SPA; any other GET that wants HTML gets index.html so the client router can take it. */
async function registerWebApp(app: FastifyInstance, root: string): Promise<void> {
  const index = path.join(root, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (request.method === 'GET' && wantsHtml && existsSync(index)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root);
    }
    return reply.status(404).send({ error: 'Not found', code: 'not_found' });
  });
}

function defaultWebDist(): string {
  const root = findUp('package.json');
  return root ? path.join(root, 'apps', 'web', 'dist') : path.resolve('apps/web/dist');
}
