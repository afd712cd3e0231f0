import { createLocalJWKSet, errors, type JSONWebKeySet, jwtVerify } from 'jose';
import { fetchJwks as fetchPublishedKeys } from './api-client';

/**
 * The SPA checks the tokens the identity service (our server) hands it against the published keys
 * (GET /.well-known/jwks.json), with the messages of spec §8. Keys are cached for the page's life and fetched again
 * once when a token names a key the cache does not have (rotation).
 */
export const JWKS_EMPTY = 'JWKS is empty';
export const NO_MATCHING_KEY = 'No matching signing key found in JWKS';
export const INVALID_SIGNATURE = 'Invalid JWT signature';

let cached: JSONWebKeySet | null = null;

async function loadJwks(fetchJwks: () => Promise<JSONWebKeySet>, fresh: boolean): Promise<JSONWebKeySet> {
  if (!cached || fresh) cached = await fetchJwks();
  return cached;
}

export async function verifyIdentityToken(
  token: string,
  fetchJwks: () => Promise<JSONWebKeySet> = () => fetchPublishedKeys() as Promise<JSONWebKeySet>,
): Promise<void> {
  for (const fresh of [false, true]) {
    const jwks = await loadJwks(fetchJwks, fresh);
    if (!jwks.keys?.length) throw new Error(JWKS_EMPTY);
    try {
      await jwtVerify(token, createLocalJWKSet(jwks));
      return;
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) {
        if (!fresh) continue;
        throw new Error(NO_MATCHING_KEY);
      }
      if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWSInvalid) {
        throw new Error(INVALID_SIGNATURE);
      }
      throw error;
    }
  }
}

/** Tests start from an empty cache. */
export function resetJwksCache(): void {
  cached = null;
}
