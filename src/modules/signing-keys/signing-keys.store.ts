import { Brackets, DataSource, EntityManager } from 'typeorm';
import type { IdTokenSigningAlg } from '../../common/crypto/signing-algs';
import type { GeneratedKey } from './key-material';
import { SigningKey } from './signing-key.entity';

/**
 * Key of the PostgreSQL advisory lock that serialises key creation and rotation across
 * instances (any constant unique to this job; pg_locks shows it as objid 0x534b4559 "SKEY").
 */
export const SIGNING_KEYS_LOCK_KEY = 0x534b4559;

/** Kids of a rotation's outcome, for one alg. */
export interface RotationResult {
  alg: IdTokenSigningAlg;
  active: string;
  next: string;
  retired: string | null;
}

/** The queries of `signing_keys`; its one owner is this module. */
export class SigningKeysStore {
  constructor(private readonly dataSource: DataSource) {}

  /** next, active, and retired keys still published at `now`. */
  published(now: Date): Promise<SigningKey[]> {
    return this.dataSource
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .where(
        new Brackets((where) =>
          where.where(`k.state <> 'retired'`).orWhere('k.published_until > :now', { now }),
        ),
      )
      .orderBy('k.id', 'DESC')
      .getMany();
  }

  all(): Promise<SigningKey[]> {
    return this.dataSource.getRepository(SigningKey).find({ order: { id: 'DESC' } });
  }

  /**
   * Runs `work` in one transaction holding the transaction-level advisory lock, so two instances
   * starting together, or two rotations, never interleave (released at commit or rollback).
   */
  locked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEYS_LOCK_KEY]);
      return work(manager);
    });
  }

  /** The active and next keys of `alg`, read under the lock. */
  async current(
    manager: EntityManager,
    alg: IdTokenSigningAlg,
  ): Promise<{ active?: SigningKey; next?: SigningKey }> {
    const rows = await manager
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .where(`k.state IN ('active', 'next')`)
      .andWhere('k.alg = :alg', { alg })
      .getMany();
    return {
      active: rows.find((row) => row.state === 'active'),
      next: rows.find((row) => row.state === 'next'),
    };
  }

  async insert(
    manager: EntityManager,
    key: GeneratedKey,
    state: 'active' | 'next',
    now: Date,
  ): Promise<void> {
    await manager.getRepository(SigningKey).insert({
      ...key,
      state,
      createdAt: now,
      activatedAt: state === 'active' ? now : null,
      retiredAt: null,
      publishedUntil: null,
    });
  }

  async retire(manager: EntityManager, kid: string, now: Date, until: Date): Promise<void> {
    await manager
      .getRepository(SigningKey)
      .update({ kid }, { state: 'retired', retiredAt: now, publishedUntil: until });
  }

  async activate(manager: EntityManager, kid: string, now: Date): Promise<void> {
    await manager.getRepository(SigningKey).update({ kid }, { state: 'active', activatedAt: now });
  }
}
