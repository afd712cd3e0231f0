import {
  type AccountListResponse,
  type AccountScope,
  CANNOT_REMOVE_PRIMARY_MESSAGE,
  type ConnectedAccount,
  type MailProvider,
  UPLOADS_SOURCE_NAME,
} from '@invoicebox/core';
import { ConflictError, NotFoundError } from '../errors';
import type { AccountsRepository } from './accounts.repository';
import type { MailAccountRow } from './accounts.tables';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Connected mail accounts and the account scope (spec §3, §4 "Account rules", §5, §6).
 * - The first account added becomes primary (and active).
 * - The primary cannot be removed while other accounts exist.
 * - Removing the last account, or an active one, promotes the first remaining account where a role is left empty.
 * - `user_ids` from a request are intersected with the caller's own accounts, never trusted.
 * - The Uploads source (provider `upload`) is a source like a mailbox for the scope, but never the primary (the
 *   primary is a mailbox: drive and default operations use it); it is active only while it is the only source.
 */
export class AccountsService {
  constructor(private readonly repository: AccountsRepository) {}

  async list(ownerId: string): Promise<AccountListResponse> {
    const rows = await this.repository.list(ownerId);
    const { scope, selected } = await this.repository.getScope(ownerId);
    const accounts = rows.map(toConnectedAccount);
    return {
      accounts,
      session: {
        connectedAccounts: accounts,
        selectedScope: scope,
        selectedUserIds: selected,
        primaryUserId: rows.find((r) => r.isPrimary)?.id ?? null,
        activeUserId: rows.find((r) => r.isActive)?.id ?? null,
      },
    };
  }

  /** Connects an account, or returns the existing one with the same provider and address (idempotent). */
  async connect(
    ownerId: string,
    input: { provider: MailProvider; email: string; displayName?: string | null },
  ): Promise<ConnectedAccount> {
    return this.repository.transaction(async (repo) => {
      await repo.lockOwner(ownerId);
      const existing = await repo.findByEmail(ownerId, input.provider, input.email);
      if (existing) return toConnectedAccount(existing);
      const all = await repo.list(ownerId);
      const mailboxes = all.filter((a) => a.provider !== 'upload');
      const isUploads = input.provider === 'upload';
      // The first mailbox becomes primary and active (taking "active" from a lone Uploads source); an Uploads
      // source added first is only active, so that the current scope shows what the person has.
      const isFirst = isUploads ? all.length === 0 : mailboxes.length === 0;
      const row = await repo.insert({
        ownerId,
        provider: input.provider,
        email: input.email.trim(),
        displayName: input.displayName?.trim() || input.email.trim(),
        isPrimary: isFirst && !isUploads,
        isActive: false,
      });
      if (isFirst) await repo.setExclusiveFlag(ownerId, row.id, 'isActive');
      return toConnectedAccount((await repo.find(ownerId, row.id))!);
    });
  }

  async setPrimary(ownerId: string, accountId: string): Promise<ConnectedAccount> {
    return this.repository.transaction(async (repo) => {
      await repo.lockOwner(ownerId);
      const account = await this.requireOwned(repo, ownerId, accountId);
      if (account.provider === 'upload') throw new ConflictError('Uploads cannot be the primary account');
      await repo.setExclusiveFlag(ownerId, accountId, 'isPrimary');
      return toConnectedAccount((await repo.find(ownerId, accountId))!);
    });
  }

  async activate(ownerId: string, accountId: string): Promise<ConnectedAccount> {
    return this.repository.transaction(async (repo) => {
      await repo.lockOwner(ownerId);
      await this.requireOwned(repo, ownerId, accountId);
      await repo.setExclusiveFlag(ownerId, accountId, 'isActive');
      return toConnectedAccount((await repo.find(ownerId, accountId))!);
    });
  }

