import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors';
import type { ModelEndpointOptions } from './extraction/extraction.types';

/**
 * Every setting of the server, read once from the environment and validated here; nothing else reads process.env.
 * Tests and tools build a Config with `loadConfig({ ...vars })`.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** proxy-addr's names for address ranges, accepted by Fastify's trustProxy beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address = '', prefix, extra] = value.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: whose X-Forwarded-For is believed when deciding a request's client address (rate limits, logs).
 * `false` (nobody), `true` (every hop: only when nothing but the proxy can reach the server), or the proxies'
 * addresses, CIDRs or proxy-addr range names, comma-separated. No hop count: it cannot tell the proxy from a client
 * that connects directly with a forged header, and Fastify 5 ignores it for that reason.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): boolean | string[] => {
    if (value === 'true' || value === 'false') return value === 'true';
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isAddressOrCidr(e));
    if (bad.length === 0) return entries;
    context.addIssue({
      code: 'custom',
      message: /^\d+$/.test(value)
        ? "a hop count cannot tell the proxy from a client that connects directly: list the proxies' addresses or CIDRs, or use true"
        : `must be true, false, or addresses/CIDRs separated by commas; not ${bad.map((b) => `'${b}'`).join(', ')}`,
    });
    return z.NEVER;
  });

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
  TRUST_PROXY: trustProxy.default(false),
  REQUEST_BODY_LIMIT_MB: z.coerce.number().int().min(1).max(512).default(50),
  IMPORT_MAX_MB: z.coerce.number().int().min(1).max(1_048_576).default(20_480),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(1000).default(20),
  INVOICEBOX_INBOX_DIR: z.string().min(1).optional(),
  INBOX_POLL_SECONDS: z.coerce.number().min(0.05).max(3600).default(5),
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
  SANDBOX_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
  SANDBOX_MEMORY_MB: z.coerce.number().int().min(128).max(65_536).default(1024),
  DOCUMENT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  DOCUMENT_MAX_MB: z.coerce.number().int().min(1).max(1024).default(50),
  DOCUMENT_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(200),
  DOCUMENT_MAX_PIXELS: z.coerce.number().int().min(1_000_000).max(1_000_000_000).default(60_000_000),
  DOCUMENT_INFLATE_MAX_MB: z.coerce.number().int().min(1).max(16_384).default(256),
  DOCUMENT_XML_MAX_MB: z.coerce.number().int().min(1).max(1024).default(20),
  DOCUMENT_STORE: z.enum(['local', 'postgres', 's3']).optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 lowercase letters, digits, dots, hyphens',
    )
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  EXTRACTION_MODEL_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL')
    .optional(),
  EXTRACTION_MODEL_NAME: z.string().min(1).optional(),
  EXTRACTION_MODEL_API_KEY: z.string().min(1).optional(),
  EXTRACTION_MODEL_VISION: booleanFlag.default(false),
  ALLOW_PRIVATE_NETWORK_TARGETS: booleanFlag.optional(),
  CONNECT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  SMTP_INBOUND_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  SMTP_INBOUND_HOST: z.string().min(1).optional(),
  SMTP_INBOUND_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,253}$)([a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}$/, 'must be a domain name such as invoices.example.com')
    .optional(),
  SMTP_INBOUND_MAX_MB: z.coerce.number().int().min(1).max(1024).default(25),
  SMTP_INBOUND_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  SMTP_INBOUND_TLS_KEY: z.string().min(1).optional(),
  SMTP_INBOUND_TLS_CERT: z.string().min(1).optional(),
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  SMTP_TLS: z.enum(['tls', 'starttls', 'none']).optional(),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  SMTP_FROM: z.string().min(3).optional(),
  SMTP_SENT_IMAP_URL: z
    .string()
    .url()
    .refine((u) => /^imaps?:\/\//i.test(u), 'must start with imap:// or imaps://')
    .optional(),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** Unset: the embedded PostgreSQL under `<dataDir>/pg`. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  /**
   * Where document bytes (attachments, uploads in flight) are kept: `local` files under `<dataDir>/blobs` (one
   * machine), or `postgres` in the database itself, which every API and worker process reaches (the default with
   * DATABASE_URL), or `s3`, a bucket of any S3-compatible object store (see `s3`).
   */
  readonly documentStore: 'local' | 'postgres' | 's3';
  /** The S3 bucket, when S3_BUCKET is set (the store of DOCUMENT_STORE=s3, or a migration's target). */
  readonly s3: S3Config | undefined;
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
  /** Fastify's trustProxy: whose X-Forwarded-For sets a request's address (and so the auth rate limit's key). */
  readonly trustProxy: boolean | readonly string[];
  /** Largest mail file (mbox, .eml) accepted by the upload in the web app; streamed to disk, never held in memory. */
  readonly importMaxBytes: number;
  /** Files one `POST /invoices/upload` may carry (each at most documents.maxBytes). */
  readonly uploadMaxFiles: number;
  /** The watched inbox folder of the owner (off when unset). */
  readonly inboxDir: string | undefined;
  /** How often the inbox folder is looked at; a file is taken once its size held still over two looks. */
  readonly inboxPollMs: number;
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
  /** Reading untrusted documents: the sandbox's processes and what one document may cost. */
  readonly documents: DocumentsConfig;
  /** The SMTP listener for people's invoice addresses; undefined when off (the default). */
  readonly inboundSmtp: InboundSmtpConfig | undefined;
  /** The SMTP relay of this server install (SMTP_*), used to forward invoices for people without a sender of their own. */
  readonly smtp: SmtpConfig | undefined;
  /**
   * An OpenAI-compatible model endpoint (EXTRACTION_MODEL_*) that invoice extraction and statement reading may ask
   * where the rules are unsure; its answers are validated before use. Undefined (the default): rules and OCR only.
   */
  readonly extractionModel: ModelEndpointOptions | undefined;
}

