import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { providerTokens } from '../auth/auth.tables';
import { users } from '../db/schema';
import { JobsRepository } from '../jobs/jobs.repository';
import { TokenRefreshScheduler } from './token-refresh.scheduler';

const t = useTestDatabase();

describe('token refresh scheduling', () => {
  it('enqueues one refresh per person whose access expires soon, and none while one is pending', async () => {
    const { db } = t().database;
    const [soon, later, noRefresh] = await db
      .insert(users)
      .values([
        { email: 'soon@example.com', displayName: 'Soon' },
        { email: 'later@example.com', displayName: 'Later' },
        { email: 'norefresh@example.com', displayName: 'No refresh' },
      ])
      .returning();
    const token = (ownerId: string, minutes: number, refresh: boolean) => ({
      ownerId,
      provider: 'google',
      accountEmail: `${ownerId}@example.com`,
      accessTokenEncrypted: 'v1.x',
      refreshTokenEncrypted: refresh ? 'v1.y' : null,
      expiresAt: new Date(Date.now() + minutes * 60_000),
    });
    await db
      .insert(providerTokens)
      .values([token(soon!.id, 3, true), token(later!.id, 120, true), token(noRefresh!.id, 1, false)]);
    const enqueued: string[] = [];
    const scheduler = new TokenRefreshScheduler(db, async (owner) => {
      enqueued.push(owner);
      await new JobsRepository(db).insert({
        id: crypto.randomUUID(),
        ownerId: owner,
        type: 'token_refresh',
        payload: {},
      });
    });
    expect(await scheduler.tick()).toEqual([soon!.id]);
    expect(await scheduler.tick()).toEqual([]); // its job is still pending
    expect(enqueued).toEqual([soon!.id]);
  });
});
