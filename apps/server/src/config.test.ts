import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from './config';
import { ConfigError } from './errors';

describe('configuration', () => {
  it('has working defaults for the embedded set-up', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      workersInProcess: true,
      logLevel: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it.each([
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'mysql://x@y/z', /DATABASE_URL: must be a postgres/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['INVOICEBOX_SECRET', 'short', /INVOICEBOX_SECRET: must be at least 32/],
    ['INVOICEBOX_WORKERS', 'maybe', /INVOICEBOX_WORKERS/],
  ])('names the variable when %s=%s is malformed', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('turns the model endpoint on only with a URL and a model name, and never for a non-http URL', () => {
    expect(loadConfig({}).extractionModel).toBeUndefined();
    expect(
      loadConfig({ EXTRACTION_MODEL_URL: 'http://127.0.0.1:11434/v1', EXTRACTION_MODEL_NAME: 'llama3.2' })
        .extractionModel,
    ).toEqual({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: 'none', vision: false });
    expect(
      loadConfig({
        EXTRACTION_MODEL_URL: 'https://api.example.com/v1',
        EXTRACTION_MODEL_NAME: 'm',
        EXTRACTION_MODEL_API_KEY: 'k',
        EXTRACTION_MODEL_VISION: 'true',
      }).extractionModel,
    ).toMatchObject({ apiKey: 'k', vision: true });
    expect(() => loadConfig({ EXTRACTION_MODEL_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
      /EXTRACTION_MODEL_URL and EXTRACTION_MODEL_NAME/,
    );
    expect(() => loadConfig({ EXTRACTION_MODEL_NAME: 'm' })).toThrow(/set both or neither/);
    expect(() => loadConfig({ EXTRACTION_MODEL_URL: 'file:///etc/passwd', EXTRACTION_MODEL_NAME: 'm' })).toThrow(
      /EXTRACTION_MODEL_URL/,
    );
  });

  it('has sign-in defaults and reads their variables', () => {
    expect(loadConfig({}).auth).toEqual({
      allowSignup: false,
      sessionSeconds: 30 * 86_400,
      backendTokenSeconds: 3600,
      keyRotationSeconds: 30 * 86_400,
      rateLimitPerMinute: 20,
    });
    expect(
      loadConfig({
        AUTH_ALLOW_SIGNUP: 'true',
        AUTH_SESSION_DAYS: '7',
        AUTH_TOKEN_MINUTES: '15',
        AUTH_KEY_ROTATION_DAYS: '90',
        AUTH_RATE_LIMIT_PER_MINUTE: '5',
      }).auth,
    ).toEqual({
      allowSignup: true,
      sessionSeconds: 7 * 86_400,
      backendTokenSeconds: 900,
      keyRotationSeconds: 90 * 86_400,
      rateLimitPerMinute: 5,
    });
    expect(() => loadConfig({ AUTH_TOKEN_MINUTES: '1' })).toThrow(/AUTH_TOKEN_MINUTES/);
  });

  it('reads TRUST_PROXY as a flag or a list of proxy addresses, never a hop count', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,::1, fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['yes-please', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example.com', '1.2.3.4,']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be true, false, or addresses/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY: a hop count cannot tell the proxy/);
  });

  it('allows private-network targets by default only in the one-person embedded set-up', () => {
    const external = { DATABASE_URL: 'postgres://u@db.example/x' };
    expect(loadConfig({}).allowPrivateNetworkTargets).toBe(true);
    expect(loadConfig(external).allowPrivateNetworkTargets).toBe(false);
    expect(loadConfig({ AUTH_ALLOW_SIGNUP: 'true' }).allowPrivateNetworkTargets).toBe(false);
    expect(loadConfig({ ALLOW_PRIVATE_NETWORK_TARGETS: 'false' }).allowPrivateNetworkTargets).toBe(false);
    expect(loadConfig({ ...external, ALLOW_PRIVATE_NETWORK_TARGETS: 'true' }).allowPrivateNetworkTargets).toBe(true);
    expect(loadConfig({}).connectRateLimitPerMinute).toBe(10);
    expect(() => loadConfig({ ALLOW_PRIVATE_NETWORK_TARGETS: 'sometimes' })).toThrow(/ALLOW_PRIVATE_NETWORK_TARGETS/);
  });

  it('chooses the document store from what is configured, S3 settings validated', () => {
    expect(loadConfig({}).documentStore).toBe('local');
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z' }).documentStore).toBe('postgres');
    const s3 = loadConfig({
      DATABASE_URL: 'postgres://x@y/z',
      S3_BUCKET: 'invoices',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(s3.documentStore).toBe('s3');
    expect(s3.s3).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'invoices',
      region: 'us-east-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    // A migration's target: the bucket is known while documents are still in PostgreSQL.
    expect(loadConfig({ DOCUMENT_STORE: 'postgres', S3_BUCKET: 'invoices' })).toMatchObject({
      documentStore: 'postgres',
      s3: { bucket: 'invoices', credentials: undefined },
    });
    expect(() => loadConfig({ DOCUMENT_STORE: 's3' })).toThrow('DOCUMENT_STORE=s3 needs S3_BUCKET');
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow('S3_ENDPOINT needs S3_BUCKET');
    expect(() => loadConfig({ S3_BUCKET: 'invoices', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      'S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID',
    );
    expect(() => loadConfig({ S3_BUCKET: 'No_Such Bucket' })).toThrow('S3_BUCKET: must be a bucket name');
    expect(() => loadConfig({ DOCUMENT_STORE: 'ftp' })).toThrow('DOCUMENT_STORE');
  });

  it('lists every problem at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT.*LOG_LEVEL/);
  });

  it('exposes the variable names for the README table', () => {
    expect(CONFIG_VARIABLES).toEqual(expect.arrayContaining(['PORT', 'INVOICEBOX_DATA_DIR', 'DATABASE_URL']));
  });
});