export interface InboundSmtpConfig {
  readonly port: number;
  readonly host: string;
  /** Mail is accepted only for `invoices+<token>@` this domain. */
  readonly domain: string;
  readonly maxBytes: number;
  readonly messagesPerMinute: number;
  /** PEM files for STARTTLS; both or neither. */
  readonly tlsKeyFile: string | undefined;
  readonly tlsCertFile: string | undefined;
}

export interface SmtpConfig {
  readonly host: string;
  readonly port: number;
  /** `tls` from the start (465), `starttls` required (587), `none` (a relay on this machine or network). */
  readonly tls: 'tls' | 'starttls' | 'none';
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly from: string;
  /** The relay account's Sent folder over IMAP (imap[s]://user:password@host:port/Mailbox): the look-up before a re-send. */
  readonly sentImapUrl: string | undefined;
}

export interface S3Config {
  /** Unset: AWS S3 itself (the region's endpoint). */
  readonly endpoint: string | undefined;
  readonly bucket: string;
  readonly region: string;
  /** Unset: the AWS SDK's default credential chain (environment, instance or pod role). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | undefined;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`: what MinIO, Ceph RGW and Garage usually need. */
  readonly forcePathStyle: boolean;
}

export interface DocumentsConfig {
  /** Child processes that read documents (each one document at a time). */
  readonly sandboxProcesses: number;
  /** Resident-memory limit of one such process. */
  readonly sandboxMemoryMb: number;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxPages: number;
  /** Pixels of one image decoded at most. */
  readonly maxImagePixels: number;
  /** Bytes inflated from a PDF's compressed streams, all together. */
  readonly maxInflateBytes: number;
  readonly maxXmlBytes: number;
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
  if ((e.SMTP_INBOUND_PORT === undefined) !== (e.SMTP_INBOUND_DOMAIN === undefined)) {
    throw new ConfigError(
      'invalid configuration: SMTP_INBOUND_PORT and SMTP_INBOUND_DOMAIN turn the invoice address on together; set both or neither',
    );
  }
  if (Boolean(e.SMTP_INBOUND_TLS_KEY) !== Boolean(e.SMTP_INBOUND_TLS_CERT)) {
    throw new ConfigError('invalid configuration: SMTP_INBOUND_TLS_KEY and SMTP_INBOUND_TLS_CERT go together');
  }
  const inboundSmtp: InboundSmtpConfig | undefined =
    e.SMTP_INBOUND_PORT !== undefined && e.SMTP_INBOUND_DOMAIN !== undefined
      ? Object.freeze({
          port: e.SMTP_INBOUND_PORT,
          host: e.SMTP_INBOUND_HOST ?? e.HOST,
          domain: e.SMTP_INBOUND_DOMAIN,
          maxBytes: e.SMTP_INBOUND_MAX_MB * 1024 * 1024,
          messagesPerMinute: e.SMTP_INBOUND_RATE_PER_MINUTE,
          tlsKeyFile: e.SMTP_INBOUND_TLS_KEY,
          tlsCertFile: e.SMTP_INBOUND_TLS_CERT,
        })
      : undefined;
  if (e.SMTP_HOST && !(e.SMTP_FROM ?? e.SMTP_USER)?.includes('@')) {
    throw new ConfigError('invalid configuration: SMTP_FROM (an email address) must be set with SMTP_HOST');
  }
  const smtpTls = e.SMTP_TLS ?? (e.SMTP_PORT === 465 ? 'tls' : 'starttls');
  const smtp: SmtpConfig | undefined = e.SMTP_HOST
    ? Object.freeze({
        host: e.SMTP_HOST,
        port: e.SMTP_PORT ?? (smtpTls === 'tls' ? 465 : 587),
        tls: smtpTls,
        user: e.SMTP_USER,
        password: e.SMTP_PASSWORD,
        from: (e.SMTP_FROM ?? e.SMTP_USER)!,
        sentImapUrl: e.SMTP_SENT_IMAP_URL,
      })
    : undefined;
  const documentStore = e.DOCUMENT_STORE ?? (e.S3_BUCKET ? 's3' : e.DATABASE_URL ? 'postgres' : 'local');
  if (Boolean(e.EXTRACTION_MODEL_URL) !== Boolean(e.EXTRACTION_MODEL_NAME)) {
    throw new ConfigError(
      'invalid configuration: EXTRACTION_MODEL_URL and EXTRACTION_MODEL_NAME turn the model endpoint on together; set both or neither',
    );
  }
  return Object.freeze({
    smtp,
    extractionModel:
      e.EXTRACTION_MODEL_URL && e.EXTRACTION_MODEL_NAME
        ? Object.freeze({
            baseURL: e.EXTRACTION_MODEL_URL,
            model: e.EXTRACTION_MODEL_NAME,
            // Local servers (Ollama, llama.cpp) want no key; the client library wants a string.
            apiKey: e.EXTRACTION_MODEL_API_KEY ?? 'none',
            vision: e.EXTRACTION_MODEL_VISION,
          })
        : undefined,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.INVOICEBOX_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    documentStore,
    s3: s3Settings(e, documentStore),
    logLevel: e.LOG_LEVEL,
    secret: e.INVOICEBOX_SECRET,
    workersInProcess: e.INVOICEBOX_WORKERS,
    workerConcurrency: e.WORKER_CONCURRENCY,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    jobTimeoutSeconds: e.JOB_TIMEOUT_SECONDS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    requestBodyLimitBytes: e.REQUEST_BODY_LIMIT_MB * 1024 * 1024,
    trustProxy: Array.isArray(e.TRUST_PROXY) ? Object.freeze(e.TRUST_PROXY) : e.TRUST_PROXY,
    importMaxBytes: e.IMPORT_MAX_MB * 1024 * 1024,
    uploadMaxFiles: e.UPLOAD_MAX_FILES,
    inboxDir: e.INVOICEBOX_INBOX_DIR ? path.resolve(e.INVOICEBOX_INBOX_DIR) : undefined,
    inboxPollMs: Math.round(e.INBOX_POLL_SECONDS * 1000),
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
    documents: Object.freeze({
      sandboxProcesses: e.SANDBOX_PROCESSES ?? Math.max(1, Math.min(2, os.availableParallelism())),
      sandboxMemoryMb: e.SANDBOX_MEMORY_MB,
      timeoutMs: e.DOCUMENT_TIMEOUT_SECONDS * 1000,
      maxBytes: e.DOCUMENT_MAX_MB * 1024 * 1024,
      maxPages: e.DOCUMENT_MAX_PAGES,
      maxImagePixels: e.DOCUMENT_MAX_PIXELS,
      maxInflateBytes: e.DOCUMENT_INFLATE_MAX_MB * 1024 * 1024,
      maxXmlBytes: e.DOCUMENT_XML_MAX_MB * 1024 * 1024,
    }),
    inboundSmtp,
  });
}

