import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type ProviderTokenRow, providerTokens } from './auth.tables';
import type { SecretBox } from './secret-box';

const ACCESS_CONTEXT = 'provider_tokens.access_token';
const REFRESH_CONTEXT = 'provider_tokens.refresh_token';

/** SQL on the provider_tokens table and nothing else; every statement is scoped by owner. */
export class ProviderTokensRepository {
  constructor(private readonly db: Db) {}

  async upsert(row: {
    ownerId: string;
    provider: string;
    accountEmail: string;
    accessTokenEncrypted: string;
    refreshTokenEncrypted: string | null;
    expiresAt: Date | null;
    scopes: string[] | null;
  }): Promise<void> {
    await this.db
      .insert(providerTokens)
      .values({ ...row, scopes: row.scopes ?? [] })
      .onConflictDoUpdate({
        target: [providerTokens.ownerId, providerTokens.provider, providerTokens.accountEmail],
        set: {
          accessTokenEncrypted: row.accessTokenEncrypted,
          // Providers send a refresh token only with a fresh consent: keep the one we have otherwise.
          refreshTokenEncrypted: sql`coalesce(excluded.refresh_token_encrypted, ${providerTokens.refreshTokenEncrypted})`,
          expiresAt: row.expiresAt,
          ...(row.scopes ? { scopes: row.scopes } : {}),
          updatedAt: sql`now()`,
        },
      });
  }

  async find(ownerId: string, provider: string, accountEmail: string): Promise<ProviderTokenRow | undefined> {
    const [row] = await this.db
      .select()
      .from(providerTokens)
      .where(
        and(
          eq(providerTokens.ownerId, ownerId),
          eq(providerTokens.provider, provider),
          eq(providerTokens.accountEmail, accountEmail.trim().toLowerCase()),
        ),
      );
    return row;
  }
}

export interface ProviderTokens {
  provider: string;
  accountEmail: string;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
}

/**
 * OAuth tokens of a person's provider accounts, encrypted with the secret box. The OIDC and Gmail work reads them
 * with `get`; nothing ever returns them over the API or writes them to a log.
 */
export class ProviderTokensService {
  constructor(
    private readonly repository: ProviderTokensRepository,
    private readonly box: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async store(
    ownerId: string,
    input: {
      provider: string;
      accountEmail: string;
      accessToken: string;
      refreshToken?: string;
      expiresInSeconds?: number;
      scope?: string;
    },
  ): Promise<{ provider: string; accountEmail: string; expiresAt: Date | null }> {
    const expiresAt =
      input.expiresInSeconds === undefined ? null : new Date(this.now().getTime() + input.expiresInSeconds * 1000);
    const accountEmail = input.accountEmail.trim().toLowerCase();
    await this.repository.upsert({
      ownerId,
      provider: input.provider,
      accountEmail,
      accessTokenEncrypted: this.box.encrypt(input.accessToken, ACCESS_CONTEXT),
      refreshTokenEncrypted: input.refreshToken ? this.box.encrypt(input.refreshToken, REFRESH_CONTEXT) : null,
      expiresAt,
      scopes: input.scope ? input.scope.split(/[\s,]+/).filter(Boolean) : null,
    });
    return { provider: input.provider, accountEmail, expiresAt };
  }

  /** The decrypted tokens of one provider account of `ownerId`, or undefined. */
  async get(ownerId: string, provider: string, accountEmail: string): Promise<ProviderTokens | undefined> {
    const row = await this.repository.find(ownerId, provider, accountEmail);
    if (!row) return undefined;
    return {
      provider: row.provider,
      accountEmail: row.accountEmail,
      accessToken: this.box.decrypt(row.accessTokenEncrypted, ACCESS_CONTEXT),
      refreshToken: row.refreshTokenEncrypted ? this.box.decrypt(row.refreshTokenEncrypted, REFRESH_CONTEXT) : null,
      expiresAt: row.expiresAt,
      scopes: row.scopes,
    };
  }
}
