import type { AccountTokenStatus, TokenRefreshResponse, TokenStatusResponse } from '@invoicebox/core';
import type { AccountsService } from '../accounts/accounts.service';
import type { ProviderTokensService } from '../auth/provider-tokens';
import { AppError } from '../errors';
import { type OidcClient, ProviderGrantError } from './oidc.client';

/** A token this close to its expiry counts as expiring (spec §4 uses the same margin for backend tokens). */
const EXPIRY_MARGIN_MS = 5 * 60_000;

/** The provider refused our refresh token: the account is marked and the person must sign in with it again. */
export class ReauthRequiredError extends AppError {
  constructor(email: string, reason: string) {
    super(`${email} needs to sign in again: ${reason}`, { code: 'reauth_required', status: 401 });
  }
}

/**
 * Fresh provider access for the mail and drive adapters: hands out a live access token, refreshing it through the
 * provider when it is close to expiry. A refused refresh marks the account as needing sign-in (with the reason)
 * instead of failing a whole sync; a provider that is down stays a retryable error.
 */
export class ProviderAccessService {
  private readonly now: () => Date;

  constructor(
    private readonly clients: ReadonlyMap<string, OidcClient>,
    private readonly tokens: ProviderTokensService,
    private readonly accounts: AccountsService,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  /** A live access token for one of the owner's accounts. */
  async accessToken(ownerId: string, accountId: string): Promise<string> {
    const account = (await this.accounts.list(ownerId)).accounts.find((a) => a.userId === accountId);
    if (!account) throw new AppError('Account not found', { code: 'not_found', status: 404 });
    const stored = await this.tokens.get(ownerId, account.provider, account.email);
    if (!stored) throw new ReauthRequiredError(account.email, 'no access was granted yet');
    if (stored.expiresAt && stored.expiresAt.getTime() - this.now().getTime() > EXPIRY_MARGIN_MS) {
      return stored.accessToken;
    }
    return (await this.refreshOne(ownerId, account.userId, account.provider, account.email)).accessToken;
  }

  /** A new access token now, after the provider refused the one it had (401). */
  async refreshedAccessToken(ownerId: string, accountId: string): Promise<string> {
    const account = (await this.accounts.list(ownerId)).accounts.find((a) => a.userId === accountId);
    if (!account) throw new AppError('Account not found', { code: 'not_found', status: 404 });
    return (await this.refreshOne(ownerId, account.userId, account.provider, account.email)).accessToken;
  }

  async status(ownerId: string): Promise<TokenStatusResponse> {
    const { accounts } = await this.accounts.list(ownerId);
    const result: AccountTokenStatus[] = [];
    for (const account of accounts) {
      const needsTokens = this.clients.has(account.provider);
      const stored = needsTokens ? await this.tokens.get(ownerId, account.provider, account.email) : undefined;
      result.push({
        account_id: account.userId,
        email: account.email,
        provider: account.provider,
        needs_tokens: needsTokens,
        status: account.needsReauth ? 'revoked' : this.classify(stored?.expiresAt ?? null, Boolean(stored)),
        expires_at: stored?.expiresAt?.toISOString() ?? null,
        scopes: stored?.scopes ?? [],
        message: account.reauthReason,
      });
    }
    return { accounts: result };
  }

  /** Refreshes every provider account of the owner now; one account's failure never stops the others. */
  async refreshAll(ownerId: string): Promise<TokenRefreshResponse> {
    const { accounts } = await this.accounts.list(ownerId);
    let refreshed = 0;
    let failed = 0;
    for (const account of accounts) {
      if (!this.clients.has(account.provider)) continue;
      try {
        await this.refreshOne(ownerId, account.userId, account.provider, account.email);
        refreshed++;
      } catch {
        failed++;
      }
    }
    return { ...(await this.status(ownerId)), refreshed, failed };
  }

  private async refreshOne(ownerId: string, accountId: string, provider: string, email: string) {
    const client = this.clients.get(provider);
    const stored = await this.tokens.get(ownerId, provider, email);
    if (!client || !stored?.refreshToken) {
      const reason = 'no refresh token was granted (offline access missing)';
      await this.accounts.markNeedsReauth(ownerId, accountId, reason);
      throw new ReauthRequiredError(email, reason);
    }
    try {
      const fresh = await client.refresh(stored.refreshToken);
      await this.tokens.store(ownerId, {
        provider,
        accountEmail: email,
        accessToken: fresh.accessToken,
        ...(fresh.refreshToken ? { refreshToken: fresh.refreshToken } : {}),
        ...(fresh.expiresIn !== undefined ? { expiresInSeconds: fresh.expiresIn } : {}),
        ...(fresh.scope ? { scope: fresh.scope } : {}),
      });
      await this.accounts.clearNeedsReauth(ownerId, accountId);
      return fresh;
    } catch (error) {
      if (error instanceof ProviderGrantError) {
        await this.accounts.markNeedsReauth(
          ownerId,
          accountId,
          `${client.settings.name} refused the access (revoked or expired). Sign in with this account again.`,
        );
        throw new ReauthRequiredError(email, 'the provider refused the refresh token');
      }
      throw error;
    }
  }

  private classify(expiresAt: Date | null, present: boolean): AccountTokenStatus['status'] {
    if (!present) return 'missing';
    if (!expiresAt) return 'valid';
    const left = expiresAt.getTime() - this.now().getTime();
    if (left <= 0) return 'expired';
    return left <= EXPIRY_MARGIN_MS ? 'expiring' : 'valid';
  }
}
