import { createHash, randomBytes } from 'node:crypto';
import type { SessionResponse } from '@invoicebox/core';
import type { AccountsService } from '../accounts/accounts.service';
import type { ProviderTokensService } from '../auth/provider-tokens';
import type { SecretBox } from '../auth/secret-box';
import type { RequestContext, SessionsService } from '../auth/sessions.service';
import type { UserRow } from '../db/schema';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../errors';
import type { UsersService } from '../users/users.service';
import type { OidcClient } from './oidc.client';
import type { OidcRepository } from './oidc.repository';

const FLOW_SECONDS = 10 * 60;
const CODE_SECONDS = 60;
const VERIFIER_CONTEXT = 'oauth_flows.code_verifier';

/** §5: the refresh token must come back, or sync stops working within the hour. */
export const MISSING_REFRESH_TOKEN_MESSAGE =
  'Missing Google refresh token. This means the OAuth flow is not requesting offline access...';

/** §5: without the access token no mail can be read; the provider must be asked again. */
export const MISSING_ACCESS_TOKEN_MESSAGE = 'Missing Google access token. Please try signing in again.';

export type FlowPurpose = 'sign_in' | 'add_account';

/**
 * Sign-in and account connection through an OpenID Connect provider, run by the server:
 * start → the provider → callback (state, browser binding, PKCE and nonce checked; tokens stored encrypted; the
 * person found, linked or created; a Google account connected as a mail account) → a one-time code in the redirect
 * to the SPA → the SPA redeems it once for the session. Provider tokens never reach the browser.
 */
export class OidcSignInService {
  private readonly now: () => Date;

