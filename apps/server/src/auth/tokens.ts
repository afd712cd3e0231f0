import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { UnauthorizedError } from '../errors';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys';

/**
 * The three tokens we sign, told apart by audience so that one can never stand in for another:
 * - session: the long-lived credential of a sign-in (`sid`), exchanged for backend tokens;
 * - backend: the short-lived bearer token of the API (`sub` = person, `sid` = session): the web's `backend_jwt`;
 * - mfa: proof of a correct password while a second factor is still owed (minutes).
 */
export type TokenKind = 'session' | 'backend' | 'mfa';

const ISSUER = 'invoicebox';
const AUDIENCE: Record<TokenKind, string> = {
  session: 'invoicebox:session',
  backend: 'invoicebox:api',
  mfa: 'invoicebox:mfa',
};

export interface TokenClaims {
  /** The person's id. */
  sub: string;
  /** The server session (session and backend tokens). */
  sid?: string;
}

export interface VerifiedToken extends TokenClaims {
  expiresAt: Date;
}

export class TokenIssuer {
  private readonly now: () => Date;

  constructor(
    private readonly keys: SigningKeys,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  async sign(kind: TokenKind, claims: TokenClaims, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
    const { kid, privateKey } = await this.keys.current();
    const issuedAt = Math.floor(this.now().getTime() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const token = await new SignJWT(claims.sid ? { sid: claims.sid } : {})
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE[kind])
      .setSubject(claims.sub)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(privateKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /**
   * Checks signature (against an unretired key named by `kid`), issuer, audience and expiry. Any failure is an
   * UnauthorizedError; only a database outage while looking up keys passes through (as a 503).
   */
  async verify(kind: TokenKind, token: string): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await this.keys.verificationKey(header.kid) : undefined;
          if (!key) throw new joseErrors.JWKSNoMatchingKey();
          return key;
        },
        {
          issuer: ISSUER,
          audience: AUDIENCE[kind],
          algorithms: [SIGNING_ALGORITHM],
          currentDate: this.now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        },
      );
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new UnauthorizedError();
      if (kind !== 'mfa' && typeof payload.sid !== 'string') throw new UnauthorizedError();
      return {
        sub: payload.sub,
        sid: typeof payload.sid === 'string' ? payload.sid : undefined,
        expiresAt: new Date(payload.exp * 1000),
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof UnauthorizedError || error instanceof TypeError) {
        throw new UnauthorizedError('Invalid or expired token');
      }
      throw error;
    }
  }
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
