import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { User } from '../users/user.entity';
import type { CookieSpec } from './cookies';
import { OAuthSession, type SessionAuthMethod } from './oauth-session.entity';
import { newOpaqueToken } from '../../common/crypto/opaque-token';
import { sha256Hex } from '../../common/crypto/hash';
import { SIGN_IN_ADDRESS_MAX, SIGN_IN_USER_AGENT_MAX } from './sign-in.entity';
import { endSessionsSql, newSid } from './session-logouts';

export interface NewSession {
  cookieValue: string;
  maxAgeSeconds: number;
  session: OAuthSession;
}

/** The cookie that hands a new session to the browser. */
export function sessionCookie(created: NewSession): CookieSpec {
  return { name: 'session', value: created.cookieValue, maxAge: created.maxAgeSeconds };
}

/** A live session and its user. */
export interface CurrentSession {
  user: User;
  session: OAuthSession;
}

/** Where a sign-in came from: what the sign_ins row records (docs/accounts.md). */
export interface SignInClient {
  ip: string;
  /** The User-Agent header ('' when absent); cut to SIGN_IN_USER_AGENT_MAX characters. */
  userAgent: string;
  /**
   * The session cookie the browser brought, if any: the new session's cookie replaces it, so
   * that session ends with the sign-in, as a sign-out would end it (its back-channel logouts
   * queued), instead of living on unseen behind a cookie the browser no longer holds.
   */
  sessionCookie?: string;
}

/** One row of the account page's "Recent sign-ins". */
export interface RecentSignIn {
  method: SessionAuthMethod;
  ip: string;
  userAgent: string;
  at: Date;
}

/**
 * The session and its sign-in record in one statement: no session without its sign-in, on
 * every sign-in path (OAuth login, console, upstream, account page).
 */
const CREATE_SESSION_SQL = `WITH session AS (
  INSERT INTO oauth_sessions (id, user_id, auth_method, expires_at, created_at, sid)
  VALUES ($1, $2, $3, $4, $5, $8)
  RETURNING user_id, auth_method, created_at)
INSERT INTO sign_ins (user_id, method, ip, user_agent, created_at)
SELECT user_id, auth_method, $6, $7, created_at FROM session`;

/**
 * A new sign-in of the user whose live session the browser holds: the session goes on under
 * the new cookie's hash (the old cookie is dead at once), with the new sign-in's method and time
 * and the same `sid`, so the clients it holds are still told when it ends; the sign-in is
 * recorded as CREATE_SESSION_SQL does. Answers the sid, or nothing when the browser's session is
 * another user's, expired or gone.
 */
const RENEW_SESSION_SQL = `WITH session AS (
  UPDATE oauth_sessions SET id = $1, auth_method = $3, expires_at = $4, created_at = $5
  WHERE id = $8 AND user_id = $2 AND expires_at > $5
  RETURNING user_id, auth_method, created_at, sid),
signed_in AS (INSERT INTO sign_ins (user_id, method, ip, user_agent, created_at)
  SELECT user_id, auth_method, $6, $7, created_at FROM session)
SELECT sid FROM session`;

/** Cookie values are 43 characters; anything much longer is not ours and is not hashed. */
const MAX_COOKIE_LENGTH = 100;

