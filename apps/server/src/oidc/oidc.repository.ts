import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authCodes, oauthFlows, oidcIdentities } from './oidc.tables';

export type OAuthFlowRow = typeof oauthFlows.$inferSelect;

/** SQL on the OIDC tables and nothing else. */
export class OidcRepository {
  constructor(private readonly db: Db) {}

  async insertFlow(row: Omit<typeof oauthFlows.$inferInsert, 'id' | 'createdAt' | 'consumedAt'>): Promise<void> {
    await this.db.insert(oauthFlows).values(row);
    // Keep the table small: flows are useless once expired.
    await this.db.delete(oauthFlows).where(lt(oauthFlows.expiresAt, sql`now() - interval '1 day'`));
  }

  /** Takes a live flow by its state hash, once: a second callback with the same state finds nothing. */
  async consumeFlow(stateHash: string, provider: string, at: Date): Promise<OAuthFlowRow | undefined> {
    const [row] = await this.db
      .update(oauthFlows)
      .set({ consumedAt: at })
      .where(
        and(
          eq(oauthFlows.stateHash, stateHash),
          eq(oauthFlows.provider, provider),
          isNull(oauthFlows.consumedAt),
          gt(oauthFlows.expiresAt, at),
        ),
      )
      .returning();
    return row;
  }

  async findIdentity(provider: string, subject: string) {
    const [row] = await this.db
      .select()
      .from(oidcIdentities)
      .where(and(eq(oidcIdentities.provider, provider), eq(oidcIdentities.subject, subject)));
    return row;
  }

  async insertIdentity(row: { provider: string; subject: string; ownerId: string; email: string }): Promise<void> {
    await this.db.insert(oidcIdentities).values(row).onConflictDoNothing();
  }

  async insertCode(row: { codeHash: string; ownerId: string; sessionId: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(authCodes).values(row);
  }

  /** Redeems a one-time code once, before it expires. */
  async consumeCode(codeHash: string, at: Date): Promise<{ ownerId: string; sessionId: string } | undefined> {
    const [row] = await this.db
      .update(authCodes)
      .set({ consumedAt: at })
      .where(and(eq(authCodes.codeHash, codeHash), isNull(authCodes.consumedAt), gt(authCodes.expiresAt, at)))
      .returning({ ownerId: authCodes.ownerId, sessionId: authCodes.sessionId });
    return row;
  }
}
