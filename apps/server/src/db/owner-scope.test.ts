/**
 * Every per-person table carries `owner_id`, so that the database can one day be partitioned or distributed by
 * owner (docs/deployment.md, "At 10 million people") without a join to find whose a row is. Reads the drizzle
 * schema: a table is per-person when it references `users` or a per-person table; each such table must have an
 * `owner_id` column, unless listed below with its reason. A new table fails here until it has one or is listed.
 */
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './schema';

/** Tables that belong to nobody in particular: they stay whole (or are copied to every node) when rows are split. */
const GLOBAL: Record<string, string> = {
  users: 'the people themselves; their id is the owner id',
  signing_keys: 'the token-signing keys of the installation',
  secret_key_check: 'one row: the fingerprint of INVOICEBOX_SECRET',
  auth_failures: 'lock-out counters keyed by subject (an email address) and client address, before anyone is known',
  document_blobs: 'documents by SHA-256, shared by every owner who has the same bytes (the store, not the index)',
  document_blob_chunks: 'the chunks of document_blobs',
};

/**
 * Per-person tables without `owner_id` today, named in docs/deployment.md: each reaches its owner through its
 * parent (one join). Adding the column means a migration with a back-fill; remove a name here when it is done.
 */
const KNOWN_WITHOUT_OWNER_ID: Record<string, string> = {
  local_credentials: 'one row per person, keyed by user_id (the owner id under another name)',
  message_attachments: 'owner through message_row_id → mail_messages.owner_id',
  invoice_accounts: 'owner through invoice_id → invoices.owner_id',
  bank_match_overrides: 'owner through statement_id → bank_statements.owner_id',
  mfa_challenges: 'owner through factor_id → mfa_factors.owner_id',
};

const tables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => value instanceof PgTable)
  .map((table) => getTableConfig(table));
const byName = new Map(tables.map((t) => [t.name, t]));

/** The tables a table's foreign keys point at. */
function parents(name: string): string[] {
  const config = byName.get(name)!;
  return config.foreignKeys.map((fk) => getTableConfig(fk.reference().foreignTable).name);
}

/** Per person: references users, or a table that is per person, directly or through others. */
function isPerPerson(name: string, seen = new Set<string>()): boolean {
  if (seen.has(name)) return false;
  seen.add(name);
  const hasOwner = byName.get(name)!.columns.some((c) => c.name === 'owner_id');
  if (hasOwner && name !== 'users') return true;
  return parents(name).some((parent) => parent === 'users' || isPerPerson(parent, seen));
}

describe('owner_id on every per-person table', () => {
  it('reads the whole schema', () => {
    expect(tables.length).toBeGreaterThan(30);
    expect(byName.has('invoices')).toBe(true);
  });

  it('gives every table an owner_id, or a reason on one of the two lists', () => {
    const missing = tables
      .filter((t) => !t.columns.some((c) => c.name === 'owner_id'))
      .map((t) => t.name)
      .filter((name) => !(name in GLOBAL) && !(name in KNOWN_WITHOUT_OWNER_ID));
    expect(missing, 'tables without owner_id: add the column, or list the table with its reason').toEqual([]);
  });

  it('lists as global no table that belongs to a person', () => {
    const wrong = Object.keys(GLOBAL).filter((name) => name !== 'users' && isPerPerson(name));
    expect(wrong).toEqual([]);
  });

  it('lists as known gaps only per-person tables that still lack the column', () => {
    for (const name of Object.keys(KNOWN_WITHOUT_OWNER_ID)) {
      const config = byName.get(name);
      expect(config, `${name} is not in the schema any more`).toBeDefined();
      expect(
        config!.columns.some((c) => c.name === 'owner_id'),
        `${name} has owner_id now`,
      ).toBe(false);
      expect(isPerPerson(name), `${name} does not belong to a person`).toBe(true);
    }
  });

  const OWNER_OPTIONAL = new Set(['oauth_flows', 'client_error_reports']);
  it('types owner_id as a uuid that is set on every per-person row', () => {
    for (const t of tables) {
      const owner = t.columns.find((c) => c.name === 'owner_id');
      if (!owner) continue;
      expect(owner.getSQLType(), `${t.name}.owner_id`).toBe('uuid');
      // oauth_flows starts before anyone has signed in (a sign-in with Google); its owner is known only for a link.
      // client_error_reports also takes reports from the landing page, before anyone has signed in.
      if (!OWNER_OPTIONAL.has(t.name)) expect(owner.notNull, `${t.name}.owner_id may be null`).toBe(true);
    }
  });
});
