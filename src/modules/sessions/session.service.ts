import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { User } from '../users/user.entity';
import { OAuthSession, type SessionAuthMethod } from './oauth-session.entity';
import { newOpaqueToken } from '../../common/crypto/opaque-token';
import { sha256Hex } from '../../common/crypto/hash';

export interface NewSession {
  cookieValue: string;
  maxAgeSeconds: number;
  session: OAuthSession;
}

/** A live session and its user. */
export interface CurrentSession {
  user: User;
  session: OAuthSession;
}

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

  /** A new session of `userId`, signed in with `method` now (createdAt is the sign-in time). */
  async create(userId: string, method: SessionAuthMethod): Promise<NewSession> {
    const cookieValue = newOpaqueToken();
    const ttl = this.config.sessionTtlSeconds;
    const now = this.clock.now();
    const session = this.sessions.create({
      id: sha256Hex(cookieValue),
      userId,
      authMethod: method,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      createdAt: now,
    });
    await this.sessions.insert(session);
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
   * transaction; answers how many there were.
   */
  async endAll(userId: string, manager: EntityManager): Promise<number> {
    const result = await manager.getRepository(OAuthSession).delete({ userId });
    return result.affected ?? 0;
  }

  async destroy(cookieValue: string | undefined): Promise<void> {
    if (cookieValue !== undefined && cookieValue.length <= MAX_COOKIE_LENGTH) {
      await this.sessions.delete({ id: sha256Hex(cookieValue) });
    }
  }
}
