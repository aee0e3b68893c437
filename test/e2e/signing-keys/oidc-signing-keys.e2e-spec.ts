import { loadConfig } from '../../../src/config/app-config';
import { PurgeService } from '../../../src/modules/maintenance/purge.service';
import { loadJose } from '../../../src/modules/signing-keys/jose';
import {
  KEY_CACHE_SECONDS,
  SigningKeysService,
} from '../../../src/modules/signing-keys/signing-keys.service';
import { runInApp } from '../../factories';
import { childEnv, runCli } from '../../support/cli';
import { ISSUER } from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';
import { testEnv, usingRealServices } from '../../support/test-env';

const PUBLIC_MEMBERS = ['alg', 'e', 'kid', 'kty', 'n', 'use'];
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

/** Signing keys published before they sign, kept until their tokens expire. */
describe('OpenID Connect signing keys (JWKS, rotation, several instances)', () => {
  let t: TestApp;
  // A second instance on the same database: a second app with DATABASE_URL; on the embedded
  // database (one process only) a second SigningKeysService, with its own cache, on the same one.
  let second: TestApp | undefined;
  let a: SigningKeysService;
  let b: SigningKeysService;

  beforeAll(async () => {
    t = await createTestApp();
    a = t.app.get(SigningKeysService);
    if (usingRealServices()) {
      second = await createTestApp({ clock: t.clock });
      b = second.app.get(SigningKeysService);
    } else {
      b = new SigningKeysService(t.dataSource, loadConfig(testEnv()), t.clock);
    }
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
    // Every instance reads the (now empty) table again.
    t.clock.advance(KEY_CACHE_SECONDS * 1000);
  });

  const cli = async (...argv: string[]) => {
    const result = await runInApp(t.app, argv);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };
  const kidOf = async (jws: string) => (await loadJose()).decodeProtectedHeader(jws).kid;
  const httpKids = async (app: TestApp) => {
    const res = await app.http().get('/api/oidc/jwks');
    expect(res.status).toBe(200);
    return (res.body as { keys: { kid: string }[] }).keys.map((key) => key.kid).sort();
  };
  const listed = async () =>
    (await cli('signing-key', 'list', '--json')).items as { kid: string; state: string }[];
  const kidIn = (items: { kid: string; state: string }[], state: string) =>
    items.find((item) => item.state === state)!.kid;

  it('serves the active and next keys at /api/oidc/jwks, public members only, without a key', async () => {
    const res = await t.http().get('/api/oidc/jwks');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const keys = (res.body as { keys: Record<string, unknown>[] }).keys;
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(PUBLIC_MEMBERS);
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
      for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
    }
    const items = await listed();
    expect(items.map((item) => item.state).sort()).toEqual(['active', 'next']);
    expect(keys.map((key) => key.kid).sort()).toEqual(items.map((item) => item.kid).sort());
    // The CLI shows public facts only.
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(
        ['activatedAt', 'alg', 'createdAt', 'kid', 'publishedUntil', 'retiredAt', 'state'].sort(),
      );
    }
    expect(await kidOf(await a.sign({ iss: ISSUER }))).toBe(kidIn(items, 'active'));
  });

  it('rotates through the CLI: the published next key signs, the old one stays published', async () => {
    await t.http().get('/api/oidc/jwks');
    const before = await listed();
    const [active, next] = [kidIn(before, 'active'), kidIn(before, 'next')];
    let rotated: Record<string, unknown>;
    if (usingRealServices()) {
      // A separate CLI process on the same PostgreSQL database.
      const env = childEnv({ DATABASE_URL: process.env.DATABASE_URL });
      const run = await runCli(['signing-key', 'rotate', '--json'], env);
      expect(run.code).toBe(0);
      rotated = JSON.parse(run.stdout) as Record<string, unknown>;
      // The service reads the keys again within KEY_CACHE_SECONDS (docs/oidc.md).
      t.clock.advance(KEY_CACHE_SECONDS * 1000);
    } else {
      // The embedded database: the CLI's command runs inside the service (admin socket).
      rotated = await cli('signing-key', 'rotate', '--json');
    }
    // Without --alg every alg in use rotates: only RS256 here, its kids at the top level too.
    const rs256 = { alg: 'RS256', active: next, next: expect.any(String), retired: active };
    expect(rotated).toEqual({ ...rs256, algorithms: [rs256] });
    expect(await httpKids(t)).toEqual([active, next, rotated.next].sort());
    expect(await kidOf(await a.sign({ iss: ISSUER }))).toBe(next);
    const after = await listed();
    expect(after.find((item) => item.kid === active)).toMatchObject({
      state: 'retired',
      publishedUntil: expect.any(String),
    });
  });

  it('lets instances starting together create one pair, and agree after a rotation', async () => {
    const [first, other] = await Promise.all([a.jwks(), b.jwks()]);
    expect(other).toEqual(first);
    expect(await listed()).toHaveLength(2);
    const old = await kidOf(await a.sign({ iss: ISSUER }));
    const { active } = await b.rotate();
    // Until a reads the keys again it signs with the retired key, which every instance accepts.
    const late = await a.sign({ iss: ISSUER });
    expect(await b.verify(late)).toEqual({ iss: ISSUER });
    expect(await kidOf(late)).toBe(old);
    t.clock.advance(KEY_CACHE_SECONDS * 1000);
    expect(await kidOf(await a.sign({ iss: ISSUER }))).toBe(active);
    expect(await kidOf(await b.sign({ iss: ISSUER }))).toBe(active);
    expect(await a.jwks()).toEqual(await b.jwks());
    if (second) expect(await httpKids(second)).toEqual(await httpKids(t));
  });

  it('verifies a token signed before a rotation until it expires, then unpublishes and purges the key', async () => {
    const jose = await loadJose();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const claims = { iss: ISSUER, sub: '1', aud: 'client', iat: now, exp: now + 3600 };
    const token = await a.sign(claims);
    const { retired } = await a.rotate();
    const verifyAgainstJwks = async () => {
      const jwks = (await t.http().get('/api/oidc/jwks')).body as { keys: [] };
      return jose.jwtVerify(token, jose.createLocalJWKSet(jwks), {
        issuer: ISSUER,
        currentDate: t.clock.now(),
        clockTolerance: 60,
      });
    };
    t.clock.advance(3599_000);
    expect((await verifyAgainstJwks()).payload).toEqual(claims);
    expect(await httpKids(t)).toContain(retired);

    // Retention: ID_TOKEN_TTL_SECONDS + KEY_CACHE_SECONDS + 60 s of clock skew after the rotation.
    t.clock.advance((1 + KEY_CACHE_SECONDS + 60) * 1000);
    expect(await httpKids(t)).not.toContain(retired);
    await expect(verifyAgainstJwks()).rejects.toThrow(jose.errors.JWKSNoMatchingKey);
    expect(await a.verify(token, { ignoreExpiry: true })).toBeNull();
    const purge = await t.app.get(PurgeService).runOnce();
    expect(purge.deleted.signingKeys).toBe(1);
    expect((await listed()).map((item) => item.kid)).not.toContain(retired);
  });
});
