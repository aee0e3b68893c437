import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { Metrics } from '../../common/metrics/metrics';
import { NaturalBatcher, STATEMENT_BATCHING } from '../../common/sql/natural-batcher';
import { AppConfig } from '../../config/app-config';
import type { ApiApplication } from '../applications/api-application-sql';
import { ApiKey } from './api-key.entity';
import { invalidScopes, keyNotFound, keyNotRotatable } from './keys.errors';
import { sha256Hex } from '../../common/crypto/hash';
import { generateApiKey, isWellFormedApiKey, storedPrefixOf } from './key-format';
import { lookUpKey, lookUpKeys, type FoundKey, type PresentedKey } from './key-lookup';
import { isApiScope } from './scopes';

/** lastUsedAt is written at most once per key per minute, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

export interface IssuedKey {
  apiKey: ApiKey;
  /** The plaintext, returned exactly once. */
  plaintext: string;
}

/** Lifecycle of application API keys (docs/contract/api-keys.md#key-lifecycle): create, rotate, revoke, delete, authenticate. */
@Injectable()
export class ApiKeysService {
  /**
   * Key lookups that arrive in one turn of the event loop, or while earlier ones are running,
   * go together as one statement (src/common/sql/natural-batcher.ts); a lone request runs the
   * single statement in the turn it arrived in. Each lookup is read after its request arrived:
   * nothing is cached.
   */
  private readonly lookups: NaturalBatcher<string, FoundKey | undefined>;

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.lookups = new NaturalBatcher<string, FoundKey | undefined>({
      ...STATEMENT_BATCHING,
      onBatch: metrics.batchSizes('api_key_lookup'),
      runOne: (keyHash) => lookUpKey(dataSource, keyHash),
      runBatch: (keyHashes) => lookUpKeys(dataSource, keyHashes),
    });
  }

  /** With a manager, in its transaction (the console records the change in the same one). */
  async create(
    applicationId: number,
    name: string,
    scopes: string[],
    manager?: EntityManager,
  ): Promise<IssuedKey> {
    const unknown = scopes.filter((scope) => !isApiScope(scope));
    if (unknown.length > 0) throw invalidScopes(unknown);
    return this.issue(this.repo(manager), applicationId, name, [...new Set(scopes)]);
  }

  /**
   * A new key with the same name and scopes; the old one keeps working until the grace
   * period ends, and is then rejected by its expiry time (no background job involved).
   */
  async rotate(keyId: number, outer?: EntityManager): Promise<IssuedKey> {
    return (outer ?? this.dataSource.manager).transaction(async (manager) => {
      const repo = manager.getRepository(ApiKey);
      const old = await repo.findOne({ where: { id: keyId }, lock: { mode: 'pessimistic_write' } });
      if (!old) throw keyNotFound();
      if (this.statusOf(old) !== 'active' || old.replacedById !== null) throw keyNotRotatable();
      const issued = await this.issue(repo, old.applicationId, old.name, old.scopes);
      old.replacedById = issued.apiKey.id;
      old.expiresAt = new Date(
        this.clock.now().getTime() + this.config.keyGracePeriodSeconds * 1000,
      );
      await repo.save(old);
      return issued;
    });
  }

  /** Deactivates the key at once, grace period or not. Revoking a revoked key changes nothing. */
  async revoke(keyId: number, manager?: EntityManager): Promise<ApiKey> {
    const repo = this.repo(manager);
    const key = await repo.findOneBy({ id: keyId });
    if (!key) throw keyNotFound();
    if (key.status !== 'revoked') {
      key.status = 'revoked';
      key.revokedAt = this.clock.now();
      await repo.save(key);
    }
    return key;
  }

  /** Removes the key for good; it then authenticates like any unknown key. */
  async delete(keyId: number, manager?: EntityManager): Promise<void> {
    const result = await this.repo(manager).delete({ id: keyId });
    if (!result.affected) throw keyNotFound();
  }

  /** The keys as `manager`'s transaction sees them, or outside any transaction. */
  private repo(manager: EntityManager | undefined): Repository<ApiKey> {
    return manager ? manager.getRepository(ApiKey) : this.keys;
  }

  list(applicationId: number, manager?: EntityManager): Promise<ApiKey[]> {
    return this.repo(manager).find({ where: { applicationId }, order: { id: 'ASC' } });
  }

  statusOf(key: Pick<ApiKey, 'status' | 'expiresAt'>): ApiKeyStatus {
    if (key.status === 'revoked') return 'revoked';
    if (key.expiresAt !== null && key.expiresAt.getTime() <= this.clock.now().getTime())
      return 'expired';
    return 'active';
  }

  /**
   * Resolves a presented key to its usable record and application, or undefined.
   * The lookup is by SHA-256 of the whole plaintext through a unique index, so no
   * comparison of secret material happens in application code. A key of a disabled
   * application is unusable like a revoked one (docs/contract/api-keys.md#authentication: a deactivated key is
   * 401 invalid_api_key; docs/api-keys.md), and its use is not recorded.
   */
  async authenticate(
    presented: string,
  ): Promise<{ apiKey: PresentedKey; application: ApiApplication } | undefined> {
    if (!isWellFormedApiKey(presented)) return undefined;
    const found = await this.lookups.run(sha256Hex(presented));
    if (!found?.application.enabled || this.statusOf(found.apiKey) !== 'active') return undefined;
    await this.recordUse(found.apiKey);
    return found;
  }

  /** Writes lastUsedAt when the stored value is older than the resolution; concurrent instances race harmlessly. */
  private async recordUse(apiKey: PresentedKey): Promise<void> {
    const now = this.clock.now();
    if (apiKey.lastUsedAt && now.getTime() - apiKey.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS)
      return;
    await this.keys.update({ id: apiKey.id }, { lastUsedAt: now });
    apiKey.lastUsedAt = now;
  }

  private async issue(
    repo: Repository<ApiKey>,
    applicationId: number,
    name: string,
    scopes: string[],
  ): Promise<IssuedKey> {
    const plaintext = generateApiKey();
    const apiKey = await repo.save(
      repo.create({
        applicationId,
        name,
        scopes,
        keyPrefix: storedPrefixOf(plaintext),
        keyHash: sha256Hex(plaintext),
        status: 'active',
        expiresAt: null,
        replacedById: null,
        lastUsedAt: null,
        revokedAt: null,
        createdAt: this.clock.now(),
      }),
    );
    return { apiKey, plaintext };
  }
}
