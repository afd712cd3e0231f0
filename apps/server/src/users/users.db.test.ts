import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { users } from '../db/schema';
import { UsersRepository } from './users.repository';
import { LOCAL_OWNER_EMAIL, UsersService } from './users.service';

const t = useTestDatabase();

describe('people and the owner of the installation', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;
  beforeAll(async () => {
    h = await buildAuthTestApp(t().database.db);
  });
  afterAll(async () => {
    await h.app.close();
  });

  it('makes exactly one owner when several first sign-ups arrive at once', async () => {
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        h.app.inject({
          method: 'POST',
          url: '/api/v1/auth/local/signup',
          payload: { email: `${name}@example.com`, password: 'correct horse battery staple' },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const rows = await t().database.db.select().from(users);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.isLocalOwner).toBe(true);
  });

  it('finds people by email whatever the case, and never counts the placeholder as the owner', async () => {
    const service = new UsersService(new UsersRepository(t().database.db));
    const owner = (await t().database.db.select().from(users))[0]!;
    expect((await service.findByEmail(` ${owner.email.toUpperCase()} `))?.id).toBe(owner.id);
    expect(await service.ownerExists()).toBe(true);

    // A database that only has the placeholder of earlier versions has no owner yet.
    await t().database.db.update(users).set({ email: LOCAL_OWNER_EMAIL }).where(eq(users.id, owner.id));
    expect(await service.ownerExists()).toBe(false);
    const claimed = await service.create({ email: 'New@Example.com', displayName: 'New' });
    expect(claimed).toMatchObject({ id: owner.id, email: 'new@example.com', isLocalOwner: true });
    await expect(service.create({ email: 'new@example.com', displayName: 'Again' })).rejects.toThrow(
      'An account with this email already exists',
    );
  });
});
