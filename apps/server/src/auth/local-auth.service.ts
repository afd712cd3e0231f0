import type { AuthMethodsResponse, SessionResponse, SignInBody, SignInResponse, SignUpBody } from '@invoicebox/core';
import type { AuthConfig } from '../config';
import { ConflictError, UnauthorizedError } from '../errors';
import { normalizeEmail, type UsersService } from '../users/users.service';
import type { AuthRepository } from './auth.repository';
import { Lockout } from './lockout';
import type { MfaService } from './mfa.service';
import { decoyHash, hashPassword, verifyPassword } from './password';
import type { RequestContext, SessionsService } from './sessions.service';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

/**
 * The local account, the embedded default sign-in: email and password. The first sign-up makes the owner of the
 * installation; later ones are refused unless AUTH_ALLOW_SIGNUP lets more people in. Five wrong passwords for an
 * email within fifteen minutes lock it (429) until the window passes.
 */
export class LocalAuthService {
  private readonly lockout: Lockout;

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
    this.lockout = new Lockout(repository, 'sign-in', now);
  }

  async methods(): Promise<AuthMethodsResponse> {
    const ownerExists = await this.users.ownerExists();
    return {
      local: { enabled: true, owner_exists: ownerExists, signup_open: !ownerExists || this.config.allowSignup },
      oidc: this.oidcProviders(),
      mfa: { factor_types: ['totp'] },
    };
  }

  async signUp(body: SignUpBody, context: RequestContext): Promise<SessionResponse> {
    const passwordHash = await hashPassword(body.password);
    const user = await this.repository.withSignupLock(async (repo, tx) => {
      const users = this.users.on(tx);
      if ((await users.ownerExists()) && !this.config.allowSignup) {
        throw new ConflictError('Sign-up is closed: this Invoicebox already has its owner');
      }
      const created = await users.create({
        email: body.email,
        displayName: body.display_name ?? body.email.split('@')[0]!,
      });
      await repo.saveCredentials(created.id, passwordHash);
      return created;
    });
    return this.sessions.open(user, 'password', context);
  }

  async signIn(body: SignInBody, context: RequestContext): Promise<SignInResponse> {
    const email = normalizeEmail(body.email);
    const subject = `signin:${email}`;
    await this.lockout.check(subject);
    const user = await this.users.findByEmail(email);
    const hash = user ? await this.repository.findPasswordHash(user.id) : undefined;
    // An unknown email costs the same scrypt as a known one, so timing does not tell which addresses exist.
    const ok = await verifyPassword(body.password, hash ?? (await decoyHash()));
    if (!user || !hash || !ok) {
      await this.lockout.fail(subject);
      throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    }
    await this.lockout.succeed(subject);
    return (await this.mfa.requireSecondFactor(user)) ?? this.sessions.open(user, 'password', context);
  }
}
