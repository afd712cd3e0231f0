import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { signingKeys } from './auth.tables';
import { createSecretBox, SecretBoxError } from './secret-box';
import { PREPUBLISH_SECONDS, SigningKeys, SigningKeysRepository } from './signing-keys';

const t = useTestDatabase();
const DAY = 86_400;

describe('signing keys and their rotation', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;

  beforeAll(async () => {
    // Rotation every 10 days; sessions of 2 days, so a replaced key is published 2 days (and 2 minutes) longer.
    h = await buildAuthTestApp(t().database.db, { auth: { keyRotationSeconds: 10 * DAY, sessionSeconds: 2 * DAY } });
  });
  afterAll(async () => {
    await h.app.close();
  });

  const jwks = async () => (await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();

  it('publishes the public key at the server root, without any private part', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(res.statusCode).toBe(200);
    const { keys } = res.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toEqual({
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.any(String),
      kid: expect.any(String),
      alg: 'EdDSA',
      use: 'sig',
    });
    expect(keys[0]).not.toHaveProperty('d');
    // The private half is in the database only as secret-box ciphertext.
    const [row] = await t().database.db.select().from(signingKeys);
    expect(row!.privateJwkEncrypted).toMatch(/^v1\./);
    expect(row!.privateJwkEncrypted).not.toContain('"d"');
  });

  it('signs with a new key once the current one is old, and keeps the old one until its tokens expired', async () => {
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'keys@example.com', password: 'correct horse battery staple' },
    });
    const signIn = async () =>
      (
        await h.app.inject({
          method: 'POST',
          url: '/api/v1/auth/local/signin',
          payload: { email: 'keys@example.com', password: 'correct horse battery staple' },
        })
      ).json();
    const first = await signIn();
    const oldKid = decodeProtectedHeader(first.token).kid;
    expect(decodeProtectedHeader(first.session_token).kid).toBe(oldKid);
    expect((await jwks()).keys.map((k: { kid: string }) => k.kid)).toEqual([oldKid]);

    h.clock.advance(10 * DAY - 3600);
    const beforeDue = await signIn();
    expect(decodeProtectedHeader(beforeDue.token).kid).toBe(oldKid);

    // Due: the successor is published at once, but signs only once JWKS caches can have picked it up.
    h.clock.advance(3600);
    const atDue = await signIn();
    expect(decodeProtectedHeader(atDue.token).kid).toBe(oldKid);
    const published = (await jwks()).keys.map((k: { kid: string }) => k.kid);
    expect(published).toHaveLength(2);
    const newKid = published[0];
    expect(published).toEqual([newKid, oldKid]);

    h.clock.advance(PREPUBLISH_SECONDS);
    const second = await signIn();
    expect(decodeProtectedHeader(second.token).kid).toBe(newKid);
    expect((await jwks()).keys.map((k: { kid: string }) => k.kid)).toEqual([newKid, oldKid]);
    expect((await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(atDue.token) })).statusCode).toBe(
      200,
    );

    // A token of the old key still works until it expires: here a session token, exchanged a day later.
    h.clock.advance(DAY);
    const exchanged = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/exchange',
      payload: { session_token: beforeDue.session_token },
    });
    expect(exchanged.statusCode).toBe(200);
    expect(decodeProtectedHeader(exchanged.json().token).kid).toBe(newKid);
    const me = await h.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(exchanged.json().token) });
    expect(me.statusCode).toBe(200);

    // Two days (plus the cache minutes) after the rotation, nothing the old key signed can be valid: it is retired.
    h.clock.advance(DAY + 300);
    expect((await jwks()).keys.map((k: { kid: string }) => k.kid)).toEqual([newKid]);
  });

  it('shares keys between processes, and refuses to start with a secret that does not open them', async () => {
    const repo = new SigningKeysRepository(t().database.db);
    const options = { rotationSeconds: 10 * DAY, maxTokenSeconds: 2 * DAY, now: h.clock.now };
    const other = new SigningKeys(repo, createSecretBox('a-test-secret-of-at-least-32-characters!'), options);
    const mine = await h.auth.keys.current();
    expect((await other.current()).kid).toBe(mine.kid);

    const wrong = new SigningKeys(repo, createSecretBox('some-other-secret-of-at-least-32-chars!!'), options);
    await expect(wrong.current()).rejects.toThrow(SecretBoxError);
  });

  it('makes exactly one new key when several processes rotate at once', async () => {
    const repo = new SigningKeysRepository(t().database.db);
    const box = createSecretBox('a-test-secret-of-at-least-32-characters!');
    h.clock.advance(11 * DAY);
    const processes = [1, 2, 3, 4].map(
      () => new SigningKeys(repo, box, { rotationSeconds: 10 * DAY, maxTokenSeconds: 2 * DAY, now: h.clock.now }),
    );
    const before = (await h.auth.keys.current()).kid;
    const kids = new Set((await Promise.all(processes.map((p) => p.current()))).map((k) => k.kid));
    expect([...kids]).toEqual([before]);
    const rows = await repo.listPublished(h.clock.now());
    expect(rows.filter((r) => r.activatesAt > h.clock.now())).toHaveLength(1);
    expect(rows.filter((r) => !r.supersededAt)).toHaveLength(1);

    h.clock.advance(PREPUBLISH_SECONDS);
    const after = new Set((await Promise.all(processes.map((p) => p.current()))).map((k) => k.kid));
    expect(after.size).toBe(1);
    expect([...after][0]).not.toBe(before);
  });
});
