import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type UserRow, users } from '../db/schema';

export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findLocalOwner(): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.isLocalOwner, true)).limit(1);
    return row;
  }

  async insertIfAbsent(row: { email: string; displayName: string; isLocalOwner: boolean }): Promise<void> {
    await this.db.insert(users).values(row).onConflictDoNothing({ target: users.email });
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }
}
