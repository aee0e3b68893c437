import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import {
  DEFAULT_ID_TOKEN_SIGNING_ALG,
  ID_TOKEN_SIGNING_ALGS,
  IdTokenSigningAlg,
  isIdTokenSigningAlg,
} from '../../common/crypto/signing-algs';
import { AppConfig } from '../../config/app-config';
import { JoseCryptoKey, loadJose } from './jose';
import { issuerUrls } from './issuers';
import { GeneratedKey, KeyMaterial, SigningKeyUnavailableError } from './key-material';
import type { PublicJwk, SigningKey } from './signing-key.entity';
import { isPublished, SigningKeyView, toSigningKeyView } from './signing-key-view';
import { RotationResult, SigningKeysStore } from './signing-keys.store';

/**
 * How stale one instance's view of the keys may get: after a rotation made elsewhere (another
 * instance, the CLI on PostgreSQL), this instance signs with the new active key within this bound.
 */
export const KEY_CACHE_SECONDS = 10;
/** Clock difference tolerated between instances, and when verifying exp/nbf. */
export const CLOCK_SKEW_SECONDS = 60;
/** An unknown kid re-reads the keys at most this often (a forged kid cannot force a query each time). */
const UNKNOWN_KID_RELOAD_MS = 1000;

/**
 * The OpenID Connect signing keys (docs/oidc.md, "Signing keys"): for each alg of
 * ID_TOKEN_SIGNING_ALGS its own keys, generated here on the alg's first use (RS256 on any first
 * use), stored with the private key encrypted, published before they sign, kept published after
 * they stop signing until every token they signed has expired.
 */
