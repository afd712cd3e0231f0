import type { AuthUser, ExchangeBody, ExchangeResponse, SessionResponse } from '@invoicebox/core';
import type { AuthConfig } from '../config';
import type { UserRow } from '../db/schema';
import { UnauthorizedError } from '../errors';
import type { AuthRepository } from './auth.repository';
import type { SessionRow } from './auth.tables';
import type { ProviderTokensService } from './provider-tokens';
import { bearerToken, type TokenIssuer } from './tokens';

/** The person behind a request, with the session and backend token that proved it. */
export interface Principal {
  user: UserRow;
  sessionId: string;
  tokenExpiresAt: Date;
}

export interface RequestContext {
  userAgent?: string | undefined;
  /** The client address (Fastify's request.ip): lock-outs count per address, and sessions remember it. */
  clientAddress?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** last_seen_at is written at most this often per session, so authenticated reads stay reads. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

export function toAuthUser(user: UserRow): AuthUser {
  return { id: user.id, email: user.email, display_name: user.displayName };
}

/**
 * Server sessions and the tokens that name them. A sign-in makes a session and returns its session token (long-lived)
 * with a first backend token (short-lived); the session token is exchanged for fresh backend tokens; every API
 * request presents a backend token whose session must still be live, so logout takes effect at once.
 */
export class SessionsService {
  private readonly now: () => Date;

  constructor(
    private readonly repository: AuthRepository,
    private readonly tokens: TokenIssuer,
    private readonly providerTokens: ProviderTokensService,
    private readonly config: Pick<AuthConfig, 'sessionSeconds' | 'backendTokenSeconds'>,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  /** Opens a session for a person who just proved who they are. */
  async open(user: UserRow, method: string, context: RequestContext): Promise<SessionResponse> {
    return (await this.openWithId(user, method, context)).response;
  }

  /** The same, with the new session's id (to hand the session over later through a one-time code). */
  async openWithId(
    user: UserRow,
    method: string,
    context: RequestContext,
  ): Promise<{ sessionId: string; response: SessionResponse }> {
    const now = this.now();
    const session = await this.repository.insertSession({
      ownerId: user.id,
      method,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.config.sessionSeconds * 1000),
      userAgent: context.userAgent?.slice(0, 512) ?? null,
      clientAddress: context.clientAddress ?? null,
    });
    return { sessionId: session.id, response: await this.answer(user, session) };
  }

  /** Tokens for a session opened earlier (a one-time code handed to the browser is redeemed for them). */
  async resume(userId: string, sessionId: string): Promise<SessionResponse> {
    const { session, user } = await this.liveSession(userId, sessionId);
    return this.answer(user, session);
  }

  private async answer(user: UserRow, session: SessionRow): Promise<SessionResponse> {
    const now = this.now();
    const sessionToken = await this.tokens.sign(
      'session',
      { sub: user.id, sid: session.id },
      Math.floor((session.expiresAt.getTime() - now.getTime()) / 1000),
    );
    const backend = await this.backendToken(user.id, session);
    return {
      session_token: sessionToken.token,
      session_expires_at: session.expiresAt.toISOString(),
      token: backend.token,
      expires_at: backend.expiresAt.toISOString(),
      user: toAuthUser(user),
    };
  }

  /** POST /auth/exchange: a live session token buys a fresh backend token; provider tokens are stored on the way. */
  async exchange(body: ExchangeBody): Promise<ExchangeResponse> {
    const claims = await this.tokens.verify('session', body.session_token);
    const { session, user } = await this.liveSession(claims.sub, claims.sid);
    if (body.access_token) {
      await this.providerTokens.store(user.id, {
        provider: body.provider ?? 'google',
        accountEmail: body.account_email ?? user.email,
        accessToken: body.access_token,
        refreshToken: body.refresh_token,
        expiresInSeconds: body.expires_in,
        scope: body.scope,
      });
    }
    await this.touch(session);
    const backend = await this.backendToken(user.id, session);
    return { token: backend.token, expires_at: backend.expiresAt.toISOString() };
  }

  /** The person behind `Authorization: Bearer <backend token>`; UnauthorizedError otherwise. */
  async authenticate(headers: Record<string, string | string[] | undefined>): Promise<Principal> {
    const token = bearerToken(headers);
    if (!token) throw new UnauthorizedError();
    const claims = await this.tokens.verify('backend', token);
    const { session, user } = await this.liveSession(claims.sub, claims.sid);
    await this.touch(session);
    return { user, sessionId: session.id, tokenExpiresAt: claims.expiresAt };
  }

  /** Ends a session: its session token and every backend token naming it stop working. */
  async revoke(ownerId: string, sessionId: string): Promise<void> {
    await this.repository.revokeSession(ownerId, sessionId, this.now());
  }

  private async backendToken(userId: string, session: SessionRow): Promise<{ token: string; expiresAt: Date }> {
    // Never past the session's own end.
    const remaining = Math.floor((session.expiresAt.getTime() - this.now().getTime()) / 1000);
    const ttl = Math.max(1, Math.min(this.config.backendTokenSeconds, remaining));
    return this.tokens.sign('backend', { sub: userId, sid: session.id }, ttl);
  }

  private async liveSession(userId: string, sessionId: string | undefined) {
    const found = sessionId && UUID.test(sessionId) ? await this.repository.findSession(sessionId) : undefined;
    if (!found || found.session.ownerId !== userId) throw new UnauthorizedError('Invalid or expired token');
    if (found.session.revokedAt || found.session.expiresAt <= this.now()) {
      throw new UnauthorizedError('Session has ended; please sign in again');
    }
    return found;
  }

  private async touch(session: SessionRow): Promise<void> {
    const now = this.now();
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
      await this.repository.touchSession(session.id, now);
    }
  }
}
