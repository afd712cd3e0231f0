import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { ImapAccountsService } from '../accounts/imap-accounts.service';
import { createSecretBox } from '../auth/secret-box';
import { users } from '../db/schema';
import { SyncDiagnosticsService } from './sync-diagnostics.service';

const t = useTestDatabase();

describe('sync diagnostics', () => {
  let dovecot: TestDovecot;
  let ownerId: string;
  let service: SyncDiagnosticsService;

  beforeAll(async () => {
    dovecot = await startDovecot({ pat: 'pw' });
    const { db } = t().database;
    const accounts = new AccountsService(new AccountsRepository(db));
    const imap = new ImapAccountsService(db, createSecretBox(TEST_SECRET), accounts, { allowPrivate: true });
    const [owner] = await db.insert(users).values({ email: 'pat@example.com', displayName: 'Pat' }).returning();
    ownerId = owner!.id;
    await imap.connect(ownerId, {
      email: 'pat@example.com',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'pat',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    await accounts.connect(ownerId, { provider: 'mbox', email: 'takeout@example.com' });
    service = new SyncDiagnosticsService(db, accounts, { outbound: { allowPrivate: true }, timeoutMs: 1000 });
  });
  afterAll(async () => {
    await dovecot?.dispose();
  });

  it('reports whether each mail server answers, and nothing for imported mail', async () => {
    const up = await service.portCheck(ownerId);
    expect(up.accounts).toEqual([
      expect.objectContaining({ email: 'pat@example.com', host: '127.0.0.1', port: dovecot.imapPort, reachable: true }),
      expect.objectContaining({ email: 'takeout@example.com', provider: 'mbox', reachable: null }),
    ]);
    await dovecot.stop();
    const down = await service.portCheck(ownerId);
    // One text for every failure: a refused port looks like a silent one.
    expect(down.accounts[0]).toMatchObject({ reachable: false, latency_ms: null, error: 'Could not connect' });
    await dovecot.start();
    expect(net.isIP(down.accounts[0]!.host!)).toBe(4);
  });

  it('aggregates per account, zero before any sync', async () => {
    const result = await service.userAggregation(ownerId);
    expect(result.totals).toEqual({ accounts: 2, messages: 0, invoice_links: 0 });
    expect(result.accounts[0]).toMatchObject({ email: 'pat@example.com', is_primary: true, last_sync: null });
  });
});
