import { and, asc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type MfaChallengeRow, type MfaFactorRow, mfaChallenges, mfaFactors, mfaRecoveryCodes } from './auth.tables';

/** SQL on the second-factor tables and nothing else; every statement is scoped by owner or by an owned factor. */
export class MfaRepository {
  constructor(private readonly db: Db) {}

  async transaction<T>(fn: (repo: MfaRepository) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => fn(new MfaRepository(tx as unknown as Db)));
  }

  async listFactors(ownerId: string): Promise<MfaFactorRow[]> {
    return this.db
      .select()
      .from(mfaFactors)
      .where(eq(mfaFactors.ownerId, ownerId))
      .orderBy(asc(mfaFactors.createdAt), asc(mfaFactors.id));
  }

  async findFactor(ownerId: string, id: string): Promise<MfaFactorRow | undefined> {
    const [row] = await this.db
      .select()
      .from(mfaFactors)
      .where(and(eq(mfaFactors.ownerId, ownerId), eq(mfaFactors.id, id)));
    return row;
  }

  async insertFactor(row: {
    ownerId: string;
    type: 'totp';
    friendlyName: string | null;
    secretEncrypted: string;
  }): Promise<MfaFactorRow> {
    const [inserted] = await this.db.insert(mfaFactors).values(row).returning();
    return inserted!;
  }

  async deleteUnverifiedFactors(ownerId: string): Promise<void> {
    await this.db.delete(mfaFactors).where(and(eq(mfaFactors.ownerId, ownerId), eq(mfaFactors.status, 'unverified')));
  }

  async deleteFactor(ownerId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(mfaFactors)
      .where(and(eq(mfaFactors.ownerId, ownerId), eq(mfaFactors.id, id)))
      .returning({ id: mfaFactors.id });
    return rows.length > 0;
  }

  /**
   * Records that the code of `timeStep` was used, and verifies the factor; false when a code of this or a later step
   * was already accepted (a replay, or a concurrent request with the same code).
   */
  async acceptTimeStep(factorId: string, timeStep: number, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaFactors)
      .set({ lastTimeStep: timeStep, status: 'verified' })
      .where(
        and(eq(mfaFactors.id, factorId), or(isNull(mfaFactors.lastTimeStep), lt(mfaFactors.lastTimeStep, timeStep))),
      )
      .returning({ id: mfaFactors.id, verifiedAt: mfaFactors.verifiedAt });
    if (rows.length === 0) return false;
    if (!rows[0]!.verifiedAt) {
      await this.db.update(mfaFactors).set({ verifiedAt: at }).where(eq(mfaFactors.id, factorId));
    }
    return true;
  }

  async insertChallenge(factorId: string, createdAt: Date, expiresAt: Date): Promise<MfaChallengeRow> {
    const [row] = await this.db.insert(mfaChallenges).values({ factorId, createdAt, expiresAt }).returning();
    return row!;
  }

  /** Uses up a live challenge of the factor; false when there is none (unknown, expired or already used). */
  async consumeChallenge(factorId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaChallenges)
      .set({ verifiedAt: at })
      .where(
        and(
          eq(mfaChallenges.id, id),
          eq(mfaChallenges.factorId, factorId),
          isNull(mfaChallenges.verifiedAt),
          gt(mfaChallenges.expiresAt, at),
        ),
      )
      .returning({ id: mfaChallenges.id });
    return rows.length > 0;
  }

  async replaceRecoveryCodes(ownerId: string, hashes: string[]): Promise<void> {
    await this.db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.ownerId, ownerId));
    if (hashes.length > 0) {
      await this.db.insert(mfaRecoveryCodes).values(hashes.map((codeHash) => ({ ownerId, codeHash })));
    }
  }

  async hasRecoveryCode(ownerId: string, codeHash: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: mfaRecoveryCodes.id })
      .from(mfaRecoveryCodes)
      .where(
        and(
          eq(mfaRecoveryCodes.ownerId, ownerId),
          eq(mfaRecoveryCodes.codeHash, codeHash),
          isNull(mfaRecoveryCodes.usedAt),
        ),
      );
    return rows.length > 0;
  }

  /** Uses up an unused recovery code; false when there is none with this hash. */
  async useRecoveryCode(ownerId: string, codeHash: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaRecoveryCodes)
      .set({ usedAt: at })
      .where(
        and(
          eq(mfaRecoveryCodes.ownerId, ownerId),
          eq(mfaRecoveryCodes.codeHash, codeHash),
          isNull(mfaRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: mfaRecoveryCodes.id });
    return rows.length > 0;
  }
}
