import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider on loopback for tests (`oidc-provider` with its dev interactions: any login name is
 * an account whose email is `<login>@example.com`). `signIn(url, login)` drives its login and consent forms as a
 * browser would and returns the redirect back to the client (never served).
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startTestOidcProvider(
  redirectUri = 'http://127.0.0.1:1/callback',
  /**
   * Google's wire behaviour: it accepts its API scopes and issues a refresh token for `access_type=offline`
   * (with consent) instead of the `offline_access` scope.
   */
  google:
    | {
        scopes: string[];
        /**
         * Accounts that get no refresh token, as Google does for a person who granted access before when the consent
         * screen is not shown again (or an app set up for online access only).
         */
        noRefreshTokenFor?: Set<string>;
      }
    | undefined = undefined,
  options: { port?: number } = {},
): Promise<TestOidcProvider> {
  const clientId = 'invoicebox-test';
  const clientSecret = 'test-client-secret-value';
  let provider: Provider | undefined;
  const server = http.createServer((req, res) => provider!.callback()(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code', 'refresh_token'],
      },
    ],
    scopes: ['openid', 'email', 'profile', 'offline_access', ...(google?.scopes ?? [])],
    claims: { email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
    cookies: { keys: ['test-cookie-key-1'] },
    ...(google
      ? {
          extraParams: ['access_type', 'include_granted_scopes'],
          async issueRefreshToken(ctx, client, code) {
            if (code?.accountId && google.noRefreshTokenFor?.has(code.accountId)) return false;
            return client.grantTypeAllowed('refresh_token') && ctx.oidc.params?.access_type !== 'online';
          },
        }
      : {}),
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: `${sub}@example.com`, email_verified: true, name: `Person ${sub}` };
        },
      };
    },
  });

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = authorizationUrl;
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 20; hop++) {
      const res = await fetch(url, {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body,
      });
      for (const c of res.headers.getSetCookie()) {
        const [name, ...value] = c.split(';')[0]!.split('=');
        cookies.set(name!, value.join('='));
      }
      body = undefined;
      const location = res.headers.get('location');
      if (location) {
        const next = new URL(location, url);
        if (next.toString().startsWith(redirectUri)) return next;
        url = next.toString();
        continue;
      }
      const html = await res.text();
      const action = html.match(/action="([^"]+)"/)?.[1];
      if (!action) throw new Error(`test provider: no form at ${url} (status ${res.status}): ${html.slice(0, 300)}`);
      const prompt = html.match(/name="prompt" value="([^"]+)"/)?.[1] ?? 'login';
      url = new URL(action.replaceAll('&amp;', '&'), url).toString();
      body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    }
    throw new Error('test provider: too many redirects');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    signIn,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
