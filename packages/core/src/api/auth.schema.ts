import { z } from 'zod';
import { IsoInstant } from './common.schema';

/**
 * Sign-in and the backend token (spec §3 "Backend auth exchange payload", §4 "Backend token", §7). A sign-in yields
 * a session token (long-lived, kept by the identity client) and a backend token (short-lived, stored by the web app
 * under the localStorage key `backend_jwt` and sent as `Authorization: Bearer …`). When the backend token is about
 * to expire, the web exchanges the session token for a new one at POST /auth/exchange.
 */

export const BACKEND_TOKEN_STORAGE_KEY = 'backend_jwt';

/** Limits that keep hashing cheap to refuse: scrypt of a megabyte-long password is a denial of service. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const AuthUserSchema = z.object({ id: z.string(), email: z.string(), display_name: z.string() });
export type AuthUser = z.infer<typeof AuthUserSchema>;

const EmailSchema = z.string().trim().toLowerCase().pipe(z.email().max(320));

/** POST /auth/local/signup */
export const SignUpBodySchema = z.object({
  email: EmailSchema,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH),
  display_name: z.string().trim().min(1).max(200).optional(),
});
export type SignUpBody = z.infer<typeof SignUpBodySchema>;

/**
 * The answer of POST /auth/local/signup (202) once an owner exists and sign-up is open to more people: the same for
 * a free address (the account was made) and a taken one (nothing changed), so that sign-up does not tell which
 * addresses have accounts. The person then signs in with the email and password.
 */
export const SignUpAcceptedResponseSchema = z.object({
  sign_in_required: z.literal(true),
  message: z.string(),
});
export type SignUpAcceptedResponse = z.infer<typeof SignUpAcceptedResponseSchema>;

/** POST /auth/local/signin */
export const SignInBodySchema = z.object({
  email: z.string().trim().max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  /**
   * A recovery code given with the password: both are checked, and the per-account slow-down of repeated failures
   * does not apply (see the README, "Sign-in limits").
   */
  recovery_code: z.string().trim().min(1).max(64).optional(),
});
export type SignInBody = z.infer<typeof SignInBodySchema>;

