import type { Db } from '../db/client';
import type { UserRow } from '../db/schema';
import { ConflictError } from '../errors';
import type { UsersRepository } from './users.repository';

/**
 * The person who held every owned row before sign-in existed (created on start by earlier versions). The first
 * sign-up takes this row over, so data made before sign-in stays with the owner.
 */
export const LOCAL_OWNER_EMAIL = 'owner@invoicebox.local';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * People. `is_local_owner` marks the owner of the installation: the person whose sign-up came first. Further people
 * exist only when the configuration lets others sign up.
 */
export class UsersService {
  constructor(private readonly repository: UsersRepository) {}

  /** The same service on a caller's transaction. */
  on(executor: Db): UsersService {
    return new UsersService(this.repository.withExecutor(executor));
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.repository.findById(id);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.repository.findByEmail(normalizeEmail(email));
  }

  /** The owner of this installation (the first person to sign up), if there is one yet. */
  owner(): Promise<UserRow | undefined> {
    return this.repository.findOwner(LOCAL_OWNER_EMAIL);
  }

  async ownerExists(): Promise<boolean> {
    return (await this.repository.findOwner(LOCAL_OWNER_EMAIL)) !== undefined;
  }

  /**
   * Makes a person. The first one becomes the owner, taking over the pre-sign-in placeholder when there is one;
   * callers serialise calls (see AuthRepository.withSignupLock). Refuses an email that is taken with a 409.
   */
  async create(input: { email: string; displayName: string }): Promise<UserRow> {
    const row = await this.tryCreate(input);
    if (!row) throw new ConflictError('An account with this email already exists');
    return row;
  }

  /** As create, but undefined when the email is taken (for callers that must not say so). */
  async tryCreate(input: { email: string; displayName: string }): Promise<UserRow | undefined> {
    const email = normalizeEmail(input.email);
    if (await this.repository.findByEmail(email)) return undefined;
    const isOwner = !(await this.ownerExists());
    const placeholder = isOwner ? await this.repository.findByExactEmail(LOCAL_OWNER_EMAIL) : undefined;
    if (placeholder) {
      return this.repository.update(placeholder.id, { email, displayName: input.displayName, isLocalOwner: true });
    }
    return this.repository.insert({ email, displayName: input.displayName, isLocalOwner: isOwner });
  }
}
