import type {
  AuthMethodsResponse,
  SessionResponse,
  SignInBody,
  SignInResponse,
  SignUpAcceptedResponse,
  SignUpBody,
} from '@invoicebox/core';
import type { AuthConfig } from '../config';
import { ConflictError, UnauthorizedError } from '../errors';
import { normalizeEmail, type UsersService } from '../users/users.service';
import type { AuthRepository } from './auth.repository';
import { addressKey, Lockout, SIGN_IN_RULES } from './lockout';
import type { MfaService } from './mfa.service';
import { decoyHash, hashPassword, verifyPassword } from './password';
import type { RequestContext, SessionsService } from './sessions.service';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';
export const SIGN_UP_ACCEPTED: SignUpAcceptedResponse = {
  sign_in_required: true,
  message: 'Sign-up received. Sign in with your email and password to continue.',
};
/** An address the person opened a session from within this time is spared the per-account slow-down. */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;

/**
 * The local account, the embedded default sign-in: email and password. The first sign-up makes the owner of the
 * installation; later ones are refused unless AUTH_ALLOW_SIGNUP lets more people in. Wrong passwords are limited
 * per email and client address, with a slow-down per email across addresses (lockout.ts).
 */
export class LocalAuthService {
  private readonly lockout: Lockout;
  private readonly now: () => Date;

  constructor(
    private readonly repository: AuthRepository,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly mfa: MfaService,
    private readonly config: Pick<AuthConfig, 'allowSignup'>,
    now: () => Date = () => new Date(),
    /** The configured OpenID Connect providers, listed by `methods()` for the landing page. */
    private readonly oidcProviders: () => Array<{ id: string; name: string }> = () => [],
  ) {
    this.now = now;
    this.lockout = new Lockout(repository, 'sign-in', SIGN_IN_RULES, now);
  }

  async methods(): Promise<AuthMethodsResponse> {
    const ownerExists = await this.users.ownerExists();
    return {
      local: { enabled: true, owner_exists: ownerExists, signup_open: !ownerExists || this.config.allowSignup },
      oidc: this.oidcProviders(),
      mfa: { factor_types: ['totp'] },
    };
  }

  /**
   * The first sign-up makes the owner and signs them in (201). Once there is an owner, sign-up is closed (409, the
   * same for every address) unless AUTH_ALLOW_SIGNUP; then every sign-up gets the same neutral 202, whether the
   * address was free (the account is made) or taken (nothing changes: the password is hashed all the same, and
   * the existing account keeps its password). Without mail there is nobody to tell about a taken address; the person
   * who owns it signs in with their own password as always. What sign-up cannot hide is what a sign-in afterwards
   * shows, and that sign-in is limited like any other.
   */
  async signUp(body: SignUpBody, context: RequestContext): Promise<SignUpResult> {
    const passwordHash = await hashPassword(body.password);
    const owner = await this.repository.withSignupLock(async (repo, tx) => {
      const users = this.users.on(tx);
      const ownerExists = await users.ownerExists();
      if (ownerExists && !this.config.allowSignup) {
        throw new ConflictError('Sign-up is closed: this Invoicebox already has its owner');
      }
      const created = await users.tryCreate({
        email: body.email,
        displayName: body.display_name ?? body.email.split('@')[0]!,
      });
      if (created) await repo.saveCredentials(created.id, passwordHash);
      // Before the first owner no address can be taken, so the owner's sign-up may answer with the session.
      return !ownerExists && created?.isLocalOwner ? created : undefined;
    });
    if (!owner) return { status: 202, body: SIGN_UP_ACCEPTED };
    return { status: 201, body: await this.sessions.open(owner, 'password', context) };
  }

  /**
   * Email and password, optionally with a recovery code. A sign-in with a recovery code, and one from an address
   * the person opened a session from within KNOWN_ADDRESS_MS, is not held back by the per-account slow-down: that
   * is how the real person gets in while strangers hammer the account. With a recovery code, both must be right, and
   * the same work is done and the same answer given whatever the password, unless the code is right: so this way
   * round the slow-down tells nothing about passwords to someone without a code. Recovery codes (about 49 bits) need
   * no count of their own; TOTP codes (6 digits) would, and strangers could use that count up, so they are not taken
   * here.
   */
  async signIn(body: SignInBody, context: RequestContext): Promise<SignInResponse> {
    const email = normalizeEmail(body.email);
    const address = context.clientAddress ?? null;
    const recoveryCode = body.recovery_code;
    const user = await this.users.findByEmail(email);
    const knownAddress =
      user !== undefined &&
      address !== null &&
      (await this.repository.sessionAddressesSince(user.id, new Date(this.now().getTime() - KNOWN_ADDRESS_MS))).some(
        (known) => addressKey(known) === addressKey(address),
      );
    const attempt = await this.lockout.reserve(`signin:${email}`, address, {
      skipBackoff: knownAddress || recoveryCode !== undefined,
    });
    const hash = user ? await this.repository.findPasswordHash(user.id) : undefined;
    const codeOk =
      recoveryCode !== undefined && user !== undefined && (await this.mfa.hasRecoveryCode(user.id, recoveryCode));
    // An unknown email costs the same scrypt as a known one, so timing does not tell which addresses exist.
    const ok = await verifyPassword(body.password, hash ?? (await decoyHash()));
    // The reservation stays: it is this failure.
    if (!user || !hash || !ok) throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    if (recoveryCode !== undefined) {
      if (!codeOk || !(await this.mfa.useRecoveryCode(user.id, recoveryCode))) {
        throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
      }
      await attempt.succeed();
      return this.sessions.open(user, 'password+recovery', context);
    }
    await attempt.succeed();
    return (await this.mfa.requireSecondFactor(user)) ?? this.sessions.open(user, 'password', context);
  }
}

export type SignUpResult = { status: 201; body: SessionResponse } | { status: 202; body: SignUpAcceptedResponse };