@Injectable()
export class SigningKeysService {
  private readonly logger = new Logger('SigningKeys');
  private readonly material: KeyMaterial;
  private readonly store: SigningKeysStore;
  private view?: { loadedAt: number; keys: SigningKey[] };
  private loading?: Promise<SigningKey[]>;
  private generation = 0;
  private readonly privateKeys = new Map<string, Promise<JoseCryptoKey>>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.material = new KeyMaterial(config.signingKeysSecret);
    this.store = new SigningKeysStore(dataSource);
  }

  /**
   * Compact JWS of `payload` with the active key of `alg`: header { alg, kid, typ }, typ `JWT`
   * unless told (a logout token's is `logout+jwt`, so it is never taken for an id_token).
   */
  async sign(
    payload: Record<string, unknown>,
    alg: IdTokenSigningAlg = DEFAULT_ID_TOKEN_SIGNING_ALG,
    typ = 'JWT',
  ): Promise<string> {
    const active = await this.activeKey(alg);
    const privateKey = await this.privateKey(active);
    const jose = await loadJose();
    return new jose.SignJWT(payload)
      .setProtectedHeader({ alg, kid: active.kid, typ })
      .sign(privateKey);
  }

  /** The published JWK Set (RFC 7517 section 5): next, active and unexpired retired keys. */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    const now = this.clock.now();
    const keys = (await this.keys()).filter((key) => isPublished(key, now));
    return { keys: keys.map((key) => ({ ...key.publicJwk })) };
  }

  /**
   * The payload of a JWS signed by one of our published keys, with that key's own alg, with iss =
   * one of our issuers (issuers.ts), or null.
   * `ignoreExpiry`: OIDC RP-Initiated Logout 1.0 section 2 accepts an expired id_token_hint.
   */
  async verify(
    jws: string,
    options: { ignoreExpiry?: boolean } = {},
  ): Promise<Record<string, unknown> | null> {
    const jose = await loadJose();
    let header: { kid?: unknown; alg?: unknown };
    try {
      header = jose.decodeProtectedHeader(jws);
    } catch {
      return null;
    }
    const { kid, alg } = header;
    // Only our algorithms: never none, never an HMAC keyed with a public key.
    if (typeof kid !== 'string' || !isIdTokenSigningAlg(alg)) return null;
    let keys = await this.keys();
    // A key rotated in elsewhere may be newer than this view: read again, at most once a second.
    if (!keys.some((key) => key.kid === kid) && this.viewAgeMs() >= UNKNOWN_KID_RELOAD_MS) {
      keys = await this.reload();
    }
    const now = this.clock.now();
    // The kid's key verifies with its own alg only: a kid of one algorithm never verifies another.
    const key = keys.find((candidate) => candidate.kid === kid && isPublished(candidate, now));
    if (!key || key.alg !== alg) return null;
    try {
      const { payload } = await jose.jwtVerify(
        jws,
        jose.createLocalJWKSet({ keys: [key.publicJwk] }),
        {
          issuer: issuerUrls(this.config.publicBaseUrl),
          algorithms: [key.alg],
          currentDate: now,
          clockTolerance: CLOCK_SKEW_SECONDS,
        },
      );
      return payload;
    } catch (error) {
      // jose checks exp last, after the signature, iss and nbf: an expired token passed them all.
      if (options.ignoreExpiry && error instanceof jose.errors.JWTExpired) return error.payload;
      return null;
    }
  }

  /**
   * For `alg`: active → retired, next → active, and a fresh next, in one transaction under the
   * lock (the first pair of an alg never used yet). The other algs' keys are untouched.
   */
  async rotate(alg: IdTokenSigningAlg = DEFAULT_ID_TOKEN_SIGNING_ALG): Promise<RotationResult> {
    const fresh = await this.material.generate(alg);
    const result = await this.store.locked((manager) => this.rotateLocked(manager, alg, fresh));
    this.invalidate();
    this.logger.log(`Signing keys rotated: ${JSON.stringify(result)}`);
    return result;
  }

  /**
   * Every alg in use (one with an active key; RS256 always) rotated as `rotate(alg)` does, in one
   * transaction, in the order of ID_TOKEN_SIGNING_ALGS. An alg never used keeps having no key.
   */
  async rotateAll(): Promise<RotationResult[]> {
    const inUse = new Set(
      (await this.store.all()).filter((k) => k.state === 'active').map((k) => k.alg),
    );
    const algs = ID_TOKEN_SIGNING_ALGS.filter(
      (alg) => alg === DEFAULT_ID_TOKEN_SIGNING_ALG || inUse.has(alg),
    );
    const fresh = await Promise.all(algs.map((alg) => this.material.generate(alg)));
    const results = await this.store.locked(async (manager) => {
      const rotated: RotationResult[] = [];
      for (const [index, alg] of algs.entries()) {
        rotated.push(await this.rotateLocked(manager, alg, fresh[index]));
      }
      return rotated;
    });
    this.invalidate();
    this.logger.log(`Signing keys rotated: ${JSON.stringify(results)}`);
    return results;
  }

  /** Every stored key, newest first (retired ones until the purge deletes them). */
  async list(): Promise<SigningKeyView[]> {
    return (await this.store.all()).map(toSigningKeyView);
  }

  /** How long a retired key stays published: the id_token lifetime, the cache bound, the skew. */
  get retentionSeconds(): number {
    return this.config.idTokenTtlSeconds + KEY_CACHE_SECONDS + CLOCK_SKEW_SECONDS;
  }

  private async rotateLocked(
    manager: EntityManager,
    alg: IdTokenSigningAlg,
    fresh: GeneratedKey,
    spare?: GeneratedKey,
  ): Promise<RotationResult> {
    const now = this.clock.now();
    const { active, next } = await this.store.current(manager, alg);
    const until = new Date(now.getTime() + this.retentionSeconds * 1000);
    if (active) await this.store.retire(manager, active.kid, now, until);
    let activeKid: string;
    if (next && this.material.opens(next.kid, alg, next.privateKeySealed)) {
      await this.store.activate(manager, next.kid, now);
      activeKid = next.kid;
    } else {
      // A next key sealed under another SIGNING_KEYS_SECRET could never sign: it leaves the
      // JWKS at once (it signed nothing) and a fresh key becomes active without the head start.
      if (next) {
        await this.store.retire(manager, next.kid, now, now);
        this.logger.warn(`Signing key ${next.kid} does not decrypt: retired, not promoted`);
      }
      const replacement = spare ?? (await this.material.generate(alg));
      await this.store.insert(manager, replacement, 'active', now);
      activeKid = replacement.kid;
    }
    await this.store.insert(manager, fresh, 'next', now);
    return { alg, active: activeKid, next: fresh.kid, retired: active?.kid ?? null };
  }

  /** The active key of `alg`; on the alg's first use, its pair is created first. */
  private async activeKey(alg: IdTokenSigningAlg): Promise<SigningKey> {
    const find = (keys: SigningKey[]): SigningKey | undefined =>
      keys.find((key) => key.state === 'active' && key.alg === alg);
    let active = find(await this.keys());
    // Another instance may have created the alg's keys since this view was read: look first, so
    // that keys are generated only when the alg really has none.
    for (let attempt = 0; !active && attempt < 2; attempt++) {
      if (attempt === 1) await this.ensureKeys(alg);
      this.invalidate();
      active = find(await this.reload());
    }
    if (!active) throw new Error(`no active ${alg} signing key after creating one`);
    return active;
  }

  /** First use of `alg`: an active and a next key, created by exactly one instance (advisory lock). */
  private async ensureKeys(alg: IdTokenSigningAlg): Promise<void> {
    // Generated before the lock, so the transaction stays short; the loser's pair is discarded.
    const [fresh, spare] = await Promise.all([
      this.material.generate(alg),
      this.material.generate(alg),
    ]);
    const created = await this.store.locked(async (manager) =>
      (await this.store.current(manager, alg)).active
        ? null
        : this.rotateLocked(manager, alg, fresh, spare),
    );
    if (created) this.logger.log(`Signing keys created: ${JSON.stringify(created)}`);
  }

  private async keys(): Promise<SigningKey[]> {
    const age = this.viewAgeMs();
    if (this.view && age < KEY_CACHE_SECONDS * 1000) return this.view.keys;
    return this.reload();
  }

  /** Milliseconds since the view was read; Infinity without one or when the clock went back. */
  private viewAgeMs(): number {
    if (!this.view) return Number.POSITIVE_INFINITY;
    const age = this.clock.now().getTime() - this.view.loadedAt;
    return age < 0 ? Number.POSITIVE_INFINITY : age;
  }

  private reload(): Promise<SigningKey[]> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<SigningKey[]> {
    const generation = this.generation;
    const now = this.clock.now();
    let keys = await this.store.published(now);
    const isDefault = (key: SigningKey): boolean => key.alg === DEFAULT_ID_TOKEN_SIGNING_ALG;
    if (!keys.some((key) => key.state === 'active' && isDefault(key))) {
      await this.ensureKeys(DEFAULT_ID_TOKEN_SIGNING_ALG);
      keys = await this.store.published(now);
    }
    // A rotation by this instance while reading: its own invalidate() wins over this result.
    if (generation === this.generation) this.view = { loadedAt: now.getTime(), keys };
    for (const kid of this.privateKeys.keys()) {
      if (!keys.some((key) => key.kid === kid)) this.privateKeys.delete(kid);
    }
    return keys;
  }

  private invalidate(): void {
    this.generation += 1;
    this.view = undefined;
    this.loading = undefined;
  }

  private async privateKey(key: SigningKey): Promise<JoseCryptoKey> {
    let imported = this.privateKeys.get(key.kid);
    if (!imported) {
      imported = this.material.privateKey(key.kid, key.alg, key.privateKeySealed);
      this.privateKeys.set(key.kid, imported);
    }
    try {
      return await imported;
    } catch (error) {
      this.privateKeys.delete(key.kid);
      if (error instanceof SigningKeyUnavailableError) this.logger.error(error.message);
      throw error;
    }
  }
}
