import { isIPv6 } from 'node:net';
import { RateLimitedError } from '../errors';
import type { AuthRepository } from './auth.repository';

/**
 * How guessing is limited (README "Sign-in limits" says the same for operators):
 *
 * - Per subject and client address: five failures within fifteen minutes lock that pair (429 with Retry-After) until
 *   the oldest of them leaves the window. A stranger guessing from their address locks only themselves out.
 * - Per subject from all addresses (sign-in only): past twenty failures within an hour every further attempt waits
 *   after the latest failure, twice as long each time (1 s, 2 s, 4 s … at most 15 minutes). Many addresses cannot
 *   guess fast, and nobody is ever locked out for good: the wait is short while few attempts are made.
 * - The person themselves is spared that slow-down when they sign in from an address they signed in from within
 *   thirty days, or when the sign-in carries one of their recovery codes (see LocalAuthService.signIn).
 *
 * Each attempt is reserved before the password or code is checked: under a transaction lock per subject, the
 * failures in the windows are counted and, when the attempt is allowed, a row is written that counts as a failure
 * from then on. N concurrent attempts therefore count as N, and no more than the allowed number are ever checked.
 * A success clears the failures of its subject and address; an attempt that ends without a verdict (an expired
 * challenge) gives its reservation back.
 */
export interface LockoutRules {
  /** Failures of one subject (and client address, when `perAddress`) that lock it for the rest of the window. */
  maxFailures: number;
  windowMs: number;
  perAddress: boolean;
  /** The slow-down of a subject across all addresses. */
  backoff?: { freeFailures: number; windowMs: number; baseMs: number; maxMs: number };
}

export const SIGN_IN_RULES: LockoutRules = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  perAddress: true,
  backoff: { freeFailures: 20, windowMs: 60 * 60_000, baseMs: 1000, maxMs: 15 * 60_000 },
};

/** Second factors: only someone who knows the password (an mfa token) or holds a session gets here. */
export const SECOND_FACTOR_RULES: LockoutRules = { maxFailures: 5, windowMs: 15 * 60_000, perAddress: false };

/** Kept this long for the windows above; older rows are pruned. */
const KEEP_MS = 24 * 3_600_000;

/**
 * What a lock-out counts as one client address: an IPv4 address (also when written IPv4-mapped), or the /64 of an
 * IPv6 address, since one subscriber is handed a whole /64 and could otherwise try from a new address each time.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const [head = '', tail] = bare.split('::');
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export class LockedOutError extends RateLimitedError {
  constructor(
    readonly retryAfterSeconds: number,
    what: string,
  ) {
    super(`Too many failed ${what} attempts. Try again in ${waitText(retryAfterSeconds)}.`, false);
  }
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** An allowed attempt, counted as a failure until it succeeds or is released. */
export interface Attempt {
  /** The password or code was right: clears the failures of the subject (and address). */
  succeed(): Promise<void>;
  /** The attempt ended before anything was judged: it does not count. */
  release(): Promise<void>;
}

/** Attempt counting for one kind of attempt (`signin:<email>`, `mfa:<person>`). */
export class Lockout {
  constructor(
    private readonly repository: AuthRepository,
    private readonly what: string,
    private readonly rules: LockoutRules,
    private readonly now: () => Date,
  ) {}

  /**
   * Reserves an attempt of `subject` from `clientAddress` (counted by addressKey), or throws LockedOutError (nothing
   * counted) while the pair is locked or the subject's slow-down asks to wait. `skipBackoff`: the caller has
   * something that the slow-down need not guard (a known address, a recovery code).
   */
  async reserve(
    subject: string,
    clientAddress: string | null,
    options: { skipBackoff?: boolean } = {},
  ): Promise<Attempt> {
    const address = clientAddress === null ? null : addressKey(clientAddress);
    const now = this.now();
    const rules = this.rules;
    const id = await this.repository.withAttemptLock(subject, async (repo) => {
      const lockedFrom = await repo.nthLatestFailure(
        subject,
        rules.perAddress ? { address } : 'any',
        new Date(now.getTime() - rules.windowMs),
        rules.maxFailures,
      );
      if (lockedFrom) this.refuse(lockedFrom.getTime() + rules.windowMs, now);
      if (rules.backoff && !options.skipBackoff) {
        const { count, latest } = await repo.failureSummary(subject, new Date(now.getTime() - rules.backoff.windowMs));
        if (latest && count >= rules.backoff.freeFailures) {
          const waitMs = Math.min(
            rules.backoff.maxMs,
            rules.backoff.baseMs * 2 ** Math.min(40, count - rules.backoff.freeFailures),
          );
          if (now.getTime() < latest.getTime() + waitMs) this.refuse(latest.getTime() + waitMs, now);
        }
      }
      return repo.insertFailure(subject, address, now);
    });
    await this.repository.pruneFailures(new Date(now.getTime() - KEEP_MS));
    return {
      succeed: () => this.repository.clearFailures(subject, rules.perAddress ? { address } : 'any'),
      release: () => this.repository.deleteFailure(id),
    };
  }

  private refuse(unlockAtMs: number, now: Date): never {
    throw new LockedOutError(Math.max(1, Math.ceil((unlockAtMs - now.getTime()) / 1000)), this.what);
  }
}
