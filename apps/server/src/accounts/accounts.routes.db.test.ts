import { CANNOT_REMOVE_PRIMARY_MESSAGE } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { AccountsRepository } from './accounts.repository';
import { accountsRoutes } from './accounts.routes';
import { AccountsService } from './accounts.service';

const t = useTestDatabase();

describe('account routes', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let service: AccountsService;
  let token = '';
  let userId = '';

  beforeAll(async () => {
    service = new AccountsService(new AccountsRepository(t().database.db));
    harness = await buildAuthTestApp(t().database.db, { routes: [accountsRoutes(service)] });
    const res = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'owner@example.com', password: 'a long enough password' },
    });
    ({ token } = res.json());
    userId = res.json().user.id;
  });
  afterAll(async () => {
    await harness.app.close();
  });

  it('lists, sets primary, refuses to remove the primary with the spec message, and saves the scope', async () => {
    const first = await service.connect(userId, { provider: 'imap', email: 'one@example.com' });
    const second = await service.connect(userId, { provider: 'imap', email: 'two@example.com' });
    const list = await harness.app.inject({ url: '/api/v1/gmail/accounts', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    expect(list.json().accounts.map((a: { email: string }) => a.email)).toEqual(['one@example.com', 'two@example.com']);

    const refused = await harness.app.inject({
      method: 'DELETE',
      url: `/api/v1/gmail/accounts/${first.userId}`,
      headers: bearer(token),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: CANNOT_REMOVE_PRIMARY_MESSAGE, code: 'conflict' });

    const primary = await harness.app.inject({
      method: 'POST',
      url: `/api/v1/gmail/accounts/${second.userId}/primary`,
      headers: bearer(token),
    });
    expect(primary.json()).toMatchObject({ userId: second.userId, isPrimary: true });

    const scope = await harness.app.inject({
      method: 'PUT',
      url: '/api/v1/gmail/accounts/scope',
      headers: bearer(token),
      payload: { selectedScope: 'custom', selectedUserIds: [second.userId] },
    });
    expect(scope.json().session).toMatchObject({ selectedScope: 'custom', selectedUserIds: [second.userId] });

    const removed = await harness.app.inject({
      method: 'DELETE',
      url: `/api/v1/gmail/accounts/${first.userId}`,
      headers: bearer(token),
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().removed.email).toBe('one@example.com');
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    const unknown = await harness.app.inject({
      method: 'POST',
      url: `/api/v1/gmail/accounts/${crypto.randomUUID()}/primary`,
      headers: bearer(token),
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await harness.app.inject({
      method: 'DELETE',
      url: '/api/v1/gmail/accounts/not-an-id',
      headers: bearer(token),
    });
    expect(malformed.statusCode).toBe(400);
  });
});
