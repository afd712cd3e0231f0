import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';

const t = useTestDatabase();

describe('tokens never reach the logs', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;
  beforeAll(async () => {
    h = await buildAuthTestApp(t().database.db);
  });
  afterAll(async () => {
    await h.app.close();
  });

  it('logs sign-up, sign-in, exchange, validate, second factor and logout without any secret', async () => {
    const secrets: string[] = [];
    const keep = (...values: string[]) => {
      secrets.push(...values);
      return values[0]!;
    };
    const password = keep('a-very-secret-password-1234');
    const email = 'logs@example.com';
    const json = async (res: { statusCode: number; json: () => Record<string, unknown> }, status = 200) => {
      expect(res.statusCode).toBe(status);
      return res.json() as Record<string, string>;
    };

    const signup = await json(
      await h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signup', payload: { email, password } }),
      201,
    );
    keep(signup.session_token!, signup.token!);
    const signin = await json(
      await h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email, password } }),
    );
    keep(signin.session_token!, signin.token!);
    await json(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/local/signin',
        payload: { email, password: keep('wrong-secret-password-5678') },
      }),
      401,
    );
    const exchange = await json(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/exchange',
        payload: {
          session_token: signin.session_token,
          access_token: keep('ya29.provider-access-secret'),
          refresh_token: keep('1//provider-refresh-secret'),
          expires_in: 3600,
        },
      }),
    );
    const token = keep(exchange.token!);
    await json(
      await h.app.inject({
        method: 'GET',
        url: `/api/v1/auth/validate?token=${token}&access_token=${keep('query-access-secret')}`,
        headers: bearer(token),
      }),
    );
    await json(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/tokens',
        headers: bearer(token),
        payload: { access_token: keep('ya29.second-provider-secret'), refresh_token: keep('1//second-refresh-secret') },
      }),
    );

    // A second factor: its secret, codes, mfa token and recovery codes are secrets too.
    const enrol = await json(
      await h.app.inject({ method: 'POST', url: '/api/v1/auth/factors', headers: bearer(token), payload: {} }),
      201,
    );
    const totp = enrol.totp as unknown as { secret: string; uri: string };
    keep(totp.secret, totp.uri);
    const challenge = async (auth: string) =>
      (
        await json(
          await h.app.inject({
            method: 'POST',
            url: `/api/v1/auth/factors/${enrol.id}/challenge`,
            headers: bearer(auth),
            payload: { channel: 'totp' },
          }),
        )
      ).challenge_id!;
    const code = keep(await generate({ secret: totp.secret, epoch: Math.floor(h.clock.ms / 1000) }));
    const enrolled = await json(
      await h.app.inject({
        method: 'POST',
        url: `/api/v1/auth/factors/${enrol.id}/verify`,
        headers: bearer(token),
        payload: { code, challenge_id: await challenge(token) },
      }),
    );
    keep(enrolled.session_token!, enrolled.token!, ...(enrolled.recovery_codes as unknown as string[]));
    h.clock.advance(60);
    const mfa = await json(
      await h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email, password } }),
    );
    keep(mfa.mfa_token!);
    const recovered = await json(
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/recovery',
        headers: bearer(mfa.mfa_token!),
        payload: { code: (enrolled.recovery_codes as unknown as string[])[0] },
      }),
    );
    keep(recovered.session_token!, recovered.token!);

    await json(await h.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(recovered.token!) }));
    await json(await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(recovered.token!) }), 401);

    const text = h.logLines.join('\n');
    expect(h.logLines.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      expect(text, `a log line holds ${secret.slice(0, 12)}…`).not.toContain(secret);
      // Nor a recognisable part of it (the signature of a JWT, the middle of a token).
      expect(text).not.toContain(secret.slice(-16));
    }
    const requests = h.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests.map((r) => r.url)).toContain('/api/v1/auth/local/signin');
    expect(requests.find((r) => r.url.startsWith('/api/v1/auth/validate'))?.url).toBe(
      '/api/v1/auth/validate?token=%5Bredacted%5D&access_token=%5Bredacted%5D',
    );
  });
});