  constructor(
    private readonly clients: ReadonlyMap<string, OidcClient>,
    private readonly repository: OidcRepository,
    private readonly deps: {
      box: SecretBox;
      users: UsersService;
      sessions: SessionsService;
      providerTokens: ProviderTokensService;
      accounts: AccountsService;
      /** Serialises the creation of people (the first one becomes the owner). */
      withSignupLock: <T>(fn: (users: UsersService) => Promise<T>) => Promise<T>;
      allowSignup: boolean;
    },
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  providers(): Array<{ id: string; name: string }> {
    return [...this.clients.values()].map((c) => ({ id: c.settings.id, name: c.settings.name }));
  }

  /** Begins a flow; `binding` is a random value the route also sets as an HttpOnly cookie in the same browser. */
  async start(
    providerId: string,
    purpose: FlowPurpose,
    ownerId: string | undefined,
  ): Promise<{ url: string; binding: string }> {
    const client = this.client(providerId);
    if (purpose === 'add_account' && !ownerId) throw new UnauthorizedError();
    const started = await client.start();
    const binding = randomBytes(24).toString('base64url');
    await this.repository.insertFlow({
      stateHash: sha256(started.state),
      bindingHash: sha256(binding),
      provider: providerId,
      purpose,
      ownerId: purpose === 'add_account' ? (ownerId ?? null) : null,
      codeVerifierEncrypted: this.deps.box.encrypt(started.codeVerifier, VERIFIER_CONTEXT),
      nonce: started.nonce,
      expiresAt: new Date(this.now().getTime() + FLOW_SECONDS * 1000),
    });
    return { url: started.url, binding };
  }

  /**
   * Finishes a flow from the provider's redirect. Returns the one-time code for the SPA. Every failure is an
   * AppError whose message the SPA can show.
   */
  async callback(
    providerId: string,
    callbackUrl: URL,
    binding: string | undefined,
    context: RequestContext,
  ): Promise<{ code: string }> {
    const client = this.client(providerId);
    const providerError = callbackUrl.searchParams.get('error');
    if (providerError) {
      const description = callbackUrl.searchParams.get('error_description');
      throw new UnauthorizedError(`Authentication failed: ${description ?? providerError}`);
    }
    const state = callbackUrl.searchParams.get('state');
    if (!state) throw new ValidationError('No OAuth state in the callback');
    const flow = await this.repository.consumeFlow(sha256(state), providerId, this.now());
    if (!flow) throw new UnauthorizedError('Authentication failed: this sign-in link has expired or was already used');
    if (!binding || sha256(binding) !== flow.bindingHash) {
      throw new UnauthorizedError('Authentication failed: the sign-in was started in another browser');
    }
    const { identity, tokens } = await client.finish(callbackUrl, {
      state,
      codeVerifier: this.deps.box.decrypt(flow.codeVerifierEncrypted, VERIFIER_CONTEXT),
      nonce: flow.nonce,
    });
    if (providerId === 'google' && !tokens.accessToken) throw new UnauthorizedError(MISSING_ACCESS_TOKEN_MESSAGE);
    if (providerId === 'google' && !tokens.refreshToken) throw new UnauthorizedError(MISSING_REFRESH_TOKEN_MESSAGE);

    const user =
      flow.purpose === 'add_account'
        ? await this.attachToOwner(flow.ownerId!, providerId, identity)
        : await this.personFor(providerId, identity);

    await this.deps.providerTokens.store(user.id, {
      provider: providerId,
      accountEmail: identity.email,
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(tokens.expiresIn !== undefined ? { expiresInSeconds: tokens.expiresIn } : {}),
      ...(tokens.scope ? { scope: tokens.scope } : {}),
    });
    if (providerId === 'google') {
      // Signing in with Google connects that Gmail account (mail read/send and drive scopes were granted).
      const account = await this.deps.accounts.connect(user.id, {
        provider: 'google',
        email: identity.email,
        displayName: identity.name ?? null,
      });
      await this.deps.accounts.clearNeedsReauth(user.id, account.userId);
    }

    const { sessionId } = await this.deps.sessions.openWithId(user, `oidc:${providerId}`, context);
    const code = randomBytes(32).toString('base64url');
    await this.repository.insertCode({
      codeHash: sha256(code),
      ownerId: user.id,
      sessionId,
      expiresAt: new Date(this.now().getTime() + CODE_SECONDS * 1000),
    });
    return { code };
  }

  /** POST /auth/code: the one-time code from the redirect, once, for the session's tokens. */
  async redeem(code: string): Promise<SessionResponse> {
    const found = await this.repository.consumeCode(sha256(code), this.now());
    if (!found) throw new UnauthorizedError('Authentication failed: this sign-in code has expired or was already used');
    return this.deps.sessions.resume(found.ownerId, found.sessionId);
  }

  private client(providerId: string): OidcClient {
    const client = this.clients.get(providerId);
    if (!client) throw new NotFoundError(`Sign-in with '${providerId}' is not configured`);
    return client;
  }

  /** The person an identity signs in as: known identity, else the person with that verified email, else a new one. */
  private async personFor(
    providerId: string,
    identity: { subject: string; email: string; emailVerified?: boolean | undefined; name?: string | undefined },
  ): Promise<UserRow> {
    const known = await this.repository.findIdentity(providerId, identity.subject);
    if (known) {
      const user = await this.deps.users.findById(known.ownerId);
      if (user) return user;
    }
    const user = await this.deps.withSignupLock(async (users) => {
      const existing = await users.findByEmail(identity.email);
      if (existing) {
        // Linking by email is safe only when the provider vouches for the address.
        if (identity.emailVerified !== true) {
          throw new ConflictError(
            'An account with this email already exists; sign in with it first, then connect this one',
          );
        }
        return existing;
      }
      if ((await users.ownerExists()) && !this.deps.allowSignup) {
        throw new ConflictError('Sign-up is closed: this Invoicebox already has its owner');
      }
      return users.create({ email: identity.email, displayName: identity.name ?? identity.email.split('@')[0]! });
    });
    await this.repository.insertIdentity({
      provider: providerId,
      subject: identity.subject,
      ownerId: user.id,
      email: identity.email,
    });
    return user;
  }

  /** '+ Add Gmail Account': the identity joins the person who started the flow, unless another person has it. */
  private async attachToOwner(
    ownerId: string,
    providerId: string,
    identity: { subject: string; email: string },
  ): Promise<UserRow> {
    const owner = await this.deps.users.findById(ownerId);
    if (!owner) throw new UnauthorizedError('Authentication failed: the person who started this has gone');
    const known = await this.repository.findIdentity(providerId, identity.subject);
    if (known && known.ownerId !== ownerId) {
      throw new ConflictError(`${identity.email} is already connected to another Invoicebox user`);
    }
    await this.repository.insertIdentity({
      provider: providerId,
      subject: identity.subject,
      ownerId,
      email: identity.email,
    });
    return owner;
  }
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
