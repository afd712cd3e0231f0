import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-provider';
import { OidcClient, ProviderGrantError, ProviderUnavailableError } from './oidc.client';

describe('OpenID Connect sign-in against a real provider', () => {
  let provider: TestOidcProvider;
  let oidc: OidcClient;

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    oidc = new OidcClient({
      id: 'oidc',
      name: 'Test ID',
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUri: provider.redirectUri,
      scopes: ['openid', 'email', 'profile', 'offline_access'],
      allowInsecureRequests: true,
    });
  });
  afterAll(async () => {
    await provider.close();
  });

  it('runs the code flow with PKCE, state and nonce and gets a refresh token (forced consent)', async () => {
    const started = await oidc.start();
    const url = new URL(started.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('state')).toBe(started.state);
    expect(url.searchParams.get('nonce')).toBe(started.nonce);
    expect(url.searchParams.get('code_challenge')).not.toContain(started.codeVerifier);

    const callback = await provider.signIn(started.url, 'alice');
    const { identity, tokens } = await oidc.finish(callback, started);
    expect(identity).toEqual({
      subject: 'alice',
      email: 'alice@example.com',
      emailVerified: true,
      name: 'Person alice',
    });
    expect(tokens.accessToken).toBeTruthy();
    expect(tokens.refreshToken).toBeTruthy();
    expect(tokens.expiresIn).toBeGreaterThan(0);

    const refreshed = await oidc.refresh(tokens.refreshToken!);
    expect(refreshed.accessToken).toBeTruthy();
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.refreshToken).toBeTruthy();
  });

  it('refuses a callback whose state does not match', async () => {
    const started = await oidc.start();
    const callback = await provider.signIn(started.url, 'bob');
    await expect(oidc.finish(callback, { ...started, state: 'forged' })).rejects.toBeInstanceOf(ProviderGrantError);
  });

  it('refuses a replayed code', async () => {
    const started = await oidc.start();
    const callback = await provider.signIn(started.url, 'carol');
    await oidc.finish(callback, started);
    await expect(oidc.finish(callback, started)).rejects.toBeInstanceOf(ProviderGrantError);
  });

  it('reports a revoked refresh token as a grant error (sign in again), not a crash', async () => {
    const started = await oidc.start();
    const { tokens } = await oidc.finish(await provider.signIn(started.url, 'dave'), started);
    await oidc.revoke(tokens.refreshToken!);
    await expect(oidc.refresh(tokens.refreshToken!)).rejects.toBeInstanceOf(ProviderGrantError);
    await expect(oidc.refresh('not-a-token')).rejects.toBeInstanceOf(ProviderGrantError);
  });

  it('reports a provider that is down as unavailable (retryable)', async () => {
    const down = new OidcClient({ ...oidc.settings, issuer: 'http://127.0.0.1:9/' });
    const error = await down.start().catch((e) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error.retryable).toBe(true);
  });
});
