import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

/**
 * Sign-in state. Secrets at rest (private signing keys, TOTP secrets, provider tokens) are secret-box ciphertexts;
 * passwords and recovery codes are one-way hashes. `users.is_local_owner` marks the owner of the installation: the
 * person whose sign-up came first.
 */

/**
 * Ed25519 keys that sign every token. The newest key whose `activates_at` has come signs; every unretired key
 * verifies and is published (a successor some minutes before it signs, so that JWKS caches know it in time).
 */
export const signingKeys = pgTable('signing_keys', {
  /** The `kid` of the tokens it signs. */
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull().default('EdDSA'),
  publicJwk: jsonb('public_jwk').notNull(),
  privateJwkEncrypted: text('private_jwk_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** From this instant the key signs (until a successor activates). */
  activatesAt: timestamp('activates_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the successor takes over signing. */
  supersededAt: timestamp('superseded_at', { withTimezone: true }),
  /** After this instant no token signed by the key can still be valid: it leaves the JWKS. */
  retiresAt: timestamp('retires_at', { withTimezone: true }),
});

/** The password of a local account (scrypt, per-user salt, parameters inside the hash string). */
export const localCredentials = pgTable('local_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-in and second-factor attempts that count towards lock-outs (see lockout.ts), per subject (`signin:<email>`,
 * `mfa:<person>`) and client address. A row is written before the password or code is checked (a reservation) and
 * counts as a failure unless the attempt succeeds or ends without a verdict.
 */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    /** The client address of the attempt (Fastify's request.ip); null when not known. */
    clientAddress: text('client_address'),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('auth_failures_subject_failed_idx').on(t.subject, t.failedAt),
    index('auth_failures_failed_idx').on(t.failedAt),
  ],
);

/** A server session: what a session token names, and what logout revokes. Backend tokens carry its id (`sid`). */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How the person proved who they are: `password`, `password+totp`, `password+recovery`, later `oidc`. */
    method: text('method').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    userAgent: text('user_agent'),
    /** Where the session was opened from: an address the person signed in from is spared the per-account slow-down. */
    clientAddress: text('client_address'),
  },
  (t) => [index('sessions_owner_idx').on(t.ownerId)],
);

/** OAuth tokens of a person's provider account (Google, an OpenID Connect provider), both encrypted at rest. */
export const providerTokens = pgTable(
  'provider_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** Stored lower-case. */
    accountEmail: text('account_email').notNull(),
    accessTokenEncrypted: text('access_token_encrypted').notNull(),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    scopes: text('scopes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_tokens_owner_provider_email_uq').on(t.ownerId, t.provider, t.accountEmail)],
);

/** A second factor. Only TOTP for now; a factor counts once its enrolment was verified with a code. */
export const mfaFactors = pgTable(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['totp'] }).notNull(),
    friendlyName: text('friendly_name'),
    secretEncrypted: text('secret_encrypted').notNull(),
    status: text('status', { enum: ['unverified', 'verified'] })
      .notNull()
      .default('unverified'),
    /** The last accepted TOTP time step: a code is never accepted twice. */
    lastTimeStep: integer('last_time_step'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [index('mfa_factors_owner_idx').on(t.ownerId)],
);

/** A short-lived challenge of a factor: a code is verified against one challenge, once. */
export const mfaChallenges = pgTable('mfa_challenges', {
  id: uuid('id').primaryKey().defaultRandom(),
  factorId: uuid('factor_id')
    .notNull()
    .references(() => mfaFactors.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
});

/** Single-use recovery codes (SHA-256 of a high-entropy random code), made when a first factor is verified. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_owner_hash_uq').on(t.ownerId, t.codeHash)],
);

export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type ProviderTokenRow = typeof providerTokens.$inferSelect;
export type MfaFactorRow = typeof mfaFactors.$inferSelect;
export type MfaChallengeRow = typeof mfaChallenges.$inferSelect;

/**
 * What key this installation's secrets are encrypted with, as a fingerprint (never the key): one row, written by
 * the first process. A process whose INVOICEBOX_SECRET or `secrets/master.key` gives another fingerprint stops at
 * start-up, before it encrypts anything the others cannot read (several machines, each with a key of its own).
 */
export const secretKeyCheck = pgTable('secret_key_check', {
  id: integer('id').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
