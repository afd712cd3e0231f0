import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { users } from '../db/schema';
import { LOCAL_OWNER_EMAIL } from '../users/users.service';
import { authFailures, localCredentials, providerTokens, sessions } from './auth.tables';
import { hashPassword } from './password';

// Passes through to the real scrypt, counting the hashes made.
vi.mock('./password', async (importOriginal) => {
  const original = await importOriginal<typeof import('./password')>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

const t = useTestDatabase();
const PASSWORD = 'correct horse battery staple';

describe('local sign-in, sessions and backend tokens', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;

  beforeAll(async () => {
    // The placeholder owner of earlier versions, holding data made before sign-in existed.
    await t()
      .database.db.insert(users)
      .values({ email: LOCAL_OWNER_EMAIL, displayName: 'Local owner', isLocalOwner: true });
    h = await buildAuthTestApp(t().database.db);
  });
  afterAll(async () => {
    await h.app.close();
  });

  const signIn = (email: string, password: string) =>
    h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email, password } });

  it('says that local sign-in exists and that nobody owns the installation yet', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/auth/methods' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      local: { enabled: true, owner_exists: false, signup_open: true },
      oidc: [],
      mfa: { factor_types: ['totp'] },
    });
  });

  it('refuses protected routes without a token, with a 401 and an error field', async () => {
    for (const url of ['/api/v1/me', '/api/v1/auth/validate', '/api/v1/jobs']) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Authentication required', code: 'unauthorized' });
    }
  });

  it('makes the first sign-up the owner, taking over the placeholder, and closes sign-up after it', async () => {
    const [placeholder] = await t().database.db.select().from(users).where(eq(users.email, LOCAL_OWNER_EMAIL));
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: ' Owner@Example.com ', password: PASSWORD, display_name: 'Olive Owner' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toEqual({ id: placeholder!.id, email: 'owner@example.com', display_name: 'Olive Owner' });
    expect(body.session_token).toMatch(/^ey/);
    expect(body.token).toMatch(/^ey/);
    expect(new Date(body.session_expires_at).getTime() - h.clock.ms).toBeCloseTo(30 * 86_400_000, -4);
    expect(new Date(body.expires_at).getTime() - h.clock.ms).toBeCloseTo(3_600_000, -4);
    const [owner] = await t().database.db.select().from(users).where(eq(users.id, placeholder!.id));
    expect(owner!.isLocalOwner).toBe(true);

    const [credentials] = await t()
      .database.db.select()
      .from(localCredentials)
      .where(eq(localCredentials.userId, owner!.id));
    expect(credentials!.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(credentials!.passwordHash).not.toContain(PASSWORD);

    const second = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'someone@example.com', password: PASSWORD },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe('Sign-up is closed: this Invoicebox already has its owner');
    const methods = await h.app.inject({ method: 'GET', url: '/api/v1/auth/methods' });
    expect(methods.json().local).toEqual({ enabled: true, owner_exists: true, signup_open: false });
  });

  it('validates sign-up input with a 400', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'not-an-email', password: 'short' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('signs in, exchanges the session token, validates, serves /me and logs out', async () => {
    const res = await signIn('OWNER@example.com', PASSWORD);
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session.user.email).toBe('owner@example.com');
    expect(session.mfa_required).toBeUndefined();

    const me = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(session.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('owner@example.com');

    h.clock.advance(60);
    const exchange = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: { session_token: session.session_token },
    });
    expect(exchange.statusCode).toBe(200);
    const { token, expires_at } = exchange.json();
    expect(token).not.toBe(session.token);
    expect(new Date(expires_at).getTime()).toBe(Math.floor(h.clock.ms / 1000) * 1000 + 3_600_000);

    const validate = await h.app.inject({ method: 'GET', url: '/api/v1/auth/validate', headers: bearer(token) });
    expect(validate.statusCode).toBe(200);
    expect(validate.json()).toEqual({ valid: true, user: session.user, expires_at });

    // A backend token is not a session token, and the other way round.
    const swapped = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: { session_token: token },
    });
    expect(swapped.statusCode).toBe(401);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(session.session_token) })).statusCode,
    ).toBe(401);

    const logout = await h.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(token) });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ success: true });
    const [row] = await t().database.db.select().from(sessions).where(eq(sessions.ownerId, session.user.id));
    expect(row).toBeDefined();

    // Every token of the revoked session stops working at once.
    for (const stale of [token, session.token]) {
      const after = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(stale) });
      expect(after.statusCode).toBe(401);
      expect(after.json().error).toBe('Session has ended; please sign in again');
    }
    const reExchange = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: { session_token: session.session_token },
    });
    expect(reExchange.statusCode).toBe(401);
  });

  it('answers a wrong password or an unknown email with the same 401', async () => {
    for (const [email, password] of [
      ['owner@example.com', 'wrong password!'],
      ['nobody@example.com', PASSWORD],
    ] as const) {
      const res = await signIn(email, password);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid email or password', code: 'unauthorized' });
    }
  });

  it('locks an email after five failures in fifteen minutes, with the time to wait', async () => {
    await t().database.db.delete(authFailures);
    for (let i = 0; i < 5; i++) {
      expect((await signIn('owner@example.com', `wrong-${i}-password`)).statusCode).toBe(401);
      h.clock.advance(60);
    }
    // Locked: even the right password is refused, with a clear message and Retry-After.
    const locked = await signIn('owner@example.com', PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      error: 'Too many failed sign-in attempts. Try again in 10 minutes.',
      code: 'rate_limited',
    });
    expect(Number(locked.headers['retry-after'])).toBe(600);

    h.clock.advance(600);
    const unlocked = await signIn('owner@example.com', PASSWORD);
    expect(unlocked.statusCode).toBe(200);
    // A success clears the count: four new failures do not lock.
    for (let i = 0; i < 4; i++) await signIn('owner@example.com', 'still wrong!');
    expect((await signIn('owner@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('refuses tampered, expired and foreign tokens with 401, never 500', async () => {
    const session = (await signIn('owner@example.com', PASSWORD)).json();
    const [header, payload, signature] = session.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: crypto.randomUUID() })).toString('base64url');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;

    // A key of our own making, claiming the kid of the real one.
    const foreign = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString());
    const wrongKey = await new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' })
      .setIssuer('invoicebox')
      .setAudience('invoicebox:api')
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(foreign.privateKey);
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect(await exportJWK(foreign.publicKey)).toHaveProperty('x');

    for (const bad of [
      `${header}.${forgedPayload}.${signature}`,
      `${header}.${payload}.${flipped}`,
      wrongKey,
      unsigned,
      'not-a-jwt',
      'a.b.c',
    ]) {
      const res = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(bad) });
      expect(res.statusCode, bad).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid or expired token', code: 'unauthorized' });
    }
    const basic = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: 'Basic abc' } });
    expect(basic.statusCode).toBe(401);

    expect((await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(session.token) })).statusCode).toBe(
      200,
    );
    h.clock.advance(3601);
    const expired = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(session.token) });
    expect(expired.statusCode).toBe(401);
    // The session itself lives on: its token still buys a new backend token.
    const exchange = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: { session_token: session.session_token },
    });
    expect(exchange.statusCode).toBe(200);
    h.clock.advance(31 * 86_400);
    const late = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: { session_token: session.session_token },
    });
    expect(late.statusCode).toBe(401);
  });

  it('stores provider tokens encrypted, from the exchange and from POST /auth/tokens, and never echoes them', async () => {
    const session = (await signIn('owner@example.com', PASSWORD)).json();
    const exchange = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: {
        session_token: session.session_token,
        access_token: 'ya29.provider-access-token',
        refresh_token: '1//provider-refresh-token',
        expires_in: 3599,
      },
    });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.body).not.toContain('provider-access-token');
    const tokens = await h.auth.providerTokens.get(session.user.id, 'google', 'owner@example.com');
    expect(tokens).toMatchObject({
      accessToken: 'ya29.provider-access-token',
      refreshToken: '1//provider-refresh-token',
    });
    expect(tokens!.expiresAt!.getTime()).toBe(h.clock.ms + 3599_000);

    // A later store without a refresh token keeps the one we have.
    const stored = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/tokens',
      headers: bearer(exchange.json().token),
      payload: { access_token: 'ya29.second-access-token', expires_in: 100, scope: 'gmail.readonly drive.file' },
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual({
      stored: true,
      provider: 'google',
      account_email: 'owner@example.com',
      expires_at: new Date(h.clock.ms + 100_000).toISOString(),
    });
    expect(stored.body).not.toContain('second-access-token');
    const again = await h.auth.providerTokens.get(session.user.id, 'google', 'OWNER@example.com');
    expect(again).toMatchObject({
      accessToken: 'ya29.second-access-token',
      refreshToken: '1//provider-refresh-token',
      scopes: ['gmail.readonly', 'drive.file'],
    });

    const rows = await t().database.db.select().from(providerTokens);
    expect(rows).toHaveLength(1);
    const raw = JSON.stringify(rows);
    expect(raw).not.toContain('provider-refresh-token');
    expect(raw).not.toContain('second-access-token');
    expect(rows[0]!.accessTokenEncrypted).toMatch(/^v1\./);
  });
});

