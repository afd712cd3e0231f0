import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import type { Config } from '../config';

const t = useTestDatabase();

/** A public route answering the address the app sees, beside the real (rate-limited) sign-in. */
const whoami: FastifyPluginAsyncZod = async (app) => {
  app.get('/test/ip', { config: { public: true } }, async (request) => ({ ip: request.ip }));
};

const PROXY = '10.0.0.1';
const LIMIT = 3;

describe('TRUST_PROXY: whose X-Forwarded-For decides the client address', () => {
  const apps: Array<Awaited<ReturnType<typeof buildAuthTestApp>>['app']> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  async function appWith(trustProxy: Config['trustProxy'] | undefined) {
    const { app } = await buildAuthTestApp(t().database.db, {
      routes: [whoami],
      auth: { rateLimitPerMinute: LIMIT },
      ...(trustProxy === undefined ? {} : { trustProxy }),
    });
    apps.push(app);
    const ipOf = async (remoteAddress: string, forwardedFor?: string) =>
      (
        await app.inject({
          url: '/api/v1/test/ip',
          remoteAddress,
          headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
        })
      ).json().ip;
    /** Status codes of sign-in attempts (wrong password), each from `remoteAddress` with its X-Forwarded-For. */
    const signIns = async (remoteAddress: string, forwardedFor: string[]) => {
      const codes: number[] = [];
      for (const f of forwardedFor) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/local/signin',
          remoteAddress,
          headers: { 'x-forwarded-for': f },
          // A new email each time: the per-email lockout must not be what answers 429 here.
          payload: { email: `nobody-${randomUUID()}@example.com`, password: 'wrong password' },
        });
        codes.push(response.statusCode);
      }
      return codes;
    };
    return { ipOf, signIns };
  }

  const clients = (n: number) => Array.from({ length: n }, (_, i) => `203.0.113.${i + 1}`);

  it('ignores the header by default: every client behind the proxy shares its rate limit', async () => {
    const { ipOf, signIns } = await appWith(undefined);
    expect(await ipOf(PROXY, '203.0.113.7')).toBe(PROXY);
    const codes = await signIns(PROXY, clients(LIMIT + 1));
    expect(codes.slice(0, LIMIT).every((c) => c !== 429)).toBe(true);
    expect(codes[LIMIT]).toBe(429);
  });

  it('with TRUST_PROXY=true takes the client from the header: one limit per client, not per proxy', async () => {
    const { ipOf, signIns } = await appWith(true);
    expect(await ipOf(PROXY, '203.0.113.7')).toBe('203.0.113.7');
    expect(await ipOf(PROXY, '198.51.100.9, 203.0.113.7')).toBe('198.51.100.9');
    expect(await ipOf(PROXY)).toBe(PROXY);
    const distinct = await signIns(PROXY, clients(LIMIT + 1));
    expect(distinct.every((c) => c !== 429)).toBe(true);
    const same = await signIns(PROXY, Array(LIMIT + 1).fill('198.51.100.20'));
    expect(same[LIMIT]).toBe(429);
  });

  it('with addresses or CIDRs believes only those proxies', async () => {
    const { ipOf, signIns } = await appWith(['10.0.0.0/8', '::1']);
    expect(await ipOf(PROXY, '203.0.113.7')).toBe('203.0.113.7');
    // Not a listed proxy: the header is whatever the client wrote, so its own address counts.
    expect(await ipOf('192.0.2.50', '203.0.113.7')).toBe('192.0.2.50');
    // A forged entry in front of what the trusted proxy appended is not believed beyond the untrusted hop.
    expect(await ipOf(PROXY, '203.0.113.66, 192.0.2.50')).toBe('192.0.2.50');
    const direct = await signIns('192.0.2.50', clients(LIMIT + 1));
    expect(direct[LIMIT]).toBe(429);
  });
});