/**
 * Browser login sessions of the authorization server. The cookie holds 256 random bits; the
 * server keeps only their SHA-256, with the user and the expiry, in PostgreSQL (oauth_sessions)
 * and nowhere else: sign-in must keep working while Redis is down (ADR 0003), and logout must
 * bite at once (the row is deleted). Expired rows are removed by the purge job.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectRepository(OAuthSession) private readonly sessions: Repository<OAuthSession>,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly clock: Clock,
  ) {}

  /**
   * A new session of `userId`, signed in with `method` now (createdAt is the sign-in time),
   * recorded as a sign-in from `client` in the same statement. The session the browser brought
   * (`client.sessionCookie`) never outlives its cookie: the same user's goes on under the new
   * cookie with its `sid` (a re-authentication, e.g. `prompt=login`), another user's ends in the
   * same transaction as a sign-out ends it, its logouts queued; an expired one is left to the
   * purge (its cookie is dead already, and an expiry sends no logout).
   */
  async create(
    userId: string,
    method: SessionAuthMethod,
    client: SignInClient,
  ): Promise<NewSession> {
    const cookieValue = newOpaqueToken();
    const ttl = this.config.sessionTtlSeconds;
    const now = this.clock.now();
    const session = this.sessions.create({
      id: sha256Hex(cookieValue),
      userId,
      authMethod: method,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      createdAt: now,
      sid: newSid(),
    });
    const replaced = client.sessionCookie;
    const signIn = [
      session.id,
      userId,
      method,
      session.expiresAt,
      now,
      client.ip.slice(0, SIGN_IN_ADDRESS_MAX),
      client.userAgent.slice(0, SIGN_IN_USER_AGENT_MAX),
    ];
    await this.sessions.manager.transaction(async (manager) => {
      if (replaced !== undefined && replaced.length <= MAX_COOKIE_LENGTH) {
        const replacedId = sha256Hex(replaced);
        const [renewed] = await manager.query<{ sid: string }[]>(RENEW_SESSION_SQL, [
          ...signIn,
          replacedId,
        ]);
        if (renewed) {
          session.sid = renewed.sid;
          return;
        }
        // Only a live session is a logout: an expired one already ended, silently.
        await this.end(manager, 'id = $2 AND expires_at > $1', [replacedId]);
      }
      await manager.query(CREATE_SESSION_SQL, [...signIn, session.sid]);
    });
    return { cookieValue, maxAgeSeconds: ttl, session };
  }

  /** The live session and its user, or null for no, unknown or expired session. */
  async current(cookieValue: string | undefined): Promise<CurrentSession | null> {
    if (cookieValue === undefined || cookieValue.length > MAX_COOKIE_LENGTH) return null;
    const session = await this.sessions.findOneBy({ id: sha256Hex(cookieValue) });
    if (!session || session.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    const user = await this.users.findOneBy({ id: session.userId });
    return user ? { user, session } : null;
  }

  /** The signed-in user, or null for no, unknown or expired session. */
  async currentUser(cookieValue: string | undefined): Promise<User | null> {
    return (await this.current(cookieValue))?.user ?? null;
  }

  /**
   * Ends every session of `userId` (the OAuth pages' and the console's alike), in `manager`'s
   * transaction; answers how many there were. Like every ending below, it queues the sessions'
   * back-channel logouts in the same statement (session-logouts.ts).
   */
  endAll(userId: string, manager: EntityManager): Promise<number> {
    return this.end(manager, 'user_id = $2', [userId]);
  }

  /** Ends the cookie's session (sign-out), if there is one. */
  async destroy(cookieValue: string | undefined): Promise<void> {
    if (cookieValue !== undefined && cookieValue.length <= MAX_COOKIE_LENGTH) {
      await this.end(this.sessions.manager, 'id = $2', [sha256Hex(cookieValue)]);
    }
  }

  /**
   * Ends every session of `userId` but `keepSessionId` (a password change signs the other
   * browsers out); inside the caller's transaction. Answers how many ended.
   */
  endOthers(manager: EntityManager, userId: string, keepSessionId: string): Promise<number> {
    return this.end(manager, 'user_id = $2 AND id <> $3', [userId, keepSessionId]);
  }

  /** One statement: the sessions deleted and their logouts queued, so both or neither happen. */
  private async end(manager: EntityManager, where: string, params: unknown[]): Promise<number> {
    const [row] = await manager.query<{ ended: number }[]>(endSessionsSql(where), [
      this.clock.now(),
      ...params,
    ]);
    return row?.ended ?? 0;
  }

  /** The user's latest sign-ins, newest first (the purge keeps 90 days of them). */
  async recentSignIns(userId: string, limit: number): Promise<RecentSignIn[]> {
    const rows = await this.sessions.query<
      { method: SessionAuthMethod; ip: string; user_agent: string; created_at: Date }[]
    >(
      `SELECT method, ip, user_agent, created_at FROM sign_ins
       WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((row) => ({
      method: row.method,
      ip: row.ip,
      userAgent: row.user_agent,
      at: row.created_at,
    }));
  }
}