/**
 * The bucket, when S3_BUCKET is set (with any DOCUMENT_STORE: `invoicebox blobs migrate --to s3` fills it before the
 * switch). DOCUMENT_STORE=s3 needs it, both keys or neither, and S3 settings without a bucket are a mistake to name.
 */
function s3Settings(e: z.infer<typeof EnvSchema>, documentStore: Config['documentStore']): S3Config | undefined {
  if (!e.S3_BUCKET) {
    const set = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => e[k]);
    if (documentStore === 's3' || set.length > 0) {
      throw new ConfigError(
        `invalid configuration: ${documentStore === 's3' ? 'DOCUMENT_STORE=s3' : set.join(', ')} needs S3_BUCKET`,
      );
    }
    return undefined;
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      `invalid configuration: ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} must be set together with ${e.S3_ACCESS_KEY_ID ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'}`,
    );
  }
  return Object.freeze({
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? Object.freeze({ accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY })
        : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  });
}

/** The variables of the configuration table in the README, kept beside the schema so they cannot drift. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);

/** The extraction limits and sandbox settings of a configuration, in the shapes the extraction module takes. */
export function documentSettings(documents: DocumentsConfig) {
  return {
    sandbox: {
      processes: documents.sandboxProcesses,
      memoryMb: documents.sandboxMemoryMb,
      timeoutMs: documents.timeoutMs,
    },
    limits: {
      maxBytes: documents.maxBytes,
      maxPages: documents.maxPages,
      maxImagePixels: documents.maxImagePixels,
      maxInflateBytes: documents.maxInflateBytes,
      maxXmlBytes: documents.maxXmlBytes,
      timeoutMs: documents.timeoutMs,
    },
  };
}