/** A signed-in session: the answer of sign-up, sign-in (without a second factor) and factor verification. */
export const SessionResponseSchema = z.object({
  /** The identity session token, exchanged at POST /auth/exchange for backend tokens. */
  session_token: z.string(),
  session_expires_at: IsoInstant,
  /** The backend token (`backend_jwt`). */
  token: z.string(),
  expires_at: IsoInstant,
  user: AuthUserSchema,
  /** Only when a first factor was just verified: single-use recovery codes, shown this once. */
  recovery_codes: z.array(z.string()).optional(),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/** Sign-up makes the owner (201, signed in) or, later, answers neutrally (202). */
export const SignUpResponseSchema = z.union([SessionResponseSchema, SignUpAcceptedResponseSchema]);

export const FactorTypeSchema = z.enum(['totp']);
export const FactorSchema = z.object({
  id: z.string(),
  type: FactorTypeSchema,
  friendly_name: z.string().nullable(),
  status: z.enum(['unverified', 'verified']),
  created_at: IsoInstant,
});
export type Factor = z.infer<typeof FactorSchema>;

/** The answer of a correct password when the person has a verified second factor. */
export const MfaRequiredResponseSchema = z.object({
  mfa_required: z.literal(true),
  factors: z.array(FactorSchema),
  /** Bearer token for the challenge, verify and recovery calls; valid for a few minutes. */
  mfa_token: z.string(),
  expires_at: IsoInstant,
});
export type MfaRequiredResponse = z.infer<typeof MfaRequiredResponseSchema>;

export const SignInResponseSchema = z.union([MfaRequiredResponseSchema, SessionResponseSchema]);
export type SignInResponse = z.infer<typeof SignInResponseSchema>;

/** POST /auth/exchange: no auth header; provider tokens, when given, are stored encrypted for the person. */
export const ExchangeBodySchema = z.object({
  session_token: z.string().min(1).max(4096),
  access_token: z.string().min(1).max(8192).optional(),
  refresh_token: z.string().min(1).max(8192).optional(),
  expires_in: z.coerce.number().int().min(0).max(31_536_000).optional(),
  /** The provider and account the provider tokens belong to; default `google` and the person's own email. */
  provider: z.string().trim().min(1).max(64).optional(),
  account_email: EmailSchema.optional(),
  scope: z.string().max(4096).optional(),
});
export type ExchangeBody = z.infer<typeof ExchangeBodySchema>;

export const ExchangeResponseSchema = z.object({ token: z.string(), expires_at: IsoInstant });
export type ExchangeResponse = z.infer<typeof ExchangeResponseSchema>;

/** GET /auth/validate */
export const ValidateResponseSchema = z.object({
  valid: z.literal(true),
  user: AuthUserSchema,
  /** Expiry of the presented backend token. */
  expires_at: IsoInstant,
});
export type ValidateResponse = z.infer<typeof ValidateResponseSchema>;

/** POST /auth/tokens: stored encrypted, never echoed. */
export const StoreTokensBodySchema = z.object({
  access_token: z.string().min(1).max(8192),
  refresh_token: z.string().min(1).max(8192).optional(),
  expires_in: z.coerce.number().int().min(0).max(31_536_000).optional(),
  provider: z.string().trim().min(1).max(64).optional(),
  account_email: EmailSchema.optional(),
  scope: z.string().max(4096).optional(),
});
export type StoreTokensBody = z.infer<typeof StoreTokensBodySchema>;

export const StoreTokensResponseSchema = z.object({
  stored: z.literal(true),
  provider: z.string(),
  account_email: z.string(),
  expires_at: IsoInstant.nullable(),
});
export type StoreTokensResponse = z.infer<typeof StoreTokensResponseSchema>;

/** POST /auth/logout */
export const LogoutResponseSchema = z.object({ success: z.literal(true) });

/** GET /auth/methods: public. */
export const AuthMethodsResponseSchema = z.object({
  local: z.object({
    enabled: z.boolean(),
    /** False until the first sign-up: the web then offers "create the owner account". */
    owner_exists: z.boolean(),
    /** Whether POST /auth/local/signup would be accepted now. */
    signup_open: z.boolean(),
  }),
  oidc: z.array(z.object({ id: z.string(), name: z.string() })),
  mfa: z.object({ factor_types: z.array(FactorTypeSchema) }),
});
export type AuthMethodsResponse = z.infer<typeof AuthMethodsResponseSchema>;

/** POST /auth/factors (backend token): starts a TOTP enrolment. */
export const EnrolFactorBodySchema = z.object({
  type: FactorTypeSchema.default('totp'),
  friendly_name: z.string().trim().min(1).max(100).optional(),
});
export const EnrolFactorResponseSchema = z.object({
  id: z.string(),
  type: FactorTypeSchema,
  /** Base32 secret for manual entry, and the otpauth:// URI for a QR code. Shown once. */
  totp: z.object({ secret: z.string(), uri: z.string() }),
});
export type EnrolFactorResponse = z.infer<typeof EnrolFactorResponseSchema>;

export const FactorListResponseSchema = z.object({ factors: z.array(FactorSchema) });
export const FactorIdParamsSchema = z.object({ factorId: z.string().uuid() });

/** POST /auth/factors/{factorId}/challenge (mfa token or backend token) */
export const ChallengeBodySchema = z.object({ channel: z.string().max(32).optional() });
export const ChallengeResponseSchema = z.object({ challenge_id: z.string(), expires_at: IsoInstant });
export type ChallengeResponse = z.infer<typeof ChallengeResponseSchema>;

/** POST /auth/factors/{factorId}/verify (mfa token or backend token) → SessionResponse */
export const VerifyFactorBodySchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits'),
  challenge_id: z.string().uuid(),
});
export type VerifyFactorBody = z.infer<typeof VerifyFactorBodySchema>;

/** POST /auth/recovery (mfa token): signs in with a single-use recovery code → SessionResponse */
export const RecoveryBodySchema = z.object({ code: z.string().trim().min(1).max(64) });
