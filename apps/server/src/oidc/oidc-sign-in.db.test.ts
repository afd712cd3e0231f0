import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TEST_AUTH, TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { startTestOidcProvider, type TestOidcProvider } from '../../test/oidc-provider';
import { AccountsRepository } from '../accounts/accounts.repository';
import { accountsRoutes } from '../accounts/accounts.routes';
import { AccountsService } from '../accounts/accounts.service';
import { providerTokens } from '../auth/auth.tables';
import { buildApp } from '../http/app';
import { JobsRepository } from '../jobs/jobs.repository';
import { JobsService } from '../jobs/jobs.service';
import { createLogger } from '../logger';
import { createAuthModule } from '../runtime';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { GOOGLE_SCOPES } from './oidc.client';
import { OidcRepository } from './oidc.repository';
import { oidcRoutes } from './oidc.routes';
import { MISSING_ACCESS_TOKEN_MESSAGE, MISSING_REFRESH_TOKEN_MESSAGE, OidcSignInService } from './oidc-sign-in.service';
import { ProviderAccessService } from './provider-access.service';
import { syncTokenRoutes } from './sync-token.routes';

const t = useTestDatabase();
const PUBLIC_URL = 'http://invoicebox.test';

/**
 * The whole server-side sign-in against a real OpenID Connect provider on loopback, configured as 'google' so the
 * Google specifics run (Gmail and Drive scopes, access_type=offline, prompt=consent, the refresh token required,
 * the Gmail account connected).
 */
