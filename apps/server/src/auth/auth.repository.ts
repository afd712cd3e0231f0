import { and, asc, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type UserRow, users } from '../db/schema';
import { authFailures, localCredentials, type SessionRow, sessions } from './auth.tables';

/** SQL on local credentials, failed attempts and sessions, and nothing else. */
export class AuthRepository {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one transaction holding the sign-up lock: two first sign-ups at once make one owner. */
  async withSignupLock<T>(fn: (repo: AuthRepository, tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('invoicebox:signup'))`);
      return fn(new AuthRepository(tx as unknown as Db), tx as unknown as Db);
    });
  }

  async findPasswordHash(userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ hash: localCredentials.passwordHash })
      .from(localCredentials)
      .where(eq(localCredentials.userId, userId));
    return row?.hash;
  }

  async hasCredentials(userId: string): Promise<boolean> {
    return (await this.findPasswordHash(userId)) !== undefined;
  }

  async saveCredentials(userId: string, passwordHash: string): Promise<void> {
    await this.db
      .insert(localCredentials)
      .values({ userId, passwordHash })
      .onConflictDoUpdate({ target: localCredentials.userId, set: { passwordHash, updatedAt: sql`now()` } });
  }

  /** Failures of `subject` since `since`, oldest first. */
  async failuresSince(subject: string, since: Date): Promise<Date[]> {
    const rows = await this.db
      .select({ at: authFailures.failedAt })
      .from(authFailures)
      .where(and(eq(authFailures.subject, subject), gt(authFailures.failedAt, since)))
      .orderBy(asc(authFailures.failedAt));
    return rows.map((r) => r.at);
  }

  async recordFailure(subject: string, at: Date, pruneBefore: Date): Promise<void> {
    await this.db.insert(authFailures).values({ subject, failedAt: at });
    await this.db.delete(authFailures).where(lt(authFailures.failedAt, pruneBefore));
  }

  async clearFailures(subject: string): Promise<void> {
    await this.db.delete(authFailures).where(eq(authFailures.subject, subject));
  }

  async insertSession(row: {
    ownerId: string;
    method: string;
    createdAt: Date;
    expiresAt: Date;
    userAgent: string | null;
  }): Promise<SessionRow> {
    const [inserted] = await this.db
      .insert(sessions)
      .values({ ...row, lastSeenAt: row.createdAt })
      .returning();
    return inserted!;
  }

  /** The session with its person. */
  async findSession(id: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.ownerId))
      .where(eq(sessions.id, id));
    return row;
  }

  async touchSession(id: string, at: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
  }

  /** Revokes a session of `ownerId`; true when it was active. */
  async revokeSession(ownerId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: at })
      .where(and(eq(sessions.id, id), eq(sessions.ownerId, ownerId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.length > 0;
  }

  async countActiveSessions(ownerId: string, at: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.ownerId, ownerId), isNull(sessions.revokedAt), gt(sessions.expiresAt, at)));
    return row?.n ?? 0;
  }
}
