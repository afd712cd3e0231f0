import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors';

/**
 * Every setting of the server, read once from the environment and validated here; nothing else reads process.env.
 * Tests and tools build a Config with `loadConfig({ ...vars })`.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  INVOICEBOX_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .url()
    .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INVOICEBOX_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  INVOICEBOX_WORKERS: booleanFlag.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  JOB_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(86_400)
    .default(6 * 3600),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  REQUEST_BODY_LIMIT_MB: z.coerce.number().int().min(1).max(512).default(50),
  IMPORT_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(20_480),
  WEB_DIST_DIR: z.string().optional(),
  AUTH_ALLOW_SIGNUP: booleanFlag.default(false),
  AUTH_SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  AUTH_TOKEN_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
  AUTH_KEY_ROTATION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  PUBLIC_URL: z.string().url().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(60).default('Single sign-on'),
  GOOGLE_API_ROOT_URL: z.string().url().optional(),
  ALLOW_PRIVATE_NETWORK_TARGETS: booleanFlag.optional(),
  CONNECT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** Unset: the embedded PostgreSQL under `<dataDir>/pg`. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  readonly secret: string | undefined;
  /** Run job workers inside the API process (`start`). */
  readonly workersInProcess: boolean;
  readonly workerConcurrency: number;
  /** A running job whose worker has not sent a heartbeat for this long is handed to another worker. */
  readonly jobLeaseSeconds: number;
  /** Hard limit on one attempt of a job. */
  readonly jobTimeoutSeconds: number;
  readonly shutdownGraceSeconds: number;
  readonly requestBodyLimitBytes: number;
  /** Largest mail file (mbox, .eml) accepted by the upload in the web app; streamed to disk, never held in memory. */
  readonly importMaxBytes: number;
  /** Folder of the built SPA; unset means apps/web/dist beside this package. */
  readonly webDistDir: string | undefined;
  readonly auth: AuthConfig;
  /** The address people reach this server at; OAuth redirect URIs are built from it. */
  readonly publicUrl: string;
  /** Configured OpenID Connect providers (Google, a generic issuer); empty: local sign-in only. */
  readonly oidcProviders: readonly OidcProviderConfig[];
  /** Where the Gmail and Drive APIs are called (unset: Google's); a mirror or a local stand-in in tests. */
  readonly googleApiRootUrl?: string | undefined;
  /**
   * Servers a person names (IMAP host, WebDAV URL) may be on loopback or a private network. Default: only in the
   * one-person embedded set-up (no DATABASE_URL, sign-up closed), where that person is the operator.
   */
  readonly allowPrivateNetworkTargets: boolean;
  /** Calls per minute, per person and per client address, that connect to a server a person names. */
  readonly connectRateLimitPerMinute: number;
}

export interface OidcProviderConfig {
  readonly id: 'google' | 'oidc';
  readonly name: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface AuthConfig {
  /** Sign-ups after the first (the owner's) are refused unless this is set. */
  readonly allowSignup: boolean;
  /** Lifetime of a session token, the long-lived credential a sign-in yields. */
  readonly sessionSeconds: number;
  /** Lifetime of a backend token (the `backend_jwt` of the web app). */
  readonly backendTokenSeconds: number;
  /** A signing key older than this is replaced; it stays published until every token it signed has expired. */
  readonly keyRotationSeconds: number;
  /** Requests per minute and client address on the sign-in, sign-up, exchange and second-factor endpoints. */
  readonly rateLimitPerMinute: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset, as in most twelve-factor tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const oidcProviders: OidcProviderConfig[] = [];
  const pairs: Array<[string, string | undefined, string, string | undefined]> = [
    ['GOOGLE_CLIENT_ID', e.GOOGLE_CLIENT_ID, 'GOOGLE_CLIENT_SECRET', e.GOOGLE_CLIENT_SECRET],
    ['OIDC_CLIENT_ID', e.OIDC_CLIENT_ID, 'OIDC_CLIENT_SECRET', e.OIDC_CLIENT_SECRET],
  ];
  for (const [idName, id, secretName, secret] of pairs) {
    if (Boolean(id) !== Boolean(secret)) {
      throw new ConfigError(
        `invalid configuration: ${id ? secretName : idName} must be set together with ${id ? idName : secretName}`,
      );
    }
  }
  if (e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET) {
    oidcProviders.push({
      id: 'google',
      name: 'Google',
      issuer: e.GOOGLE_ISSUER,
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
    });
  }
  if (e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET) {
    if (!e.OIDC_ISSUER) throw new ConfigError('invalid configuration: OIDC_ISSUER must be set with OIDC_CLIENT_ID');
    oidcProviders.push({
      id: 'oidc',
      name: e.OIDC_NAME,
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
    });
  }
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.INVOICEBOX_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    secret: e.INVOICEBOX_SECRET,
    workersInProcess: e.INVOICEBOX_WORKERS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    jobTimeoutSeconds: e.JOB_TIMEOUT_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    requestBodyLimitBytes: e.REQUEST_BODY_LIMIT_MB * 1024 * 1024,
    importMaxBytes: e.IMPORT_MAX_MB * 1024 * 1024,
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : undefined,
    googleApiRootUrl: e.GOOGLE_API_ROOT_URL,
    allowPrivateNetworkTargets: e.ALLOW_PRIVATE_NETWORK_TARGETS ?? (!e.DATABASE_URL && !e.AUTH_ALLOW_SIGNUP),
    connectRateLimitPerMinute: e.CONNECT_RATE_LIMIT_PER_MINUTE,
    auth: Object.freeze({
      allowSignup: e.AUTH_ALLOW_SIGNUP,
      sessionSeconds: e.AUTH_SESSION_DAYS * 86_400,
      backendTokenSeconds: e.AUTH_TOKEN_MINUTES * 60,
      keyRotationSeconds: e.AUTH_KEY_ROTATION_DAYS * 86_400,
      rateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    }),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    oidcProviders: Object.freeze(oidcProviders),
  });
}

/** The variables of the configuration table in the README, kept beside the schema so they cannot drift. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);