  async remove(ownerId: string, accountId: string): Promise<{ removed: ConnectedAccount }> {
    return this.repository.transaction(async (repo) => {
      await repo.lockOwner(ownerId);
      const account = await this.requireOwned(repo, ownerId, accountId);
      const all = await repo.list(ownerId);
      // Another mailbox must take over first; the Uploads source cannot, so it does not hold the primary in place.
      const others = all.filter((a) => a.id !== accountId && a.provider !== 'upload');
      if (account.isPrimary && others.length > 0) throw new ConflictError(CANNOT_REMOVE_PRIMARY_MESSAGE);
      await repo.delete(ownerId, accountId);
      const remaining = all.filter((a) => a.id !== accountId);
      const first = remaining[0];
      const firstMailbox = remaining.find((a) => a.provider !== 'upload');
      if (firstMailbox && !remaining.some((a) => a.isPrimary)) {
        await repo.setExclusiveFlag(ownerId, firstMailbox.id, 'isPrimary');
      }
      if (first && !remaining.some((a) => a.isActive)) await repo.setExclusiveFlag(ownerId, first.id, 'isActive');
      return { removed: toConnectedAccount(account) };
    });
  }

  async updateScope(ownerId: string, scope: AccountScope, requestedIds: string[]): Promise<AccountListResponse> {
    await this.repository.transaction(async (repo) => {
      await repo.lockOwner(ownerId);
      const owned = await repo.ownedIds(
        ownerId,
        requestedIds.filter((id) => UUID.test(id)),
      );
      await repo.saveScope(ownerId, scope, scope === 'custom' ? owned : []);
    });
    return this.list(ownerId);
  }

  /**
   * The account ids an operation covers. With `requested` (a request's `user_ids`): those of them that are the
   * caller's. Without: the saved scope (current → the active account, all → every account, custom → the selection).
   * Never an id of another person, whatever the request says.
   */
  async resolveAccountIds(ownerId: string, requested?: string[]): Promise<string[]> {
    return (await this.resolveAccountScope(ownerId, requested)).ids;
  }

  /** As resolveAccountIds, also saying whether the ids are every account of the person (then lists need no filter). */
  async resolveAccountScope(ownerId: string, requested?: string[]): Promise<{ ids: string[]; everyAccount: boolean }> {
    const rows = await this.repository.list(ownerId);
    let ids: string[];
    if (requested && requested.length > 0) {
      const wanted = new Set(requested.filter((id) => UUID.test(id)));
      ids = rows.filter((r) => wanted.has(r.id)).map((r) => r.id);
    } else {
      const { scope, selected } = await this.repository.getScope(ownerId);
      if (scope === 'all') ids = rows.map((r) => r.id);
      else if (scope === 'custom') ids = rows.filter((r) => selected.includes(r.id)).map((r) => r.id);
      else {
        const active = rows.find((r) => r.isActive) ?? rows.find((r) => r.isPrimary) ?? rows[0];
        ids = active ? [active.id] : [];
      }
    }
    return { ids, everyAccount: ids.length > 0 && ids.length === rows.length };
  }

  /** The account drive uploads and default operations use (spec §6): the primary. */
  async primary(ownerId: string): Promise<ConnectedAccount | undefined> {
    const row = (await this.repository.list(ownerId)).find((r) => r.isPrimary);
    return row && toConnectedAccount(row);
  }

  /**
   * The person's Uploads source (made on first use): where documents they add themselves are recorded, so that the
   * account scope decides whether they are shown, like any mailbox.
   */
  async uploads(ownerId: string, ownerEmail: string): Promise<ConnectedAccount> {
    return this.connect(ownerId, { provider: 'upload', email: ownerEmail, displayName: UPLOADS_SOURCE_NAME });
  }

  async markNeedsReauth(ownerId: string, accountId: string, reason: string): Promise<void> {
    await this.repository.setReauth(ownerId, accountId, reason);
  }

  async clearNeedsReauth(ownerId: string, accountId: string): Promise<void> {
    await this.repository.setReauth(ownerId, accountId, null);
  }

  async markSynced(ownerId: string, accountId: string, at = new Date()): Promise<void> {
    await this.repository.markSynced(ownerId, accountId, at);
  }

  private async requireOwned(repo: AccountsRepository, ownerId: string, accountId: string): Promise<MailAccountRow> {
    const account = UUID.test(accountId) ? await repo.find(ownerId, accountId) : undefined;
    if (!account) throw new NotFoundError('Account not found');
    return account;
  }
}

export function toConnectedAccount(row: MailAccountRow): ConnectedAccount {
  return {
    userId: row.id,
    email: row.email,
    displayName: row.displayName,
    isActive: row.isActive,
    isPrimary: row.isPrimary,
    lastSync: row.lastSyncAt?.toISOString() ?? null,
    provider: row.provider,
    needsReauth: row.needsReauth,
    reauthReason: row.reauthReason,
  };
}
