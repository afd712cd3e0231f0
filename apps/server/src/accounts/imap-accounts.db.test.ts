import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import { createSecretBox } from '../auth/secret-box';
import { users } from '../db/schema';
import { UnprocessableError } from '../errors';
import { ConnectionFailedError } from '../net/outbound';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { imapSettings } from './accounts.tables';
import { ImapAccountsService } from './imap-accounts.service';

const t = useTestDatabase();

describe('connecting an IMAP account', () => {
  let dovecot: TestDovecot;
  let service: ImapAccountsService;
  let accounts: AccountsService;
  let ownerId: string;

  beforeAll(async () => {
    dovecot = await startDovecot({ bob: 'app-password-1' });
    const { db } = t().database;
    accounts = new AccountsService(new AccountsRepository(db));
    service = new ImapAccountsService(db, createSecretBox(TEST_SECRET), accounts, { allowPrivate: true });
    const [row] = await db.insert(users).values({ email: 'bob@example.com', displayName: 'Bob' }).returning();
    ownerId = row!.id;
  });
  afterAll(async () => {
    await dovecot?.dispose();
  });

  const body = () => ({
    email: 'bob@example.com',
    host: dovecot.host,
    port: dovecot.imapPort,
    secure: false,
    username: 'bob',
    password: 'app-password-1',
    mailboxes: ['INBOX'],
  });

  it('tries the server, then saves the account with the password encrypted', async () => {
    const account = await service.connect(ownerId, body());
    expect(account).toMatchObject({ email: 'bob@example.com', provider: 'imap', isPrimary: true });
    const [row] = await t().database.db.select().from(imapSettings);
    expect(row).toMatchObject({ host: '127.0.0.1', username: 'bob', mailboxes: ['INBOX'], syncCursor: null });
    expect(row!.passwordEncrypted).not.toContain('app-password-1');
    const { source, cursor } = await service.source(ownerId, account.userId);
    expect(cursor).toBeNull();
    expect((await source.check()).mailboxes).toContain('INBOX');
    await service.saveCursor(ownerId, account.userId, { INBOX: { uidValidity: '7', lastUid: 3 } });
    expect((await service.source(ownerId, account.userId)).cursor).toEqual({ INBOX: { uidValidity: '7', lastUid: 3 } });
  });

  it('refuses a wrong password, a closed port or a missing folder with a message for the person (422), saving nothing', async () => {
    const wrong = await service
      .connect(ownerId, { ...body(), email: 'x@example.com', password: 'nope' })
      .catch((e) => e);
    expect(wrong).toBeInstanceOf(ConnectionFailedError);
    expect(wrong.status).toBe(422);
    await expect(
      service.connect(ownerId, { ...body(), email: 'y@example.com', mailboxes: ['INBOX', 'Nope'] }),
    ).rejects.toThrow(new UnprocessableError('The mail server has no folder named Nope'));
    // A closed port gets the same answer as the wrong password: nothing tells one from the other.
    const closed = await service.connect(ownerId, { ...body(), email: 'z@example.com', port: 1 }).catch((e) => e);
    expect(closed).toBeInstanceOf(ConnectionFailedError);
    expect(closed.message).toBe(wrong.message);
    expect(closed.cause.message).toMatch(/could not be reached/);
    expect((await accounts.list(ownerId)).accounts.map((a) => a.email)).toEqual(['bob@example.com']);
  });
});