describe('sign-in with an OpenID Connect provider, run by the server', () => {
  let provider: TestOidcProvider;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const logLines: string[] = [];
  let revokeAt: (ownerId: string, email: string) => Promise<void> = async () => {};
  let googleClient: { finish: (...args: never[]) => Promise<{ tokens: { accessToken: string } }> };

  beforeAll(async () => {
    const { db } = t().database;
    provider = await startTestOidcProvider(`${PUBLIC_URL}/api/v1/auth/oidc/google/callback`, {
      scopes: GOOGLE_SCOPES.slice(3),
      noRefreshTokenFor: new Set(['online-only']),
    });
    const users = new UsersService(new UsersRepository(db));
    const auth = await createAuthModule(
      {
        auth: { ...DEFAULT_TEST_AUTH, allowSignup: false },
        secret: TEST_SECRET,
        dataDir: '/nonexistent',
        publicUrl: PUBLIC_URL,
        oidcProviders: [
          {
            id: 'google',
            name: 'Google',
            issuer: provider.issuer,
            clientId: provider.clientId,
            clientSecret: provider.clientSecret,
          },
        ],
      },
      db,
      users,
    );
    const accounts = new AccountsService(new AccountsRepository(db));
    const oidc = new OidcSignInService(auth.oidcClients, new OidcRepository(db), {
      box: auth.box,
      users,
      sessions: auth.sessions,
      providerTokens: auth.providerTokens,
      accounts,
      withSignupLock: auth.withSignupLock,
      allowSignup: false,
    });
    const authenticate = (request: { headers: Record<string, string | string[] | undefined> }) =>
      auth.sessions.authenticate(request.headers);
    app = await buildApp({
      config: { requestBodyLimitBytes: 1024 * 1024, webDistDir: '/nonexistent' },
      logger: createLogger(
        'debug',
        new Writable({
          write(chunk, _e, done) {
            logLines.push(chunk.toString());
            done();
          },
        }),
      ),
      health: { engine: t().engine, database: async () => true, queue: async () => true },
      jobs: new JobsService(new JobsRepository(db)),
      authenticate,
      auth,
      routes: [
        accountsRoutes(accounts),
        syncTokenRoutes(new ProviderAccessService(auth.oidcClients, auth.providerTokens, accounts)),
        oidcRoutes(oidc, { publicUrl: PUBLIC_URL, rateLimitPerMinute: 10_000, authenticate }),
      ],
    });
    googleClient = auth.oidcClients.get('google')! as unknown as typeof googleClient;
    revokeAt = async (ownerId: string, email: string) => {
      const stored = await auth.providerTokens.get(ownerId, 'google', email);
      await auth.oidcClients.get('google')!.revoke(stored!.refreshToken!);
    };
  });

  afterAll(async () => {
    await app.close();
    await provider.close();
  });

  /** Drives start → provider login → our callback; returns our redirect and the cookie jar value. */
  async function runFlow(
    login: string,
    options: { purpose?: 'sign_in' | 'add_account'; token?: string; cookie?: boolean } = {},
  ) {
    const start = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/google/start',
      payload: { purpose: options.purpose ?? 'sign_in' },
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    });
    expect(start.statusCode).toBe(200);
    const binding = String(start.headers['set-cookie']).split(';')[0]!;
    const providerRedirect = await provider.signIn(start.json().url, login);
    const callback = await app.inject({
      method: 'GET',
      url: `${providerRedirect.pathname}${providerRedirect.search}`,
      headers: options.cookie === false ? {} : { cookie: binding },
    });
    expect(callback.statusCode).toBe(302);
    return { start, location: new URL(String(callback.headers.location), PUBLIC_URL), providerRedirect, binding };
  }

  it('lists the provider among the sign-in methods', async () => {
    const res = await app.inject({ url: '/api/v1/auth/methods' });
    expect(res.json().oidc).toEqual([{ id: 'google', name: 'Google' }]);
  });

  it('asks Google for mail and drive access with offline access and a forced consent', async () => {
    const start = await app.inject({ method: 'POST', url: '/api/v1/auth/oidc/google/start', payload: {} });
    const url = new URL(start.json().url);
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(GOOGLE_SCOPES);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/v1/auth/oidc/google/callback`);
    expect(String(start.headers['set-cookie'])).toMatch(
      /^ibx_oidc=[\w-]+; Path=\/api\/v1\/auth\/oidc; HttpOnly; SameSite=Lax/,
    );
  });

  let aliceToken = '';

  it('signs the first person in, connects their Gmail account, and hands the session over once', async () => {
    const { location } = await runFlow('alice');
    expect(location.pathname).toBe('/auth/callback');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const session = await app.inject({ method: 'POST', url: '/api/v1/auth/code', payload: { code } });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe('alice@example.com');
    aliceToken = session.json().token;
    const again = await app.inject({ method: 'POST', url: '/api/v1/auth/code', payload: { code } });
    expect(again.statusCode).toBe(401);

    const accounts = await app.inject({
      url: '/api/v1/gmail/accounts',
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(accounts.json().accounts).toEqual([
      expect.objectContaining({
        email: 'alice@example.com',
        provider: 'google',
        isPrimary: true,
        displayName: 'Person alice',
      }),
    ]);
    const [stored] = await t().database.db.select().from(providerTokens);
    expect(stored).toMatchObject({ provider: 'google', accountEmail: 'alice@example.com' });
    expect(stored!.accessTokenEncrypted).toMatch(/^v1\./);
    expect(stored!.refreshTokenEncrypted).toMatch(/^v1\./);
    expect(stored!.scopes).toEqual(expect.arrayContaining(['https://www.googleapis.com/auth/gmail.readonly']));
  });

  it('signs the same person in again through the same identity', async () => {
    const { location } = await runFlow('alice');
    const session = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/code',
      payload: { code: location.searchParams.get('code')! },
    });
    expect(session.json().user.email).toBe('alice@example.com');
  });

  it('adds a second Gmail account to the signed-in person', async () => {
    const { location } = await runFlow('alice-work', { purpose: 'add_account', token: aliceToken });
    expect(location.searchParams.get('code')).toBeTruthy();
    const accounts = await app.inject({
      url: '/api/v1/gmail/accounts',
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(accounts.json().accounts.map((a: { email: string }) => a.email)).toEqual([
      'alice@example.com',
      'alice-work@example.com',
    ]);
  });

  it('reports and refreshes provider access; a revoked grant marks the account for a new sign-in', async () => {
    const headers = { authorization: `Bearer ${aliceToken}` };
    const status = await app.inject({ url: '/api/v1/sync/token/status', headers });
    expect(status.statusCode).toBe(200);
    expect(status.json().accounts[0]).toMatchObject({
      email: 'alice@example.com',
      status: 'valid',
      needs_tokens: true,
    });
    const refreshed = await app.inject({ method: 'POST', url: '/api/v1/sync/token/refresh', headers });
    expect(refreshed.json()).toMatchObject({ refreshed: 2, failed: 0 });

    const me = (await app.inject({ url: '/api/v1/me', headers })).json().user.id;
    await revokeAt(me, 'alice-work@example.com');
    const after = await app.inject({ method: 'POST', url: '/api/v1/sync/token/refresh', headers });
    expect(after.json()).toMatchObject({ refreshed: 1, failed: 1 });
    const work = after.json().accounts.find((a: { email: string }) => a.email === 'alice-work@example.com');
    expect(work).toMatchObject({
      status: 'revoked',
      message: expect.stringMatching(/Sign in with this account again/),
    });
    const list = await app.inject({ url: '/api/v1/gmail/accounts', headers });
    expect(list.json().accounts[1]).toMatchObject({ needsReauth: true });
  });

  it('refuses add_account without a signed-in person', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/oidc/google/start',
      payload: { purpose: 'add_account' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a second person when sign-up is closed, with a message for the SPA', async () => {
    const { location } = await runFlow('mallory');
    expect(location.pathname).toBe('/auth/callback');
    expect(location.searchParams.get('error')).toBe('Sign-up is closed: this Invoicebox already has its owner');
  });

  it('refuses a callback from another browser (no binding cookie) and a replayed callback', async () => {
    const planted = await runFlow('alice', { cookie: false });
    expect(planted.location.searchParams.get('error')).toMatch(/started in another browser/);
    const ok = await runFlow('alice');
    const replay = await app.inject({
      method: 'GET',
      url: `${ok.providerRedirect.pathname}${ok.providerRedirect.search}`,
      headers: { cookie: ok.binding },
    });
    expect(new URL(String(replay.headers.location), PUBLIC_URL).searchParams.get('error')).toMatch(
      /expired or was already used/,
    );
  });

  it('refuses a Google sign-in that came back without an access token, with the spec message', async () => {
    const finish = googleClient.finish.bind(googleClient);
    const spy = vi.spyOn(googleClient, 'finish').mockImplementationOnce(async (...args) => {
      const result = await finish(...args);
      return { ...result, tokens: { ...result.tokens, accessToken: '' } };
    });
    try {
      const { location } = await runFlow('alice');
      expect(location.pathname).toBe('/auth/callback');
      expect(location.searchParams.get('code')).toBeNull();
      expect(location.searchParams.get('error')).toBe('Missing Google access token. Please try signing in again.');
      expect(MISSING_ACCESS_TOKEN_MESSAGE).toBe('Missing Google access token. Please try signing in again.');
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a Google sign-in whose provider gave no refresh token, with the spec message, and keeps nothing', async () => {
    const tokensBefore = await t().database.db.select().from(providerTokens);
    const { location } = await runFlow('online-only');
    expect(location.pathname).toBe('/auth/callback');
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('error')).toBe(
      'Missing Google refresh token. This means the OAuth flow is not requesting offline access...',
    );
    // No person, no session and no half-stored grant came of it.
    expect(await t().database.db.select().from(providerTokens)).toHaveLength(tokensBefore.length);
  });

  it('turns a provider error into the SPA error state, never a 500', async () => {
    const res = await app.inject({
      url: '/api/v1/auth/oidc/google/callback?error=access_denied&error_description=The+user+said+no&state=x',
    });
    expect(res.statusCode).toBe(302);
    expect(new URL(String(res.headers.location), PUBLIC_URL).searchParams.get('error')).toBe(
      'Authentication failed: The user said no',
    );
    const unknown = await app.inject({ method: 'POST', url: '/api/v1/auth/oidc/nope/start', payload: {} });
    expect(unknown.statusCode).toBe(404);
  });

  it('never writes tokens, codes or the state to the log', async () => {
    const text = logLines.join('\n');
    const [stored] = await t().database.db.select().from(providerTokens);
    expect(stored).toBeDefined();
    for (const line of logLines) {
      const parsed = JSON.parse(line) as { url?: string };
      // Any code or state in a logged URL is redacted.
      if (parsed.url) expect(parsed.url).not.toMatch(/[?&](code|state)=(?!%5Bredacted%5D)/);
    }
    expect(text).not.toContain(aliceToken);
    expect(MISSING_REFRESH_TOKEN_MESSAGE).toMatch(/^Missing Google refresh token/);
  });
});
