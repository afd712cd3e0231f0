import { and, count, desc, eq, gt, isNotNull, isNull, max, sql } from 'drizzle-orm';
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

  /**
   * Runs `fn` in one transaction holding a lock on `subject`: attempts of one subject are counted and reserved one
   * after the other (other subjects are not held up).
   */
  async withAttemptLock<T>(subject: string, fn: (repo: AuthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`invoicebox:auth:${subject}`}, 0))`);
      return fn(new AuthRepository(tx as unknown as Db));
    });
  }

  /** The `n`-th latest failure of `subject` (from `address`, or from anywhere) after `since`, if there are n. */
  async nthLatestFailure(
    subject: string,
    from: { address: string | null } | 'any',
    since: Date,
    n: number,
  ): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ at: authFailures.failedAt })
      .from(authFailures)
      .where(
        and(
          eq(authFailures.subject, subject),
          gt(authFailures.failedAt, since),
          from === 'any' ? undefined : sql`${authFailures.clientAddress} is not distinct from ${from.address}`,
        ),
      )
      .orderBy(desc(authFailures.failedAt))
      .offset(n - 1)
      .limit(1);
    return row?.at;
  }

  /** How many failures `subject` has after `since`, and the latest. */
  async failureSummary(subject: string, since: Date): Promise<{ count: number; latest: Date | undefined }> {
    const [row] = await this.db
      .select({ count: count(), latest: max(authFailures.failedAt) })
      .from(authFailures)
      .where(and(eq(authFailures.subject, subject), gt(authFailures.failedAt, since)));
    return { count: row?.count ?? 0, latest: row?.latest ?? undefined };
  }

  /** Records a failure (or a reservation that counts as one); its id. */
  async insertFailure(subject: string, address: string | null, at: Date): Promise<string> {
    const [row] = await this.db
      .insert(authFailures)
      .values({ subject, clientAddress: address, failedAt: at })
      .returning({ id: authFailures.id });
    return row!.id;
  }

  async deleteFailure(id: string): Promise<void> {
    await this.db.delete(authFailures).where(eq(authFailures.id, id));
  }

  /** Forgets failures older than the longest window; rows another transaction holds are left for next time. */
  async pruneFailures(before: Date): Promise<void> {
    await this.db.execute(sql`
      delete from ${authFailures} where ${authFailures.id} in (
        select ${authFailures.id} from ${authFailures} where ${authFailures.failedAt} < ${before}
        limit 1000 for update skip locked)`);
  }

  async clearFailures(subject: string, from: { address: string | null } | 'any'): Promise<void> {
    await this.db
      .delete(authFailures)
      .where(
        and(
          eq(authFailures.subject, subject),
          from === 'any' ? undefined : sql`${authFailures.clientAddress} is not distinct from ${from.address}`,
        ),
      );
  }

  /** The client addresses `userId` opened sessions from after `since` (the latest hundred). */
  async sessionAddressesSince(userId: string, since: Date): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ address: sessions.clientAddress })
      .from(sessions)
      .where(and(eq(sessions.ownerId, userId), gt(sessions.createdAt, since), isNotNull(sessions.clientAddress)))
      .limit(100);
    return rows.map((r) => r.address!);
  }

  async insertSession(row: {
    ownerId: string;
    method: string;
    createdAt: Date;
    expiresAt: Date;
    userAgent: string | null;
    clientAddress: string | null;
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
