import { FixedClock } from '../../../test/support/fixed-clock';
import { migratedDatabase, MigratedDatabase } from '../../../test/support/migrated-database';
import { ID_TOKEN_SIGNING_ALGS } from '../../common/crypto/signing-algs';
import { loadConfig } from '../../config/app-config';
import { loadJose } from './jose';
import { SigningKeysService } from './signing-keys.service';

const START = new Date('2030-01-01T00:00:00Z');
const NOW = START.getTime() / 1000;
const ISSUER = 'https://id.example.com';

describe(`${SigningKeysService.name} sign and verify`, () => {
  let db: MigratedDatabase;
  let clock: FixedClock;
  let service: SigningKeysService;
  beforeAll(async () => {
    db = await migratedDatabase();
    clock = new FixedClock(START);
    service = new SigningKeysService(db.dataSource, loadConfig({ PUBLIC_BASE_URL: ISSUER }), clock);
  });
  afterAll(() => db.drop());
  beforeEach(() => clock.set(START));

  const claims = { iss: ISSUER, sub: '42', aud: 'client', iat: NOW, exp: NOW + 3600 };

  it('signs a compact JWS with header {alg: RS256, kid, typ: JWT} that verifies', async () => {
    const jose = await loadJose();
    const jws = await service.sign(claims);
    expect(jws.split('.')).toHaveLength(3);
    const header = jose.decodeProtectedHeader(jws);
    expect(header).toEqual({ alg: 'RS256', kid: expect.any(String), typ: 'JWT' });
    expect(await service.verify(jws)).toEqual(claims);
    // A standard verifier with the published JWK Set agrees.
    const jwks = jose.createLocalJWKSet(await service.jwks());
    const { payload } = await jose.jwtVerify(jws, jwks, { issuer: ISSUER, currentDate: START });
    expect(payload).toEqual(claims);
  });

  it('refuses an expired token, unless ignoreExpiry (id_token_hint)', async () => {
    const jws = await service.sign(claims);
    clock.advance((3600 + 61) * 1000);
    expect(await service.verify(jws)).toBeNull();
    expect(await service.verify(jws, { ignoreExpiry: true })).toEqual(claims);
  });

  it('refuses another issuer, even with ignoreExpiry', async () => {
    const jws = await service.sign({ ...claims, iss: 'https://evil.example.com' });
    expect(await service.verify(jws)).toBeNull();
    expect(await service.verify(jws, { ignoreExpiry: true })).toBeNull();
  });

  it('refuses a token of a foreign key, even one that claims our kid', async () => {
    const jose = await loadJose();
    const { privateKey } = await jose.generateKeyPair('RS256');
    const ours = jose.decodeProtectedHeader(await service.sign(claims)).kid;
    for (const kid of [ours, 'unknown-kid']) {
      const forged = await new jose.SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .sign(privateKey);
      expect(await service.verify(forged, { ignoreExpiry: true })).toBeNull();
    }
  });

  it('refuses alg none, HS256, a tampered payload and garbage', async () => {
    const jose = await loadJose();
    const jws = await service.sign(claims);
    const [header, , signature] = jws.split('.');
    const body = Buffer.from(JSON.stringify({ ...claims, sub: '43' })).toString('base64url');
    expect(await service.verify(`${header}.${body}.${signature}`)).toBeNull();
    const kid = jose.decodeProtectedHeader(jws).kid;
    const none = new jose.UnsecuredJWT(claims).encode();
    expect(await service.verify(none)).toBeNull();
    const hs = await new jose.SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid })
      .sign(new TextEncoder().encode('x'.repeat(32)));
    expect(await service.verify(hs)).toBeNull();
    for (const garbage of ['', 'a.b.c', 'not a jws', `${header}..`]) {
      expect(await service.verify(garbage)).toBeNull();
    }
  });

  it.each(ID_TOKEN_SIGNING_ALGS)(
    'signs with the active %s key, which a standard verifier and verify() accept',
    async (alg) => {
      const jose = await loadJose();
      const jws = await service.sign(claims, alg);
      const header = jose.decodeProtectedHeader(jws);
      expect(header).toEqual({ alg, kid: expect.any(String), typ: 'JWT' });
      const { keys } = await service.jwks();
      expect(keys.find((key) => key.kid === header.kid)).toMatchObject({ alg, use: 'sig' });
      expect(await service.verify(jws)).toEqual(claims);
      const { payload } = await jose.jwtVerify(jws, jose.createLocalJWKSet({ keys }), {
        issuer: ISSUER,
        algorithms: [alg],
        currentDate: START,
      });
      expect(payload).toEqual(claims);
    },
  );

  it('publishes one key per alg and state, each with a kid of its own', async () => {
    for (const alg of ID_TOKEN_SIGNING_ALGS) await service.sign(claims, alg);
    const { keys } = await service.jwks();
    expect(new Set(keys.map((key) => key.kid)).size).toBe(keys.length);
    expect(keys.map((key) => key.alg).sort()).toEqual(
      ['ES256', 'ES256', 'EdDSA', 'EdDSA', 'PS256', 'PS256', 'RS256', 'RS256'].sort(),
    );
  });

  it("refuses a token whose header names another algorithm than its kid's key (key confusion across algorithms)", async () => {
    const jose = await loadJose();
    const rs = await service.sign(claims, 'RS256');
    const ps = await service.sign(claims, 'PS256');
    const rsKid = jose.decodeProtectedHeader(rs).kid;
    const psKid = jose.decodeProtectedHeader(ps).kid;
    // The same signature bytes relabelled: an RSA kid of one alg with the other RSA alg.
    const relabel = (jws: string, header: object) =>
      [Buffer.from(JSON.stringify(header)).toString('base64url'), ...jws.split('.').slice(1)].join(
        '.',
      );
    expect(await service.verify(relabel(rs, { alg: 'PS256', kid: rsKid, typ: 'JWT' }))).toBeNull();
    expect(await service.verify(relabel(ps, { alg: 'RS256', kid: psKid, typ: 'JWT' }))).toBeNull();
    // A genuine PS256 signature presented under the RS256 key's kid.
    expect(await service.verify(relabel(ps, { alg: 'PS256', kid: rsKid, typ: 'JWT' }))).toBeNull();
    const es = await service.sign(claims, 'ES256');
    const esKid = jose.decodeProtectedHeader(es).kid;
    expect(await service.verify(relabel(es, { alg: 'EdDSA', kid: esKid, typ: 'JWT' }))).toBeNull();
    expect(await service.verify(relabel(es, { alg: 'ES256', kid: esKid, typ: 'JWT' }))).toEqual(
      claims,
    );
  });

  it('refuses HS256 signed with a published public key as the secret', async () => {
    const jose = await loadJose();
    for (const alg of ID_TOKEN_SIGNING_ALGS) await service.sign(claims, alg);
    for (const jwk of (await service.jwks()).keys) {
      // Every encoding of the public key an HMAC confusion attack might try as the secret.
      const pem = await jose.exportSPKI(await jose.importJWK(jwk, jwk.alg, { extractable: true }));
      for (const secret of [JSON.stringify(jwk), pem, jwk.n ?? jwk.x!]) {
        const forged = await new jose.SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256', kid: jwk.kid, typ: 'JWT' })
          .sign(new TextEncoder().encode(secret));
        expect(await service.verify(forged, { ignoreExpiry: true })).toBeNull();
      }
    }
  });
});
