import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { users } from '../db/schema';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

const t = useTestDatabase();

/** The Uploads source in the account rules: a source of the scope, never the primary. */
describe('the Uploads source', () => {
  const make = async (email: string) => {
    const { db } = t().database;
    const [owner] = await db.insert(users).values({ email, displayName: email }).returning();
    return { ownerId: owner!.id, accounts: new AccountsService(new AccountsRepository(db)) };
  };

  it('alone, it is the account looked at but not the primary; the first mailbox takes both', async () => {
    const { ownerId, accounts } = await make('a@example.com');
    const uploads = await accounts.uploads(ownerId, 'a@example.com');
    expect(uploads).toMatchObject({ provider: 'upload', displayName: 'Uploads', isPrimary: false, isActive: true });
    expect(await accounts.resolveAccountIds(ownerId)).toEqual([uploads.userId]);
    expect(await accounts.uploads(ownerId, 'a@example.com')).toMatchObject({ userId: uploads.userId });
    const mailbox = await accounts.connect(ownerId, { provider: 'imap', email: 'a@mail.example' });
    expect(mailbox).toMatchObject({ isPrimary: true, isActive: true });
    // current → the mailbox; all → both; custom → what is ticked.
    expect(await accounts.resolveAccountIds(ownerId)).toEqual([mailbox.userId]);
    await accounts.updateScope(ownerId, 'all', []);
    expect((await accounts.resolveAccountIds(ownerId)).sort()).toEqual([uploads.userId, mailbox.userId].sort());
    await accounts.updateScope(ownerId, 'custom', [uploads.userId]);
    expect(await accounts.resolveAccountIds(ownerId)).toEqual([uploads.userId]);
  });

  it('is never made primary, neither by request nor when the primary mailbox is removed', async () => {
    const { ownerId, accounts } = await make('b@example.com');
    const mailbox = await accounts.connect(ownerId, { provider: 'imap', email: 'b@mail.example' });
    const uploads = await accounts.uploads(ownerId, 'b@example.com');
    expect(uploads).toMatchObject({ isPrimary: false, isActive: false });
    await expect(accounts.setPrimary(ownerId, uploads.userId)).rejects.toThrow('Uploads cannot be the primary');
    await accounts.remove(ownerId, mailbox.userId);
    const list = await accounts.list(ownerId);
    expect(list.session.primaryUserId).toBeNull();
    expect(list.session.activeUserId).toBe(uploads.userId);
  });
});
