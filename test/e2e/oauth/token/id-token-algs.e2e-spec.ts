import { createHash } from 'node:crypto';
import {
  ID_TOKEN_SIGNING_ALGS,
  type IdTokenSigningAlg,
} from '../../../../src/common/crypto/signing-algs';
import { ApplicationsService } from '../../../../src/modules/applications/applications.service';
import { loadJose } from '../../../../src/modules/signing-keys/jose';
import {
  KEY_CACHE_SECONDS,
  SigningKeysService,
} from '../../../../src/modules/signing-keys/signing-keys.service';
import { createApplication, runInApp } from '../../../factories';
import { oauthSetup, REDIRECT_URI } from '../../../support/oauth';
import { listeningApp, openidFlow, type OpenIdClient } from '../../../support/oidc-client';
import type { TestApp } from '../../../support/test-app';

const PUBLIC_MEMBERS: Record<string, string[]> = {
  RSA: ['e', 'n'],
  EC: ['crv', 'x', 'y'],
  OKP: ['crv', 'x'],
};

/**
 * OIDC Core 3.1.3.6, computed here on its own: the left half of the alg's hash of the access
 * token; SHA-512 for EdDSA (Ed25519), SHA-256 for the others (docs/oidc.md, "id_token").
 */
function expectedAtHash(accessToken: string, alg: IdTokenSigningAlg): string {
  const digest = createHash(alg === 'EdDSA' ? 'sha512' : 'sha256')
    .update(accessToken)
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

// id_token_signed_response_alg per client (OIDC Dynamic Client Registration 1.0 section 2),
// driven by a certified relying-party library that is told the client's alg.
describe('id_tokens signed with the alg of each client (RS256, PS256, ES256, EdDSA)', () => {
  let t: TestApp;
  let base: string;
  let oc: OpenIdClient;
  beforeAll(async () => {
    ({ t, base } = await listeningApp());
    oc = await import('openid-client');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    // The truncated signing keys leave the service's view within KEY_CACHE_SECONDS.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  const headerOf = async (jws: string) => (await loadJose()).decodeProtectedHeader(jws);
  const setAlg = (id: number, alg: IdTokenSigningAlg) =>
    t.app.get(ApplicationsService).update(id, { idTokenSignedResponseAlg: alg });
  /** The openid-client configuration of a none client, told its alg when it has one. */
  const configFor = (clientId: string, alg?: IdTokenSigningAlg) =>
    oc.discovery(
      new URL(base),
      clientId,
      alg ? { id_token_signed_response_alg: alg } : undefined,
      oc.None(),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
  /** The JWK Set as any client fetches it, now. */
  const publishedKeys = async () => {
    const res = await t.http().get('/api/oidc/jwks');
    expect(res.status).toBe(200);
    return (res.body as { keys: Record<string, string>[] }).keys;
  };
  /** A standard verification of an id_token against the JWKS served now. */
  const verifiesNow = async (idToken: string, alg: IdTokenSigningAlg, clientId: string) => {
    const jose = await loadJose();
    const jwks = jose.createLocalJWKSet({ keys: await publishedKeys() });
    const { payload, protectedHeader } = await jose.jwtVerify(idToken, jwks, {
      issuer: base,
      audience: clientId,
      algorithms: [alg],
      currentDate: t.clock.now(),
    });
    expect(protectedHeader.alg).toBe(alg);
    return payload;
  };

  it.each(ID_TOKEN_SIGNING_ALGS)(
    'gives a %s client id_tokens signed with that alg, which openid-client verifies against the JWKS',
    async (alg) => {
      const { application } = await oauthSetup(t.app, { authMethod: 'none' });
      await setAlg(application.id, alg);
      const config = await configFor(application.clientId, alg);
      const { tokens, nonce } = await openidFlow(oc, config, base, 'alice');
      const idToken = tokens.id_token!;
      const header = await headerOf(idToken);
      expect(header).toEqual({ alg, kid: expect.any(String), typ: 'JWT' });
      const claims = tokens.claims()!;
      expect(claims).toMatchObject({ iss: base, aud: application.clientId, nonce });
      expect(claims.at_hash).toBe(expectedAtHash(tokens.access_token, alg));
      // The key that signed is published with its alg, and a remote JWK Set verifies it too.
      const key = (await publishedKeys()).find((jwk) => jwk.kid === header.kid);
      expect(key).toMatchObject({ alg, use: 'sig' });
      const jose = await loadJose();
      const remote = jose.createRemoteJWKSet(new URL(`${base}/api/oidc/jwks`));
      await expect(
        jose.jwtVerify(idToken, remote, { algorithms: [alg], currentDate: t.clock.now() }),
      ).resolves.toBeDefined();
      await verifiesNow(idToken, alg, application.clientId);
      // What end session verifies an id_token_hint with.
      expect(await t.app.get(SigningKeysService).verify(idToken)).toMatchObject({
        sub: claims.sub,
      });
    },
  );

  it("never signs a PS256 client's id_token with RS256 or none, on the exchange and on refresh", async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    await setAlg(application.id, 'PS256');
    // Other clients keep RS256 keys in use beside it.
    await t.app.get(SigningKeysService).sign({ iss: base });
    const config = await configFor(application.clientId, 'PS256');
    const { tokens } = await openidFlow(oc, config, base, 'alice');
    expect((await headerOf(tokens.id_token!)).alg).toBe('PS256');
    const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await headerOf(refreshed.id_token!)).alg).toBe('PS256');
    expect(refreshed.claims()!.at_hash).toBe(expectedAtHash(refreshed.access_token, 'PS256'));
    // A library that expects RS256 (the default) refuses the PS256 token: the alg is enforced.
    const rs256Config = await configFor(application.clientId, 'RS256');
    const refused = await oc.refreshTokenGrant(rs256Config, refreshed.refresh_token!).then(
      () => null,
      (error: Error) => error,
    );
    expect(refused?.cause).toMatchObject({ message: 'unexpected JWT "alg" header parameter' });
  });

  it('keeps a client without the setting on RS256: the header and kid of before', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    expect(application.idTokenSignedResponseAlg).toBeNull();
    const keys = t.app.get(SigningKeysService);
    const { tokens: first } = await openidFlow(
      oc,
      await configFor(application.clientId),
      base,
      'alice',
    );
    const before = (await keys.list()).filter((key) => key.alg === 'RS256');
    const activeKid = before.find((key) => key.state === 'active')!.kid;
    expect(await headerOf(first.id_token!)).toEqual({ alg: 'RS256', kid: activeKid, typ: 'JWT' });
    expect(first.claims()!.at_hash).toBe(expectedAtHash(first.access_token, 'RS256'));
    // Another client's PS256 id_tokens create PS256 keys and touch none of RS256's.
    const { application: other } = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    await setAlg(other.id, 'PS256');
    await openidFlow(oc, await configFor(other.clientId, 'PS256'), base, 'alice');
    const { tokens: second } = await openidFlow(
      oc,
      await configFor(application.clientId),
      base,
      'alice',
    );
    expect(await headerOf(second.id_token!)).toEqual({ alg: 'RS256', kid: activeKid, typ: 'JWT' });
    expect((await keys.list()).filter((key) => key.alg === 'RS256')).toEqual(before);
  });

  it('keeps the id_tokens of every alg verifiable after rotating one alg, then all of them', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const flow = async (alg: IdTokenSigningAlg) => {
      await setAlg(application.id, alg);
      const { tokens } = await openidFlow(
        oc,
        await configFor(application.clientId, alg),
        base,
        'alice',
      );
      return tokens.id_token!;
    };
    const oldPs = await flow('PS256');
    const oldEs = await flow('ES256');
    const rotated = await runInApp(t.app, ['signing-key', 'rotate', '--alg', 'PS256', '--json']);
    expect(rotated.exitCode).toBe(0);
    const ps = JSON.parse(rotated.stdout) as { alg: string; active: string; retired: string };
    expect(ps).toMatchObject({ alg: 'PS256', retired: (await headerOf(oldPs)).kid });
    const newPs = await flow('PS256');
    expect((await headerOf(newPs)).kid).toBe(ps.active);
    // ES256 was not rotated: it signs with the same key.
    const sameEs = await flow('ES256');
    expect((await headerOf(sameEs)).kid).toBe((await headerOf(oldEs)).kid);
    for (const [token, alg] of [
      [oldPs, 'PS256'],
      [newPs, 'PS256'],
      [oldEs, 'ES256'],
    ] as const) {
      await verifiesNow(token, alg, application.clientId);
    }
    const all = await runInApp(t.app, ['signing-key', 'rotate', '--json']);
    expect(all.exitCode).toBe(0);
    const { algorithms } = JSON.parse(all.stdout) as { algorithms: { alg: string }[] };
    // Every alg in use, RS256 always; EdDSA was never used and still has no key.
    expect(algorithms.map((result) => result.alg)).toEqual(['RS256', 'PS256', 'ES256']);
    for (const [token, alg] of [
      [oldPs, 'PS256'],
      [newPs, 'PS256'],
      [oldEs, 'ES256'],
    ] as const) {
      await verifiesNow(token, alg, application.clientId);
      expect(await t.app.get(SigningKeysService).verify(token)).not.toBeNull();
    }
    expect((await publishedKeys()).some((jwk) => jwk.alg === 'EdDSA')).toBe(false);
  });

  it("serves every alg's keys at /api/oidc/jwks, public members only", async () => {
    const keys = t.app.get(SigningKeysService);
    for (const alg of ID_TOKEN_SIGNING_ALGS) await keys.sign({ iss: base }, alg);
    const published = await publishedKeys();
    expect(published).toHaveLength(8);
    expect(new Set(published.map((jwk) => jwk.kid)).size).toBe(8);
    for (const jwk of published) {
      expect(Object.keys(jwk).sort()).toEqual(
        ['alg', 'kid', 'kty', 'use', ...PUBLIC_MEMBERS[jwk.kty]].sort(),
      );
      expect(jwk.use).toBe('sig');
    }
    expect(published.map((jwk) => `${jwk.alg} ${jwk.kty}`).sort()).toEqual(
      ['EdDSA OKP', 'ES256 EC', 'PS256 RSA', 'RS256 RSA'].flatMap((k) => [k, k]).sort(),
    );
    // The CLI lists public facts of every key, never private material.
    const listed = await runInApp(t.app, ['signing-key', 'list', '--json']);
    expect(listed.stdout).not.toMatch(/"(d|p|q|dp|dq|qi|privateKeySealed)"/);
    expect((JSON.parse(listed.stdout) as { items: unknown[] }).items).toHaveLength(8);
  });
});
