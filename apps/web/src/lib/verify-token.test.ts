import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { INVALID_SIGNATURE, JWKS_EMPTY, NO_MATCHING_KEY, resetJwksCache, verifyIdentityToken } from './verify-token';

async function key(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' } };
}
const sign = (k: Awaited<ReturnType<typeof key>>) =>
  new SignJWT({ sid: 's' }).setProtectedHeader({ alg: 'EdDSA', kid: k.kid }).setExpirationTime('1h').sign(k.privateKey);

describe('identity token verification in the SPA (spec §8 messages)', () => {
  beforeEach(resetJwksCache);

  it('accepts a token signed by a published key, and finds a rotated key by fetching again', async () => {
    const a = await key('a');
    const b = await key('b');
    let published = [a.jwk];
    const fetchJwks = async () => ({ keys: published });
    await verifyIdentityToken(await sign(a), fetchJwks);
    published = [a.jwk, b.jwk];
    await verifyIdentityToken(await sign(b), fetchJwks);
  });

  it('says JWKS is empty, no matching key, or invalid signature', async () => {
    const a = await key('a');
    const other = await key('a'); // same kid, different key: a forged signature
    await expect(verifyIdentityToken(await sign(a), async () => ({ keys: [] }))).rejects.toThrow(JWKS_EMPTY);
    resetJwksCache();
    const b = await key('b');
    await expect(verifyIdentityToken(await sign(b), async () => ({ keys: [a.jwk] }))).rejects.toThrow(NO_MATCHING_KEY);
    resetJwksCache();
    await expect(verifyIdentityToken(await sign(other), async () => ({ keys: [a.jwk] }))).rejects.toThrow(
      INVALID_SIGNATURE,
    );
  });
});
