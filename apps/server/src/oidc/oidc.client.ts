import * as client from 'openid-client';
import { AppError, UnauthorizedError } from '../errors';

/**
 * One OpenID Connect provider (Google, or any issuer from configuration), driven by the server with openid-client:
 * authorization code flow with PKCE, state and nonce; refresh; revocation. Provider tokens never leave the server.
 */
export interface OidcProviderSettings {
  /** Stable id used in URLs and stored with the tokens, e.g. 'google' or 'oidc'. */
  id: string;
  /** Shown on the sign-in button. */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Our callback URL registered at the provider. */
  redirectUri: string;
  scopes: string[];
  /** Extra parameters of the authorization request (Google: access_type=offline). */
  authorizationParams?: Record<string, string>;
  /** Plain-http issuers are refused unless allowed (local test providers). */
  allowInsecureRequests?: boolean;
}

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | undefined;
  /** Seconds from now, as the provider said. */
  expiresIn: number | undefined;
  scope: string | undefined;
}

export interface OidcIdentity {
  subject: string;
  email: string;
  emailVerified: boolean | undefined;
  name: string | undefined;
}

/** Provider refused a grant (bad code, revoked refresh token): the person must sign in again. */
export class ProviderGrantError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'provider_grant_invalid', status: 401, cause });
  }
}

/** The provider could not be reached or answered with a server error: worth retrying later. */
export class ProviderUnavailableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'provider_unavailable', status: 503, retryable: true, cause });
  }
}

export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(readonly settings: OidcProviderSettings) {}

  /** Discovers the provider once; a failed discovery is retried on the next call. */
  private config(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret, allowInsecureRequests } = this.settings;
      this.configuration = client
        .discovery(
          new URL(issuer),
          clientId,
          clientSecret,
          undefined,
          allowInsecureRequests ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((error) => {
          this.configuration = undefined;
          throw new ProviderUnavailableError(`${this.settings.name} sign-in is unavailable: ${message(error)}`, error);
        });
    }
    return this.configuration;
  }

  /** Starts a sign-in: the URL to send the browser to, and the secrets to keep until the callback. */
  async start(): Promise<{ url: string; state: string; codeVerifier: string; nonce: string }> {
    const config = await this.config();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: this.settings.scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      // A forced consent prompt: without it, providers drop offline access on later sign-ins (no refresh token).
      prompt: 'consent',
      ...this.settings.authorizationParams,
    });
    return { url: url.toString(), state, codeVerifier, nonce };
  }

  /** Finishes a sign-in from the callback URL: checks state, PKCE and nonce, exchanges the code, reads the person. */
  async finish(
    callbackUrl: URL,
    checks: { state: string; codeVerifier: string; nonce: string },
  ): Promise<{ identity: OidcIdentity; tokens: ProviderTokens }> {
    const config = await this.config();
    let response: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      response = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw toProviderError(error, `${this.settings.name} sign-in failed`);
    }
    const claims = response.claims();
    if (!claims) throw new UnauthorizedError(`${this.settings.name} sign-in failed: no ID token`);
    // Email often comes only from userinfo, not the ID token.
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let name = typeof claims.name === 'string' ? claims.name : undefined;
    let emailVerified = typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined;
    if (!email || !name) {
      try {
        const info = await client.fetchUserInfo(config, response.access_token, claims.sub);
        email ??= typeof info.email === 'string' ? info.email : undefined;
        name ??= typeof info.name === 'string' ? info.name : undefined;
        emailVerified ??= typeof info.email_verified === 'boolean' ? info.email_verified : undefined;
      } catch (error) {
        throw toProviderError(error, `${this.settings.name} did not return the account's profile`);
      }
    }
    if (!email) throw new UnauthorizedError(`${this.settings.name} did not share an email address`);
    return {
      identity: { subject: claims.sub, email, emailVerified, name },
      tokens: toTokens(response),
    };
  }

  /** A new access token from a refresh token. A refused refresh token raises ProviderGrantError. */
  async refresh(refreshToken: string): Promise<ProviderTokens> {
    const config = await this.config();
    try {
      const response = await client.refreshTokenGrant(config, refreshToken);
      const tokens = toTokens(response);
      // Providers may keep the old refresh token (Google does): then it stays valid.
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    } catch (error) {
      throw toProviderError(error, `${this.settings.name} refused to refresh the access`);
    }
  }

  /** Revokes a token at the provider when it supports revocation (sign-out, account removal). */
  async revoke(token: string): Promise<void> {
    const config = await this.config();
    if (!config.serverMetadata().revocation_endpoint) return;
    try {
      await client.tokenRevocation(config, token);
    } catch (error) {
      throw toProviderError(error, `${this.settings.name} refused to revoke the token`);
    }
  }
}

function toTokens(response: client.TokenEndpointResponse): ProviderTokens {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token,
    expiresIn: response.expires_in,
    scope: response.scope,
  };
}

/** Provider answers of the OAuth kind (invalid_grant, bad state) mean 'sign in again'; network trouble is retryable. */
function toProviderError(error: unknown, context: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    const detail = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return new ProviderGrantError(`${context} (${detail})`, error);
  }
  const code = (error as { code?: string }).code;
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_INVALID_RESPONSE' || code?.startsWith('OAUTH_')) {
    return new ProviderGrantError(`${context} (${message(error)})`, error);
  }
  return new ProviderUnavailableError(`${context}: ${message(error)}`, error);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Google's OIDC settings: Gmail read-only and send, Drive file access, offline access with a refresh token. */
export const GOOGLE_SCOPES = [
  'openid',
  'email',
  'profile',
  'https://www.googleapis.com/auth/gmail.readonly',
  'https://www.googleapis.com/auth/gmail.send',
  'https://www.googleapis.com/auth/drive.file',
];
export const GOOGLE_AUTHORIZATION_PARAMS = { access_type: 'offline', include_granted_scopes: 'true' };
