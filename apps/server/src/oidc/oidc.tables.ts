import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sessions } from '../auth/auth.tables';
import { users } from '../users/users.tables';

/** Which person an identity at an OpenID Connect provider (issuer-local subject) signs in as. */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('oidc_identities_provider_subject_uq').on(t.provider, t.subject)],
);

/**
 * An authorization request in flight: found again by the hash of its `state`, used once, expires in minutes. The
 * PKCE verifier is stored encrypted; `binding_hash` ties the flow to the browser that started it (a cookie), so a
 * callback URL planted in another browser signs nobody in (login CSRF).
 */
export const oauthFlows = pgTable(
  'oauth_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stateHash: text('state_hash').notNull(),
    bindingHash: text('binding_hash').notNull(),
    provider: text('provider').notNull(),
    purpose: text('purpose', { enum: ['sign_in', 'add_account'] }).notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    codeVerifierEncrypted: text('code_verifier_encrypted').notNull(),
    nonce: text('nonce').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('oauth_flows_state_hash_uq').on(t.stateHash), index('oauth_flows_expires_idx').on(t.expiresAt)],
);

/** The short-lived one-time code the server's callback hands to the SPA, redeemed once for the session's tokens. */
export const authCodes = pgTable('auth_codes', {
  codeHash: text('code_hash').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sessionId: uuid('session_id')
    .notNull()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});
