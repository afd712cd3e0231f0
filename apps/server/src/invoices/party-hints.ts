import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { PartyHints } from '../extraction/extraction.types';

/**
 * The person's own names and addresses (their profile and their connected mailboxes, not the sample one): on the
 * invoices in their mail they are the buyer, so the field rules never take them for the issuer.
 */
export async function ownPartyHints(db: Db, ownerId: string): Promise<PartyHints> {
  const rows = (
    await db.execute(sql`
      select display_name as name, email from users where id = ${ownerId}
      union all
      select display_name as name, email from mail_accounts where owner_id = ${ownerId} and not is_sample`)
  ).rows as Array<{ name: string | null; email: string | null }>;
  const names = new Set<string>();
  const emails = new Set<string>();
  for (const row of rows) {
    // A mailbox named by its address says nothing more than the address.
    if (row.name?.trim() && !row.name.includes('@')) names.add(row.name.trim());
    if (row.email?.includes('@')) emails.add(row.email.trim().toLowerCase());
  }
  return { ownNames: [...names], ownEmails: [...emails] };
}
