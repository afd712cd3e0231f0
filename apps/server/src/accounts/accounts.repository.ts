import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accountScopeSelections, accountScopes, type MailAccountRow, mailAccounts } from './accounts.tables';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

/** SQL on the account tables. Every statement is scoped by owner. */
export class AccountsRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (tx: AccountsRepository) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      // One person's account changes are serialised, so the primary/active rules hold under concurrency.
      return fn(new AccountsRepository(tx as unknown as Db));
    });
  }

  async lockOwner(ownerId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`accounts:${ownerId}`}))`);
  }

  async list(ownerId: string): Promise<MailAccountRow[]> {
    return this.db
      .select()
      .from(mailAccounts)
      .where(eq(mailAccounts.ownerId, ownerId))
      .orderBy(asc(mailAccounts.createdAt), asc(mailAccounts.id));
  }

  async find(ownerId: string, id: string): Promise<MailAccountRow | undefined> {
    const [row] = await this.db
      .select()
      .from(mailAccounts)
      .where(and(eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.id, id)));
    return row;
  }

  async findByEmail(ownerId: string, provider: MailAccountRow['provider'], email: string) {
    const [row] = await this.db
      .select()
      .from(mailAccounts)
      .where(
        and(
          eq(mailAccounts.ownerId, ownerId),
          eq(mailAccounts.provider, provider),
          sql`lower(${mailAccounts.email}) = lower(${email})`,
        ),
      );
    return row;
  }

  async insert(row: {
    ownerId: string;
    provider: MailAccountRow['provider'];
    email: string;
    displayName: string;
    isPrimary: boolean;
    isActive: boolean;
  }): Promise<MailAccountRow> {
    const [inserted] = await this.db.insert(mailAccounts).values(row).returning();
    return inserted!;
  }

  async delete(ownerId: string, id: string): Promise<void> {
    await this.db.delete(mailAccounts).where(and(eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.id, id)));
  }

  /** Makes `id` the only account of the owner with `flag` set (both updates in the caller's transaction). */
  async setExclusiveFlag(ownerId: string, id: string, flag: 'isPrimary' | 'isActive'): Promise<void> {
    const column = mailAccounts[flag];
    await this.db
      .update(mailAccounts)
      .set({ [flag]: false })
      .where(and(eq(mailAccounts.ownerId, ownerId), eq(column, true)));
    await this.db
      .update(mailAccounts)
      .set({ [flag]: true })
      .where(and(eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.id, id)));
  }

  async markSynced(ownerId: string, id: string, at: Date): Promise<void> {
    await this.db
      .update(mailAccounts)
      .set({ lastSyncAt: at })
      .where(and(eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.id, id)));
  }

  async setReauth(ownerId: string, id: string, reason: string | null): Promise<void> {
    await this.db
      .update(mailAccounts)
      .set({ needsReauth: reason !== null, reauthReason: reason })
      .where(and(eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.id, id)));
  }

  async getScope(ownerId: string): Promise<{ scope: 'current' | 'all' | 'custom'; selected: string[] }> {
    const [row] = await this.db.select().from(accountScopes).where(eq(accountScopes.ownerId, ownerId));
    const selected = await this.db
      .select({ id: accountScopeSelections.accountId })
      .from(accountScopeSelections)
      .where(eq(accountScopeSelections.ownerId, ownerId));
    return { scope: row?.scope ?? 'current', selected: selected.map((s) => s.id) };
  }

  async saveScope(ownerId: string, scope: 'current' | 'all' | 'custom', selected: string[]): Promise<void> {
    await this.db
      .insert(accountScopes)
      .values({ ownerId, scope })
      .onConflictDoUpdate({ target: accountScopes.ownerId, set: { scope, updatedAt: sql`now()` } });
    await this.db.delete(accountScopeSelections).where(eq(accountScopeSelections.ownerId, ownerId));
    if (selected.length > 0) {
      await this.db.insert(accountScopeSelections).values(selected.map((accountId) => ({ ownerId, accountId })));
    }
  }

  /** Of `ids`, those that are the owner's accounts. */
  async ownedIds(ownerId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: mailAccounts.id })
      .from(mailAccounts)
      .where(and(eq(mailAccounts.ownerId, ownerId), inArray(mailAccounts.id, ids)));
    return rows.map((r) => r.id);
  }
}

export type { Executor };
