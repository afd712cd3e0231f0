import { createHash, randomInt } from 'node:crypto';
import type {
  ChallengeResponse,
  EnrolFactorResponse,
  Factor,
  MfaRequiredResponse,
  SessionResponse,
  VerifyFactorBody,
} from '@invoicebox/core';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { UserRow } from '../db/schema';
import { NotFoundError, UnauthorizedError, UnprocessableError } from '../errors';
import type { UsersService } from '../users/users.service';
import type { AuthRepository } from './auth.repository';
import type { MfaFactorRow } from './auth.tables';
import { Lockout, SECOND_FACTOR_RULES } from './lockout';
import type { MfaRepository } from './mfa.repository';
import type { SecretBox } from './secret-box';
import type { Principal, RequestContext, SessionsService } from './sessions.service';
import { bearerToken, type TokenIssuer } from './tokens';

const SECRET_CONTEXT = 'mfa_factors.secret';
const ISSUER = 'Invoicebox';
/** How long a password-verified sign-in may wait for its second factor, and how long a challenge lives. */
export const MFA_TOKEN_SECONDS = 5 * 60;
export const CHALLENGE_SECONDS = 5 * 60;
export const RECOVERY_CODE_COUNT = 10;
/** One period either side: tolerates a phone clock 30 s off. */
const TOTP_TOLERANCE_SECONDS = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Caller = { mode: 'mfa'; user: UserRow } | { mode: 'session'; user: UserRow; principal: Principal };

/**
 * TOTP second factors (RFC 6238 through otplib) with single-use recovery codes. Enrolment: enrol → challenge →
 * verify with a backend token; the first verified factor yields the recovery codes. Sign-in: a correct password of a
 * person with a verified factor yields an mfa token instead of a session; challenge → verify (or a recovery code)
 * with that token opens the session. Wrong codes count towards a lock-out per person.
 */
export class MfaService {
  private readonly lockout: Lockout;
  private readonly now: () => Date;

  constructor(
    private readonly repository: MfaRepository,
    authRepository: AuthRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly tokens: TokenIssuer,
    private readonly box: SecretBox,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
    this.lockout = new Lockout(authRepository, 'verification', SECOND_FACTOR_RULES, this.now);
  }

  async list(ownerId: string): Promise<Factor[]> {
    return (await this.repository.listFactors(ownerId)).map(toFactor);
  }

  /** The answer to a correct password when a second factor is owed; undefined when the person has none. */
  async requireSecondFactor(user: UserRow): Promise<MfaRequiredResponse | undefined> {
    const factors = (await this.repository.listFactors(user.id)).filter((f) => f.status === 'verified');
    if (factors.length === 0) return undefined;
    const { token, expiresAt } = await this.tokens.sign('mfa', { sub: user.id }, MFA_TOKEN_SECONDS);
    return {
      mfa_required: true,
      factors: factors.map(toFactor),
      mfa_token: token,
      expires_at: expiresAt.toISOString(),
    };
  }

  /** Starts a TOTP enrolment (replacing an unfinished one): the secret and its otpauth:// URI, shown once. */
  async enrol(user: UserRow, friendlyName: string | undefined): Promise<EnrolFactorResponse> {
    const secret = generateSecret();
    const factor = await this.repository.transaction(async (repo) => {
      await repo.deleteUnverifiedFactors(user.id);
      return repo.insertFactor({
        ownerId: user.id,
        type: 'totp',
        friendlyName: friendlyName ?? null,
        secretEncrypted: this.box.encrypt(secret, SECRET_CONTEXT),
      });
    });
    return {
      id: factor.id,
      type: 'totp',
      totp: { secret, uri: generateURI({ issuer: ISSUER, label: user.email, secret }) },
    };
  }

  async remove(ownerId: string, factorId: string): Promise<void> {
    await this.repository.transaction(async (repo) => {
      if (!UUID.test(factorId) || !(await repo.deleteFactor(ownerId, factorId))) {
        throw new NotFoundError('Factor not found');
      }
      const left = (await repo.listFactors(ownerId)).filter((f) => f.status === 'verified');
      if (left.length === 0) await repo.replaceRecoveryCodes(ownerId, []);
    });
  }

  /** POST /auth/factors/{id}/challenge */
  async challenge(headers: Headers, factorId: string): Promise<ChallengeResponse> {
    const caller = await this.caller(headers);
    await this.factorFor(caller, factorId);
    const now = this.now();
    const challenge = await this.repository.insertChallenge(
      factorId,
      now,
      new Date(now.getTime() + CHALLENGE_SECONDS * 1000),
    );
    return { challenge_id: challenge.id, expires_at: challenge.expiresAt.toISOString() };
  }