describe('the OpenAPI document', () => {
  it('lists the auth endpoints and the JWKS', async () => {
    const h = await buildAuthTestApp(t().database.db);
    try {
      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/auth/methods',
          '/api/v1/auth/local/signup',
          '/api/v1/auth/local/signin',
          '/api/v1/auth/exchange',
          '/api/v1/auth/validate',
          '/api/v1/auth/tokens',
          '/api/v1/auth/logout',
          '/api/v1/auth/factors',
          '/api/v1/auth/factors/{factorId}/challenge',
          '/api/v1/auth/factors/{factorId}/verify',
          '/api/v1/auth/recovery',
          '/.well-known/jwks.json',
        ]),
      );
      expect(doc.paths['/api/v1/auth/local/signin'].post.security).toEqual([]);
    } finally {
      await h.app.close();
    }
  });
});

describe('sign-up when more people are allowed', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;
  beforeAll(async () => {
    h = await buildAuthTestApp(t().database.db, { auth: { allowSignup: true } });
  });
  afterAll(async () => {
    await h.app.close();
  });

  it('answers a sign-up for a taken address exactly as for a free one, and changes nothing for the taken one', async () => {
    const signup = (email: string, password: string) =>
      h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signup', payload: { email, password } });
    const signIn = (email: string, password: string) =>
      h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email, password } });
    vi.mocked(hashPassword).mockClear();
    const free = await signup('second@example.com', PASSWORD);
    expect(vi.mocked(hashPassword)).toHaveBeenCalledTimes(1);
    const taken = await signup('SECOND@example.com', 'a different password');
    // The same work: the password is hashed whether or not it is kept.
    expect(vi.mocked(hashPassword)).toHaveBeenCalledTimes(2);
    for (const res of [free, taken]) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({
        sign_in_required: true,
        message: 'Sign-up received. Sign in with your email and password to continue.',
      });
    }
    expect(taken.body).toBe(free.body);
    expect(taken.headers['content-type']).toBe(free.headers['content-type']);

    const [row] = await t().database.db.select().from(users).where(eq(users.email, 'second@example.com'));
    expect(row!.isLocalOwner).toBe(false);
    expect(row!.displayName).toBe('second');
    const session = await signIn('second@example.com', PASSWORD);
    expect(session.statusCode).toBe(200);
    expect(session.json().user.id).toBe(row!.id);
    // The account of the taken address kept its password.
    expect((await signIn('second@example.com', 'a different password')).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/auth/methods' })).json().local.signup_open).toBe(true);
  });
});

describe('rate limits on the credential endpoints', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;
  beforeAll(async () => {
    h = await buildAuthTestApp(t().database.db, { auth: { rateLimitPerMinute: 3 } });
  });
  afterAll(async () => {
    await h.app.close();
  });

  it('answers the fourth request of a minute from one address with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/exchange',
        payload: { session_token: 'x' },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().code).toBe('rate_limited');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Public reads are not limited.
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/auth/methods' })).statusCode).toBe(200);
  });
});
