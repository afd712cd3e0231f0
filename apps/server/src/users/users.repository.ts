import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type UserRow, users } from '../db/schema';

/** SQL on the users table and nothing else. Emails are stored trimmed and lower-case. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  /** The same repository on a transaction (or any other executor) of the caller. */
  withExecutor(db: Db): UsersRepository {
    return new UsersRepository(db);
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    return row;
  }

  /** The owner of the installation, if someone has taken that place (the pre-sign-in placeholder does not count). */
  async findOwner(placeholderEmail: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.isLocalOwner, true), ne(users.email, placeholderEmail)))
      .limit(1);
    return row;
  }

  async findByExactEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email));
    return row;
  }

  /** Inserts a person; undefined when the email is taken. */
  async insert(row: { email: string; displayName: string; isLocalOwner: boolean }): Promise<UserRow | undefined> {
    const [inserted] = await this.db.insert(users).values(row).onConflictDoNothing({ target: users.email }).returning();
    return inserted;
  }

  async update(id: string, set: { email?: string; displayName?: string; isLocalOwner?: boolean }): Promise<UserRow> {
    const [row] = await this.db.update(users).set(set).where(eq(users.id, id)).returning();
    return row!;
  }
}
