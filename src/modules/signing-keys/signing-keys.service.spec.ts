import { Logger } from '@nestjs/common';
import { FixedClock } from '../../../test/support/fixed-clock';
import { migratedDatabase, MigratedDatabase } from '../../../test/support/migrated-database';
import { ID_TOKEN_SIGNING_ALGS } from '../../common/crypto/signing-algs';
import { loadConfig } from '../../config/app-config';
import { loadJose } from './jose';
import { KeyMaterial, SigningKeyUnavailableError } from './key-material';
import { CLOCK_SKEW_SECONDS, KEY_CACHE_SECONDS, SigningKeysService } from './signing-keys.service';

const START = new Date('2030-01-01T00:00:00Z');
const ISSUER = 'https://id.example.com';
const SECRET = 'a-signing-keys-secret-of-sufficient-length';

/** Lifecycle of the keys against a real database (PostgreSQL with DATABASE_URL, else PGlite). */
describe(SigningKeysService.name, () => {
  let db: MigratedDatabase;
  let clock: FixedClock;
  beforeAll(async () => {
    db = await migratedDatabase();
  });
  afterAll(() => db.drop());
  beforeEach(async () => {
    clock = new FixedClock(START);
    await db.dataSource.query('TRUNCATE signing_keys RESTART IDENTITY');
  });
  afterEach(() => jest.restoreAllMocks());

  /** One instance of the service; several share the database as several processes would. */
  function instance(secret = SECRET): SigningKeysService {
    const config = loadConfig({ PUBLIC_BASE_URL: ISSUER, SIGNING_KEYS_SECRET: secret });
    return new SigningKeysService(db.dataSource, config, clock);
  }
  async function kidOf(jws: string): Promise<unknown> {
    return (await loadJose()).decodeProtectedHeader(jws).kid;
  }
  const kids = async (service: SigningKeysService) =>
    (await service.jwks()).keys.map((key) => key.kid).sort();

  describe('first use', () => {
    it('creates an active and a next key, both published', async () => {
      const service = instance();
      expect(await service.list()).toEqual([]);
      const { keys } = await service.jwks();
      const list = await service.list();
      expect(list.map((key) => key.state).sort()).toEqual(['active', 'next']);
      const active = list.find((key) => key.state === 'active')!;
      expect(active).toMatchObject({ alg: 'RS256', createdAt: START, activatedAt: START });
      expect(list.find((key) => key.state === 'next')).toMatchObject({ activatedAt: null });
      expect(keys.map((key) => key.kid).sort()).toEqual(list.map((key) => key.kid).sort());
      expect(await kidOf(await service.sign({ iss: ISSUER }))).toBe(active.kid);
    });

    it('creates exactly one pair when several instances start together', async () => {
      const services = [instance(), instance(), instance()];
      const sets = await Promise.all(services.map((service) => kids(service)));
      expect(sets[1]).toEqual(sets[0]);
      expect(sets[2]).toEqual(sets[0]);
      expect(await services[0].list()).toHaveLength(2);
    });
  });

  describe('rotate', () => {
    it('retires the active key, promotes the next one and publishes a fresh next', async () => {
      const service = instance();
      await service.jwks();
      const before = await service.list();
      const oldActive = before.find((key) => key.state === 'active')!.kid;
      const oldNext = before.find((key) => key.state === 'next')!.kid;
      clock.advance(60_000);
      const result = await service.rotate();
      expect(result).toEqual({
        alg: 'RS256',
        active: oldNext,
        next: expect.any(String),
        retired: oldActive,
      });
      const after = await service.list();
      const now = clock.now();
      const until = new Date(
        now.getTime() + (3600 + KEY_CACHE_SECONDS + CLOCK_SKEW_SECONDS) * 1000,
      );
      expect(after.find((key) => key.kid === oldActive)).toMatchObject({
        state: 'retired',
        retiredAt: now,
        publishedUntil: until,
      });
      expect(after.find((key) => key.kid === oldNext)).toMatchObject({
        state: 'active',
        activatedAt: now,
      });
      expect(after.find((key) => key.kid === result.next)).toMatchObject({ state: 'next' });
      expect(await kids(service)).toEqual([oldActive, oldNext, result.next].sort());
      expect(await kidOf(await service.sign({ iss: ISSUER }))).toBe(oldNext);
    });

    it('keeps a retired key published until its tokens have expired, then verifies with it no more', async () => {
      const service = instance();
      const token = await service.sign({ iss: ISSUER, exp: START.getTime() / 1000 + 3600 });
      const { retired } = await service.rotate();
      expect(await service.verify(token)).toMatchObject({ iss: ISSUER });
      const published = (await service.list()).find((key) => key.kid === retired)!.publishedUntil!;
      clock.set(new Date(published.getTime() - 1000));
      expect(await kids(service)).toContain(retired);
      clock.set(published);
      expect(await kids(service)).not.toContain(retired);
      expect(await service.verify(token, { ignoreExpiry: true })).toBeNull();
    });

    it('is seen by every instance within KEY_CACHE_SECONDS; their tokens keep verifying', async () => {
      const a = instance();
      const b = instance();
      const first = await kidOf(await b.sign({ iss: ISSUER }));
      const { active } = await a.rotate();
      expect(await kidOf(await a.sign({ iss: ISSUER }))).toBe(active);
      // b has not read the keys again yet: it still signs with the retired key, which is published.
      const late = await b.sign({ iss: ISSUER });
      expect(await kidOf(late)).toBe(first);
      expect(await a.verify(late)).not.toBeNull();
      clock.advance(KEY_CACHE_SECONDS * 1000);
      expect(await kidOf(await b.sign({ iss: ISSUER }))).toBe(active);
      expect(await kids(b)).toEqual(await kids(a));
    });
  });

  describe('one set of keys per alg', () => {
    const states = async (service: SigningKeysService) =>
      (await service.list()).map((key) => `${key.alg} ${key.state}`).sort();

    it("creates an alg's pair on its first use, leaving the other algs' keys alone", async () => {
      const service = instance();
      const rsKids = await kids(service);
      expect(await states(service)).toEqual(['RS256 active', 'RS256 next']);
      const token = await service.sign({ iss: ISSUER }, 'ES256');
      expect(await states(service)).toEqual([
        'ES256 active',
        'ES256 next',
        'RS256 active',
        'RS256 next',
      ]);
      const es = (await service.list()).find((k) => k.alg === 'ES256' && k.state === 'active')!;
      expect(await kidOf(token)).toBe(es.kid);
      expect(await kids(service)).toEqual(expect.arrayContaining(rsKids));
      expect(await kids(service)).toHaveLength(4);
    });

    it('creates exactly one pair of an alg when several instances sign with it together', async () => {
      const services = [instance(), instance(), instance()];
      await services[0].jwks();
      const signed = await Promise.all(services.map((s) => s.sign({ iss: ISSUER }, 'EdDSA')));
      const signers = await Promise.all(signed.map((jws) => kidOf(jws)));
      expect(new Set(signers).size).toBe(1);
      expect(await states(services[0])).toEqual([
        'EdDSA active',
        'EdDSA next',
        'RS256 active',
        'RS256 next',
      ]);
    });

    it("uses the alg's keys another instance created since its view was read, generating none", async () => {
      const a = instance();
      const b = instance();
      await b.jwks();
      const first = await a.sign({ iss: ISSUER }, 'ES256');
      const generated = jest.spyOn(KeyMaterial.prototype, 'generate');
      expect(await kidOf(await b.sign({ iss: ISSUER }, 'ES256'))).toBe(await kidOf(first));
      expect(generated).not.toHaveBeenCalled();
    });

    it("rotates one alg and leaves the other algs' keys as they were", async () => {
      const service = instance();
      const psToken = await service.sign({ iss: ISSUER }, 'PS256');
      const rsToken = await service.sign({ iss: ISSUER }, 'RS256');
      const before = await service.list();
      const result = await service.rotate('PS256');
      expect(result).toMatchObject({ alg: 'PS256', retired: await kidOf(psToken) });
      const after = await service.list();
      for (const key of before.filter((k) => k.alg === 'RS256')) {
        expect(after.find((k) => k.kid === key.kid)).toEqual(key);
      }
      expect(await kidOf(await service.sign({ iss: ISSUER }, 'PS256'))).toBe(result.active);
      expect(await kidOf(await service.sign({ iss: ISSUER }, 'RS256'))).toBe(await kidOf(rsToken));
      // The retired PS256 key still verifies what it signed.
      expect(await service.verify(psToken)).toMatchObject({ iss: ISSUER });
    });

    it('rotates every alg in use with rotateAll, RS256 always, and creates none for an unused alg', async () => {
      const service = instance();
      const tokens = await Promise.all(
        (['RS256', 'ES256', 'EdDSA'] as const).map((alg) => service.sign({ iss: ISSUER }, alg)),
      );
      const results = await service.rotateAll();
      expect(results.map((r) => r.alg)).toEqual(['RS256', 'ES256', 'EdDSA']);
      for (const [index, token] of tokens.entries()) {
        expect(results[index].retired).toBe(await kidOf(token));
        expect(await service.verify(token)).toMatchObject({ iss: ISSUER });
      }
      expect((await service.list()).some((key) => key.alg === 'PS256')).toBe(false);
      expect(await states(service)).toEqual(
        ['EdDSA', 'ES256', 'RS256']
          .flatMap((alg) => [`${alg} active`, `${alg} next`, `${alg} retired`])
          .sort(),
      );
    });
  });

  describe('encryption at rest', () => {
    it('stores no plaintext private key and no private JWK member, for every alg', async () => {
      const service = instance();
      for (const alg of ID_TOKEN_SIGNING_ALGS) await service.sign({ iss: ISSUER }, alg);
      const rows: { public_jwk: Record<string, unknown>; private_key_sealed: string }[] =
        await db.dataSource.query('SELECT public_jwk, private_key_sealed FROM signing_keys');
      expect(rows).toHaveLength(8);
      const members: Record<string, string[]> = {
        RSA: ['e', 'n'],
        EC: ['crv', 'x', 'y'],
        OKP: ['crv', 'x'],
      };
      for (const row of rows) {
        expect(Object.keys(row.public_jwk).sort()).toEqual(
          ['alg', 'kid', 'kty', 'use', ...members[row.public_jwk.kty as string]].sort(),
        );
        expect(row.private_key_sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
        expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
      }
    });

    it('fails clearly and logs when SIGNING_KEYS_SECRET changed; two rotations recover', async () => {
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      await instance().jwks();
      const changed = instance('another-signing-keys-secret-value-here');
      await expect(changed.sign({ iss: ISSUER })).rejects.toThrow(SigningKeyUnavailableError);
      expect(logged).toHaveBeenCalledWith(
        expect.stringMatching(/does not decrypt with SIGNING_KEYS_SECRET/),
      );
      // The next key cannot open either: it is dropped from the JWKS and a fresh key signs.
      const { active, next } = await changed.rotate();
      expect(await kidOf(await changed.sign({ iss: ISSUER }))).toBe(active);
      expect(await kids(changed)).toEqual(expect.arrayContaining([active, next]));
      expect(await kids(changed)).toHaveLength(3);
    });

    it('refuses a tampered private key at signing', async () => {
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      await instance().jwks();
      await db.dataSource.query(
        `UPDATE signing_keys SET private_key_sealed = 'v1.' || translate(substr(private_key_sealed, 4), 'AB', 'BA') WHERE state = 'active'`,
      );
      await expect(instance().sign({ iss: ISSUER })).rejects.toThrow(SigningKeyUnavailableError);
    });
  });
});
