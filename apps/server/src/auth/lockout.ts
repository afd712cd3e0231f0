import { RateLimitedError } from '../errors';
import type { AuthRepository } from './auth.repository';

/** Five failures within fifteen minutes lock the subject until the oldest of them leaves the window. */
export const LOCKOUT_MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export class LockedOutError extends RateLimitedError {
  constructor(
    readonly retryAfterSeconds: number,
    what: string,
  ) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(`Too many failed ${what} attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, false);
  }
}

/**
 * Failure counting for one kind of attempt (`signin:<email>`, `mfa:<person>`). Counting by email rather than by
 * address protects a person from a guesser on many addresses; the per-address rate limit of the routes covers the
 * other direction.
 */
export class Lockout {
  constructor(
    private readonly repository: AuthRepository,
    private readonly what: string,
    private readonly now: () => Date,
  ) {}

  /** Throws LockedOutError while `subject` is locked. */
  async check(subject: string): Promise<void> {
    const now = this.now().getTime();
    const failures = await this.repository.failuresSince(subject, new Date(now - LOCKOUT_WINDOW_MS));
    if (failures.length < LOCKOUT_MAX_FAILURES) return;
    // Unlocked when so many failures have aged out that fewer than the maximum remain in the window.
    const unlockAt = failures[failures.length - LOCKOUT_MAX_FAILURES]!.getTime() + LOCKOUT_WINDOW_MS;
    throw new LockedOutError(Math.max(1, Math.ceil((unlockAt - now) / 1000)), this.what);
  }

  async fail(subject: string): Promise<void> {
    const now = this.now();
    await this.repository.recordFailure(subject, now, new Date(now.getTime() - 24 * 3_600_000));
  }

  async succeed(subject: string): Promise<void> {
    await this.repository.clearFailures(subject);
  }
}
