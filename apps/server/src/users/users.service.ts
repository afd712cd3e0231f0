import type { UserRow } from '../db/schema';
import type { UsersRepository } from './users.repository';

export const LOCAL_OWNER_EMAIL = 'owner@invoicebox.local';

/**
 * People. Until sign-in lands (issue 4) there is one person, the local owner, created on first start; every owned
 * row and every query already carries and filters by an owner id, so real accounts slot in without a data change.
 */
export class UsersService {
  private owner: UserRow | undefined;

  constructor(private readonly repository: UsersRepository) {}

  async ensureLocalOwner(): Promise<UserRow> {
    if (this.owner) return this.owner;
    let owner = await this.repository.findLocalOwner();
    if (!owner) {
      await this.repository.insertIfAbsent({
        email: LOCAL_OWNER_EMAIL,
        displayName: 'Local owner',
        isLocalOwner: true,
      });
      owner = await this.repository.findLocalOwner();
    }
    if (!owner) throw new Error('could not create the local owner');
    this.owner = owner;
    return owner;
  }
}
