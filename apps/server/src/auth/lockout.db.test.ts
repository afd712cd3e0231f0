import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { authFailures } from './auth.tables';
import { verifyPassword } from './password';

// Passes through to the real scrypt, counting how many passwords were really checked.
vi.mock('./password', async (importOriginal) => {
  const original = await importOriginal<typeof import('./password')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

const t = useTestDatabase();
const EMAIL = 'olive@example.com';
const PASSWORD = 'correct horse battery staple';
const STRANGER = '203.0.113.7';
const HOME = '198.51.100.2';

describe('sign-in lock-outs that cannot be raced or turned against the owner', () => {
  let h: Awaited<ReturnType<typeof buildAuthTestApp>>;

  beforeAll(async () => {
    h = await buildAuthTestApp(t().database.db);
    await signUpThroughApi(h.app, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    await h.app.close();
  });
  beforeEach(async () => {
    await t().database.db.delete(authFailures);
    vi.mocked(verifyPassword).mockClear();
    // Past every window of the test before.
    h.clock.advance(2 * 3600);
  });

  /** Failures recorded as if made now from `addresses`, five each (quicker than twenty real scrypt checks). */
  const seedFailures = (addresses: string[]) =>
    t()
      .database.db.insert(authFailures)
      .values(
        addresses.flatMap((clientAddress) =>
          Array.from({ length: 5 }, () => ({ subject: `signin:${EMAIL}`, clientAddress, failedAt: h.clock.now() })),
        ),
      );

  const signIn = (password: string, remoteAddress: string, email = EMAIL) =>
    h.app.inject({ method: 'POST', url: '/api/v1/auth/local/signin', payload: { email, password }, remoteAddress });

  it('checks five of sixteen concurrent wrong passwords from one address and refuses the other eleven', async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => signIn(`wrong password ${i}`, STRANGER)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
    expect(vi.mocked(verifyPassword)).toHaveBeenCalledTimes(5);
    expect(await t().database.db.select().from(authFailures)).toHaveLength(5);
    // An unknown email is counted the same way: the lock says nothing about which addresses have accounts.
    const unknown = await Promise.all(
      Array.from({ length: 16 }, () => signIn('wrong password', STRANGER, 'nobody@example.com')),
    );
    expect(unknown.map((a) => a.statusCode).filter((s) => s === 401)).toHaveLength(5);
  });

  it("does not lock the owner out when a stranger guesses the owner's password from another address", async () => {
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong password ${i}`, STRANGER)).statusCode).toBe(401);
    const stranger = await signIn(PASSWORD, STRANGER);
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json()).toEqual({
      error: 'Too many failed sign-in attempts. Try again in 15 minutes.',
      code: 'rate_limited',
    });
    expect(Number(stranger.headers['retry-after'])).toBe(900);

    const owner = await signIn(PASSWORD, HOME);
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user.email).toBe(EMAIL);
    // The owner's success clears their own failures only: the stranger stays locked.
    expect((await signIn(PASSWORD, STRANGER)).statusCode).toBe(429);
  });

  it('counts the addresses of one IPv6 /64 as one address', async () => {
    for (let i = 1; i <= 5; i++) expect((await signIn(`wrong ${i}`, `2001:db8:7:7::${i}`)).statusCode).toBe(401);
    expect((await signIn(PASSWORD, '2001:db8:7:7:abcd::9')).statusCode).toBe(429);
    expect((await signIn(PASSWORD, '2001:db8:7:8::1')).statusCode).toBe(200);
  });

  it('slows down attempts from many addresses past the per-account ceiling, doubling the wait', async () => {
    // Twenty failures from four addresses: each address is locked, the account is not.
    await seedFailures(['192.0.2.1', '192.0.2.2', '192.0.2.3']);
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong ${i}`, '192.0.2.4')).statusCode).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      const slowed = await signIn(PASSWORD, `192.0.2.${10 + round}`);
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json().error).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds?\.$/);
      const wait = Number(slowed.headers['retry-after']);
      waits.push(wait);
      h.clock.advance(wait);
      // Not a lock: once the wait is over, an attempt is checked again.
      expect((await signIn(`still wrong ${round}`, `192.0.2.${20 + round}`)).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    // Refused attempts were not checked and do not count.
    expect(vi.mocked(verifyPassword)).toHaveBeenCalledTimes(9);
    expect(await t().database.db.select().from(authFailures)).toHaveLength(24);
  });

  it('lets the person in from an address they signed in from before, past the ceiling', async () => {
    expect((await signIn(PASSWORD, HOME)).statusCode).toBe(200);
    await seedFailures(['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5']);
    expect((await signIn(PASSWORD, '192.0.2.99')).statusCode).toBe(429);
    const home = await signIn(PASSWORD, HOME);
    expect(home.statusCode).toBe(200);
  });
});
