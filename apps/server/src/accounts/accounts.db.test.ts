import { CANNOT_REMOVE_PRIMARY_MESSAGE } from '@invoicebox/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { users } from '../db/schema';
import { ConflictError, NotFoundError } from '../errors';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

const t = useTestDatabase();

describe('connected accounts and scope', () => {
  let service: AccountsService;
  let newPerson: (name: string) => Promise<string>;

  beforeAll(() => {
    service = new AccountsService(new AccountsRepository(t().database.db));
    newPerson = async (name) => {
      const [row] = await t()
        .database.db.insert(users)
        .values({ email: `${name}-${crypto.randomUUID()}@example.com`, displayName: name })
        .returning();
      return row!.id;
    };
  });

  it('makes the first account primary and active, later ones neither', async () => {
    const me = await newPerson('first');
    const a = await service.connect(me, { provider: 'imap', email: 'a@example.com', displayName: 'A' });
    const b = await service.connect(me, { provider: 'google', email: 'b@example.com' });
    expect(a).toMatchObject({ isPrimary: true, isActive: true, displayName: 'A', lastSync: null, needsReauth: false });
    expect(b).toMatchObject({ isPrimary: false, isActive: false, displayName: 'b@example.com' });
    const listed = await service.list(me);
    expect(listed.accounts.map((x) => x.email)).toEqual(['a@example.com', 'b@example.com']);
    expect(listed.session).toMatchObject({ primaryUserId: a.userId, activeUserId: a.userId, selectedScope: 'current' });
  });

  it('connecting the same address twice gives the same account', async () => {
    const me = await newPerson('twice');
    const a = await service.connect(me, { provider: 'imap', email: 'Same@Example.com' });
    const again = await service.connect(me, { provider: 'imap', email: 'same@example.com' });
    expect(again.userId).toBe(a.userId);
    expect((await service.list(me)).accounts).toHaveLength(1);
  });

  it('refuses to remove the primary while others exist, with the spec message', async () => {
    const me = await newPerson('primary');
    const a = await service.connect(me, { provider: 'imap', email: 'a@example.com' });
    const b = await service.connect(me, { provider: 'imap', email: 'b@example.com' });
    await expect(service.remove(me, a.userId)).rejects.toThrow(new ConflictError(CANNOT_REMOVE_PRIMARY_MESSAGE));
    await service.setPrimary(me, b.userId);
    const after = await service.list(me);
    expect(after.session.primaryUserId).toBe(b.userId);
    expect(after.accounts.filter((x) => x.isPrimary)).toHaveLength(1);
    // a is no longer primary but still active: removing it promotes the first remaining account to active.
    await service.remove(me, a.userId);
    const final = await service.list(me);
    expect(final.accounts).toEqual([expect.objectContaining({ userId: b.userId, isPrimary: true, isActive: true })]);
  });

  it('removing the only account (the primary) leaves none; the next one connected becomes primary', async () => {
    const me = await newPerson('only');
    const a = await service.connect(me, { provider: 'mbox', email: 'only@example.com' });
    await service.remove(me, a.userId);
    expect((await service.list(me)).accounts).toEqual([]);
    const b = await service.connect(me, { provider: 'imap', email: 'next@example.com' });
    expect(b.isPrimary).toBe(true);
  });

  it('never acts on or resolves another person’s account', async () => {
    const me = await newPerson('me');
    const other = await newPerson('other');
    const mine = await service.connect(me, { provider: 'imap', email: 'me@example.com' });
    const theirs = await service.connect(other, { provider: 'imap', email: 'them@example.com' });
    await expect(service.setPrimary(me, theirs.userId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.activate(me, theirs.userId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.remove(me, theirs.userId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.remove(me, 'not-a-uuid')).rejects.toBeInstanceOf(NotFoundError);
    expect(await service.resolveAccountIds(me, [theirs.userId, mine.userId, 'junk'])).toEqual([mine.userId]);
    expect(await service.resolveAccountIds(me, [theirs.userId])).toEqual([]);
    const scoped = await service.updateScope(me, 'custom', [theirs.userId, mine.userId]);
    expect(scoped.session.selectedUserIds).toEqual([mine.userId]);
    expect((await service.list(other)).accounts.map((a) => a.userId)).toEqual([theirs.userId]);
  });

  it('resolves the saved scope: current → active, all → every account, custom → the selection', async () => {
    const me = await newPerson('scope');
    const a = await service.connect(me, { provider: 'imap', email: 'a@example.com' });
    const b = await service.connect(me, { provider: 'imap', email: 'b@example.com' });
    const c = await service.connect(me, { provider: 'imap', email: 'c@example.com' });
    expect(await service.resolveAccountIds(me)).toEqual([a.userId]);
    await service.activate(me, b.userId);
    expect(await service.resolveAccountIds(me)).toEqual([b.userId]);
    await service.updateScope(me, 'all', []);
    expect(await service.resolveAccountIds(me)).toEqual([a.userId, b.userId, c.userId]);
    await service.updateScope(me, 'custom', [c.userId, a.userId]);
    expect((await service.resolveAccountIds(me)).sort()).toEqual([a.userId, c.userId].sort());
    await service.updateScope(me, 'current', [c.userId]);
    expect((await service.list(me)).session).toMatchObject({ selectedScope: 'current', selectedUserIds: [] });
  });

  it('keeps exactly one primary under concurrent changes', async () => {
    const me = await newPerson('race');
    const accounts = [];
    for (const n of [1, 2, 3, 4]) accounts.push(await service.connect(me, { provider: 'imap', email: `${n}@x.com` }));
    await Promise.all(accounts.map((a) => service.setPrimary(me, a.userId)));
    const listed = await service.list(me);
    expect(listed.accounts.filter((a) => a.isPrimary)).toHaveLength(1);
  });

  it('flags an account that needs sign-in again, and clears it', async () => {
    const me = await newPerson('reauth');
    const a = await service.connect(me, { provider: 'google', email: 'g@example.com' });
    await service.markNeedsReauth(me, a.userId, 'Google refused the refresh token (revoked). Sign in again.');
    expect((await service.list(me)).accounts[0]).toMatchObject({ needsReauth: true, reauthReason: /revoked/ });
    await service.clearNeedsReauth(me, a.userId);
    expect((await service.list(me)).accounts[0]).toMatchObject({ needsReauth: false, reauthReason: null });
  });
});
