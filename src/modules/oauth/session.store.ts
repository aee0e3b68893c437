import type Redis from 'ioredis';
import type { Repository } from 'typeorm';
import { OAuthSession } from './oauth-session.entity';

export interface SessionRecord {
  userId: string;
  expiresAt: Date;
}

/** Where browser sessions live: PostgreSQL by default, Redis when REDIS_URL is configured. */
export interface SessionStore {
  readonly kind: 'postgresql' | 'redis';
  put(id: string, record: SessionRecord, ttlSeconds: number): Promise<void>;
  get(id: string): Promise<SessionRecord | null>;
  delete(id: string): Promise<void>;
}

export class PgSessionStore implements SessionStore {
  readonly kind = 'postgresql';
  constructor(private readonly sessions: Repository<OAuthSession>) {}

  async put(id: string, record: SessionRecord): Promise<void> {
    await this.sessions.insert({ id, userId: record.userId, expiresAt: record.expiresAt });
  }

  async get(id: string): Promise<SessionRecord | null> {
    const row = await this.sessions.findOneBy({ id });
    return row ? { userId: row.userId, expiresAt: row.expiresAt } : null;
  }

  async delete(id: string): Promise<void> {
    await this.sessions.delete({ id });
  }
}

const PREFIX = 'idsvc:oauth:session:';

/** Redis keeps the record with a TTL; expiresAt is still checked against the service clock. */
export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis';
  constructor(private readonly redis: Redis) {}

  async put(id: string, record: SessionRecord, ttlSeconds: number): Promise<void> {
    const value = JSON.stringify({
      userId: record.userId,
      expiresAt: record.expiresAt.toISOString(),
    });
    await this.redis.set(PREFIX + id, value, 'EX', ttlSeconds);
  }

  async get(id: string): Promise<SessionRecord | null> {
    const raw = await this.redis.get(PREFIX + id);
    if (raw === null) return null;
    const parsed = JSON.parse(raw) as { userId: string; expiresAt: string };
    return { userId: parsed.userId, expiresAt: new Date(parsed.expiresAt) };
  }

  async delete(id: string): Promise<void> {
    await this.redis.del(PREFIX + id);
  }
}
