import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { User } from '../users/user.entity';
import { OAuthSession } from './oauth-session.entity';
import { newOpaqueToken } from './opaque-token';
import { sha256Hex } from '../../common/crypto/hash';

export interface NewSession {
  cookieValue: string;
  maxAgeSeconds: number;
}

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

  async create(userId: string): Promise<NewSession> {
    const cookieValue = newOpaqueToken();
    const ttl = this.config.sessionTtlSeconds;
    const now = this.clock.now();
    await this.sessions.insert({
      id: sha256Hex(cookieValue),
      userId,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      createdAt: now,
    });
    return { cookieValue, maxAgeSeconds: ttl };
  }

  /** The signed-in user, or null for no, unknown or expired session. */
  async currentUser(cookieValue: string | undefined): Promise<User | null> {
    if (cookieValue === undefined || cookieValue.length > 100) return null;
    const row = await this.sessions.findOneBy({ id: sha256Hex(cookieValue) });
    if (!row || row.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    return this.users.findOneBy({ id: row.userId });
  }

  async destroy(cookieValue: string | undefined): Promise<void> {
    if (cookieValue !== undefined && cookieValue.length <= 100) {
      await this.sessions.delete({ id: sha256Hex(cookieValue) });
    }
  }
}