  /**
   * POST /auth/factors/{id}/verify: checks the code against the challenge and opens a session. With an mfa token
   * this completes a sign-in; with a backend token it verifies an enrolment and replaces the caller's session by one
   * that passed the second factor (the first verified factor also returns the recovery codes).
   */
  async verify(
    headers: Headers,
    factorId: string,
    body: VerifyFactorBody,
    context: RequestContext,
  ): Promise<SessionResponse> {
    const caller = await this.caller(headers);
    const factor = await this.factorFor(caller, factorId);
    const attempt = await this.lockout.reserve(`mfa:${caller.user.id}`, context.clientAddress ?? null);
    const now = this.now();
    const timeStep = await this.checkCode(factor, body.code, now);
    if (!(await this.repository.consumeChallenge(factor.id, body.challenge_id, now))) {
      // No verdict is given, so the attempt does not count.
      await attempt.release();
      throw new UnprocessableError('The challenge has expired or was already used; request a new one');
    }
    if (timeStep === undefined || !(await this.repository.acceptTimeStep(factor.id, timeStep, now))) {
      throw new UnprocessableError('Invalid code');
    }
    await attempt.succeed();

    let recoveryCodes: string[] | undefined;
    if (factor.status === 'unverified') {
      const verified = (await this.repository.listFactors(caller.user.id)).filter((f) => f.status === 'verified');
      if (verified.length === 1) recoveryCodes = await this.newRecoveryCodes(caller.user.id);
    }
    if (caller.mode === 'session') await this.sessions.revoke(caller.user.id, caller.principal.sessionId);
    const session = await this.sessions.open(caller.user, 'password+totp', context);
    return recoveryCodes ? { ...session, recovery_codes: recoveryCodes } : session;
  }

  /** POST /auth/recovery: a single-use recovery code stands in for the second factor of a sign-in. */
  async recover(headers: Headers, code: string, context: RequestContext): Promise<SessionResponse> {
    const caller = await this.caller(headers);
    if (caller.mode !== 'mfa') throw new UnauthorizedError('A recovery code completes a sign-in');
    const attempt = await this.lockout.reserve(`mfa:${caller.user.id}`, context.clientAddress ?? null);
    if (!(await this.repository.useRecoveryCode(caller.user.id, hashRecoveryCode(code), this.now()))) {
      throw new UnprocessableError('Invalid recovery code');
    }
    await attempt.succeed();
    return this.sessions.open(caller.user, 'password+recovery', context);
  }

  /** Whether `code` is an unused recovery code of the person (nothing is used up or counted). */
  async hasRecoveryCode(ownerId: string, code: string): Promise<boolean> {
    return this.repository.hasRecoveryCode(ownerId, hashRecoveryCode(code));
  }

  /** Uses up a recovery code given with the password of a sign-in; false when it is gone (used meanwhile). */
  async useRecoveryCode(ownerId: string, code: string): Promise<boolean> {
    return this.repository.useRecoveryCode(ownerId, hashRecoveryCode(code), this.now());
  }

  /** The time step of `code` when it is a current code of the factor not used before, else undefined. */
  private async checkCode(factor: MfaFactorRow, code: string, now: Date): Promise<number | undefined> {
    const result = await verifyTotp({
      secret: this.box.decrypt(factor.secretEncrypted, SECRET_CONTEXT),
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(factor.lastTimeStep === null ? {} : { afterTimeStep: factor.lastTimeStep }),
    }).catch(() => ({ valid: false as const }));
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /** Replaces the recovery codes of a person who has a verified factor; returns the new codes, shown once. */
  async regenerateRecoveryCodes(ownerId: string): Promise<string[]> {
    const verified = (await this.repository.listFactors(ownerId)).filter((f) => f.status === 'verified');
    if (verified.length === 0) throw new UnprocessableError('Recovery codes need a verified second factor');
    return this.newRecoveryCodes(ownerId);
  }

  private async newRecoveryCodes(ownerId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    await this.repository.replaceRecoveryCodes(ownerId, codes.map(hashRecoveryCode));
    return codes;
  }

  /** An mfa token (a sign-in waiting for its factor) or a backend token (a signed-in person). */
  private async caller(headers: Headers): Promise<Caller> {
    const token = bearerToken(headers);
    if (!token) throw new UnauthorizedError();
    const mfa = await this.tokens.verify('mfa', token).catch((error: unknown) => {
      if (error instanceof UnauthorizedError) return undefined;
      throw error;
    });
    if (mfa) {
      const user = await this.users.findById(mfa.sub);
      if (!user) throw new UnauthorizedError('Invalid or expired token');
      return { mode: 'mfa', user };
    }
    const principal = await this.sessions.authenticate(headers);
    return { mode: 'session', user: principal.user, principal };
  }

  private async factorFor(caller: Caller, factorId: string): Promise<MfaFactorRow> {
    const factor = UUID.test(factorId) ? await this.repository.findFactor(caller.user.id, factorId) : undefined;
    // A sign-in can only be completed with a factor whose enrolment was verified.
    if (!factor || (caller.mode === 'mfa' && factor.status !== 'verified')) throw new NotFoundError('Factor not found');
    return factor;
  }
}

type Headers = Record<string, string | string[] | undefined>;

function toFactor(row: MfaFactorRow): Factor {
  return {
    id: row.id,
    type: row.type,
    friendly_name: row.friendlyName,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';

/** Ten characters of a 30-letter alphabet without look-alikes (about 49 bits), shown as `XXXXX-XXXXX`. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** Codes are random and single-use, so a plain SHA-256 is enough (no password-style stretching needed). */
export function hashRecoveryCode(code: string): string {
  const normalized = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return createHash('sha256').update(`invoicebox-recovery:${normalized}`).digest('hex');
}
