import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { User } from '../users/user.entity';
import { OAuthSession } from './oauth-session.entity';
import { newOpaqueToken } from './opaque-token';
import { sha256Hex } from '../keys/key-format';
import { PgSessionStore, RedisSessionStore, SessionStore } from './session.store';

export interface NewSession {
  cookieValue: string;
  maxAgeSeconds: number;
}

/**
 * Browser login sessions of the authorization server. The cookie holds 256 random bits; the
 * server keeps only their SHA-256, with the user and the expiry.
 */
@Injectable()
export class SessionService implements OnApplicationShutdown {
  private readonly logger = new Logger('OAuthSessions');
  private readonly store: SessionStore;
  private readonly redis?: Redis;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectRepository(OAuthSession) sessions: Repository<OAuthSession>,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly clock: Clock,
  ) {
    if (config.redisUrl) {
      this.redis = new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
      this.store = new RedisSessionStore(this.redis);
    } else {
      this.store = new PgSessionStore(sessions);
    }
    this.logger.log(`Login sessions stored in ${this.store.kind}`);
  }

  get storage(): SessionStore['kind'] {
    return this.store.kind;
  }

  async create(userId: string): Promise<NewSession> {
    const cookieValue = newOpaqueToken();
    const ttl = this.config.sessionTtlSeconds;
    const expiresAt = new Date(this.clock.now().getTime() + ttl * 1000);
    await this.store.put(sha256Hex(cookieValue), { userId, expiresAt }, ttl);
    return { cookieValue, maxAgeSeconds: ttl };
  }

  /** The signed-in user, or null for no, unknown or expired session. */
  async currentUser(cookieValue: string | undefined): Promise<User | null> {
    if (cookieValue === undefined || cookieValue.length > 100) return null;
    const record = await this.store.get(sha256Hex(cookieValue));
    if (!record || record.expiresAt.getTime() <= this.clock.now().getTime()) return null;
    return this.users.findOneBy({ id: record.userId });
  }

  async destroy(cookieValue: string | undefined): Promise<void> {
    if (cookieValue !== undefined) await this.store.delete(sha256Hex(cookieValue));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => undefined);
  }
}
