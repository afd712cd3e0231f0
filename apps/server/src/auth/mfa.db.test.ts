import { desc, eq, inArray, like } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { authFailures, mfaChallenges, mfaFactors, mfaRecoveryCodes, sessions } from './auth.tables';

const t = useTestDatabase();
const EMAIL = 'mfa@example.com';
const PASSWORD = 'correct horse battery staple';

describe('TOTP second factor and recovery codes', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let secret: string;
  let factorId: string;
  let recoveryCodes: string[];
  let backendToken: string;

  beforeAll(async () => {
    h = await buildAuthTestApp(t().database.db, { auth: { allowSignup: true } });
    const signup = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: EMAIL, password: PASSWORD },
    });
    backendToken = signup.json().token;
  });
  afterAll(async () => {
    await h.app.close();
  });

  const code = (offsetSeconds = 0) => generate({ secret, epoch: Math.floor(h.clock.ms / 1000) + offsetSeconds });
  const post = (url: string, token: string, payload: object) =>
    h.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const signIn = () =>
    h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email: EMAIL, password: PASSWORD } });
  const challenge = async (token: string) =>
    (await post(`/api/v1/auth/factors/${factorId}/challenge`, token, { channel: 'totp' })).json().challenge_id;

  it('enrols a factor: secret and otpauth URI, stored encrypted and not yet counted', async () => {
    const res = await post('/api/v1/auth/factors', backendToken, { friendly_name: 'Phone' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    secret = body.totp.secret;
    factorId = body.id;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.totp.uri).toMatch(
      /^otpauth:\/\/totp\/Invoicebox:mfa%40example\.com\?secret=[A-Z2-7]+&issuer=Invoicebox/,
    );
    const [row] = await t().database.db.select().from(mfaFactors).where(eq(mfaFactors.id, factorId));
    expect(row).toMatchObject({ status: 'unverified', friendlyName: 'Phone' });
    expect(row!.secretEncrypted).not.toContain(secret);

    // An unverified factor does not stand between a person and their session.
    expect((await signIn()).json().mfa_required).toBeUndefined();
    const list = await h.app.inject({ method: 'GET', url: '/api/v1/auth/factors', headers: bearer(backendToken) });
    expect(list.json().factors).toEqual([
      { id: factorId, type: 'totp', friendly_name: 'Phone', status: 'unverified', created_at: expect.any(String) },
    ]);
  });

  it('verifies the enrolment with a real code, replacing the session and handing out recovery codes once', async () => {
    const challengeRes = await post(`/api/v1/auth/factors/${factorId}/challenge`, backendToken, { channel: 'totp' });
    expect(challengeRes.statusCode).toBe(200);
    expect(new Date(challengeRes.json().expires_at).getTime()).toBe(h.clock.ms + 300_000);

    const wrong = await post(`/api/v1/auth/factors/${factorId}/verify`, backendToken, {
      code: (Number(await code()) ^ 1).toString().padStart(6, '0').slice(-6),
      challenge_id: challengeRes.json().challenge_id,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toBe('Invalid code');

    const res = await post(`/api/v1/auth/factors/${factorId}/verify`, backendToken, {
      code: await code(),
      challenge_id: await challenge(backendToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user.email).toBe(EMAIL);
    recoveryCodes = body.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await t().database.db.select().from(mfaRecoveryCodes);
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]!.replace('-', ''));

    // The session that enrolled was replaced by the new one.
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(backendToken) })).statusCode).toBe(
      401,
    );
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(body.token) })).statusCode).toBe(
      200,
    );
    backendToken = body.token;
  });

  it('asks a person with a verified factor for it at sign-in, and opens the session on a correct code', async () => {
    h.clock.advance(30);
    const res = await signIn();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      mfa_required: true,
      factors: [
        { id: factorId, type: 'totp', friendly_name: 'Phone', status: 'verified', created_at: expect.any(String) },
      ],
      mfa_token: expect.any(String),
      expires_at: new Date(Math.floor(h.clock.ms / 1000) * 1000 + 300_000).toISOString(),
    });
    expect(body).not.toHaveProperty('token');
    // The mfa token is no backend token.
    const me = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(body.mfa_token) });
    expect(me.statusCode).toBe(401);

    const challengeId = await challenge(body.mfa_token);
    const verified = await post(`/api/v1/auth/factors/${factorId}/verify`, body.mfa_token, {
      code: await code(),
      challenge_id: challengeId,
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().recovery_codes).toBeUndefined();
    const token = verified.json().token;
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) })).statusCode).toBe(200);

    // The same challenge and the same code never work twice.
    const replayChallenge = await post(`/api/v1/auth/factors/${factorId}/verify`, body.mfa_token, {
      code: await code(),
      challenge_id: challengeId,
    });
    expect(replayChallenge.statusCode).toBe(422);
    const replayCode = await post(`/api/v1/auth/factors/${factorId}/verify`, body.mfa_token, {
      code: await code(),
      challenge_id: await challenge(body.mfa_token),
    });
    expect(replayCode.statusCode).toBe(422);
    expect(replayCode.json().error).toBe('Invalid code');
  });

  it('refuses expired challenges and mfa tokens', async () => {
    h.clock.advance(60);
    const { mfa_token } = (await signIn()).json();
    const challengeId = await challenge(mfa_token);
    h.clock.advance(301);
    const late = await post(`/api/v1/auth/factors/${factorId}/verify`, mfa_token, {
      code: await code(),
      challenge_id: challengeId,
    });
    expect(late.statusCode).toBe(401);
    expect(late.json().error).toBe('Invalid or expired token');
  });

  it('accepts each recovery code once, in place of the factor', async () => {
    h.clock.advance(60);
    const { mfa_token } = (await signIn()).json();
    const res = await post('/api/v1/auth/recovery', mfa_token, { code: recoveryCodes[0]!.toLowerCase() });
    expect(res.statusCode).toBe(200);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(res.json().token) })).statusCode,
    ).toBe(200);
    const again = await post('/api/v1/auth/recovery', mfa_token, { code: recoveryCodes[0]! });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('Invalid recovery code');
    const other = await post('/api/v1/auth/recovery', mfa_token, { code: recoveryCodes[1]!.replace('-', '') });
    expect(other.statusCode).toBe(200);
    // Not with a backend token: recovery codes complete a sign-in only.
    const withBackend = await post('/api/v1/auth/recovery', res.json().token, { code: recoveryCodes[2]! });
    expect(withBackend.statusCode).toBe(401);
  });

  it('locks the second factor after five wrong codes', async () => {
    h.clock.advance(60);
    const { mfa_token } = (await signIn()).json();
    const wrongCode = async () => ((Number(await code()) + 1) % 1_000_000).toString().padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const res = await post(`/api/v1/auth/factors/${factorId}/verify`, mfa_token, {
        code: await wrongCode(),
        challenge_id: await challenge(mfa_token),
      });
      expect(res.statusCode).toBe(422);
    }
    // Now even the right code is refused until the window has passed.
    const locked = await post(`/api/v1/auth/factors/${factorId}/verify`, mfa_token, {
      code: await code(),
      challenge_id: await challenge(mfa_token),
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatch(/^Too many failed verification attempts\. Try again in \d+ minutes?\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('checks five of sixteen concurrent wrong codes and refuses the other eleven', async () => {
    h.clock.advance(16 * 60);
    await t().database.db.delete(authFailures);
    const { mfa_token } = (await signIn()).json();
    const wrongCode = ((Number(await code()) + 1) % 1_000_000).toString().padStart(6, '0');
    const challenges: string[] = [];
    for (let i = 0; i < 16; i++) challenges.push(await challenge(mfa_token));
    const answers = await Promise.all(
      challenges.map((challenge_id) =>
        post(`/api/v1/auth/factors/${factorId}/verify`, mfa_token, { code: wrongCode, challenge_id }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 422)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
    const counted = await t().database.db.select().from(authFailures).where(like(authFailures.subject, 'mfa:%'));
    expect(counted).toHaveLength(5);
    // Refused attempts did not use up their challenges: they were never looked at.
    const used = await t().database.db.select().from(mfaChallenges).where(inArray(mfaChallenges.id, challenges));
    expect(used.filter((c) => c.verifiedAt !== null)).toHaveLength(5);
  });

  it('lets the person in with password and recovery code past the per-account slow-down, and nobody with one of them', async () => {
    h.clock.advance(16 * 60);
    await t().database.db.delete(authFailures);
    const signInFrom = (remoteAddress: string, payload: object) =>
      h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/local/signin',
        payload: { email: EMAIL, ...payload },
        remoteAddress,
      });
    // Twenty failures from four addresses: the account is slowed down.
    await t()
      .database.db.insert(authFailures)
      .values(
        Array.from({ length: 20 }, (_, i) => ({
          subject: `signin:${EMAIL}`,
          clientAddress: `192.0.2.${1 + (i % 4)}`,
          failedAt: h.clock.now(),
        })),
      );
    // A new address: slowed down without a recovery code, even with the right password.
    expect((await signInFrom('198.51.100.9', { password: PASSWORD })).statusCode).toBe(429);
    // With a recovery code the attempt is checked; a wrong password or a wrong code answer alike.
    const noPassword = await signInFrom('203.0.113.9', { password: 'a guess', recovery_code: recoveryCodes[4]! });
    const noCode = await signInFrom('203.0.113.9', { password: PASSWORD, recovery_code: 'ABCDE-FGHJK' });
    for (const res of [noPassword, noCode]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Invalid email or password', code: 'unauthorized' });
    }
    // The wrong password did not use the code up.
    const both = await signInFrom('198.51.100.9', { password: PASSWORD, recovery_code: recoveryCodes[4]! });
    expect(both.statusCode).toBe(200);
    expect(both.json().mfa_required).toBeUndefined();
    const [session] = await t()
      .database.db.select()
      .from(sessions)
      .where(eq(sessions.ownerId, both.json().user.id))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(session).toMatchObject({ method: 'password+recovery', clientAddress: '198.51.100.9' });
    // Now it is used up.
    const again = await signInFrom('198.51.100.10', { password: PASSWORD, recovery_code: recoveryCodes[4]! });
    expect(again.statusCode).toBe(401);
  });

  it("keeps people apart: another person's factor is not found", async () => {
    const other = await signUpThroughApi(h.app, 'other@example.com', PASSWORD);
    const res = await post(`/api/v1/auth/factors/${factorId}/challenge`, other.token, {});
    expect(res.statusCode).toBe(404);
    const del = await h.app.inject({
      method: 'DELETE',
      url: `/api/v1/auth/factors/${factorId}`,
      headers: bearer(other.token),
    });
    expect(del.statusCode).toBe(404);
  });

  it('removes the factor, and with the last one the recovery codes', async () => {
    h.clock.advance(16 * 60);
    const { mfa_token } = (await signIn()).json();
    const session = await post('/api/v1/auth/recovery', mfa_token, { code: recoveryCodes[3]! });
    expect(session.statusCode).toBe(200);
    const del = await h.app.inject({
      method: 'DELETE',
      url: `/api/v1/auth/factors/${factorId}`,
      headers: bearer(session.json().token),
    });
    expect(del.statusCode).toBe(200);
    expect(await t().database.db.select().from(mfaRecoveryCodes)).toHaveLength(0);
    expect((await signIn()).json().mfa_required).toBeUndefined();
  });
});
