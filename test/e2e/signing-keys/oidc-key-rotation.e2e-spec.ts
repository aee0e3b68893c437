import { PurgeService } from '../../../src/modules/maintenance/purge.service';
import {
  KEY_CACHE_SECONDS,
  SigningKeysService,
} from '../../../src/modules/signing-keys/signing-keys.service';
import { oauthSetup } from '../../support/oauth';
import {
  listeningApp,
  openidFlow,
  type ClientConfig,
  type OpenIdClient,
} from '../../support/oidc-client';
import type { TestApp } from '../../support/test-app';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type Jwks = { keys: { kid: string }[] };

/**
 * Required tests of OpenID Connect: key rotation with a client that cached the JWKS, and an
 * id_token signed by a retired key verifying until it expires (docs/oidc.md, "Signing keys").
 */
describe('OpenID Connect key rotation seen by relying parties', () => {
  let t: TestApp;
  let base: string;
  let oc: OpenIdClient;
  let jose: Jose;
  let keys: SigningKeysService;
  beforeAll(async () => {
    ({ t, base } = await listeningApp());
    oc = await import('openid-client');
    jose = await import('jose');
    keys = t.app.get(SigningKeysService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    // The truncated keys leave the service's view within KEY_CACHE_SECONDS: move past it.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  /**
   * A none client configured from discovery; every JWKS the library downloads is recorded.
   * openid-client checks an id_token's signature only with non-repudiation checks on (OIDC Core
   * 3.1.3.7 lets a client rely on TLS instead), so they are turned on here.
   */
  async function client(): Promise<{ config: ClientConfig; fetched: Jwks[] }> {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const fetched: Jwks[] = [];
    const recording = async (url: string, init: RequestInit): Promise<Response> => {
      const res = await fetch(url, init);
      if (new URL(url).pathname === '/api/oidc/jwks')
        fetched.push((await res.clone().json()) as Jwks);
      return res;
    };
    const config = await oc.discovery(new URL(base), application.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
      [oc.customFetch]: recording,
    });
    return { config, fetched };
  }

  const kidOf = (jws: string): string | undefined => jose.decodeProtectedHeader(jws).kid;
  const kids = (jwks: Jwks): string[] => jwks.keys.map((key) => key.kid);
  const publishedJwks = async (): Promise<Jwks> => {
    const res = await t.http().get('/api/oidc/jwks');
    expect(res.status).toBe(200);
    return res.body as Jwks;
  };

  it('lets one Configuration that cached the JWKS validate id_tokens across a rotation', async () => {
    const { config, fetched } = await client();
    const first = (await openidFlow(oc, config, base, 'alice')).tokens;
    expect(fetched).toHaveLength(1);
    const cached = kids(fetched[0]);

    const rotation = await keys.rotate();
    expect(rotation.retired).toBe(kidOf(first.id_token!));

    // The same Configuration object; the library validates the new id_token with its cache.
    const second = (await openidFlow(oc, config, base, 'alice')).tokens;
    const [before, after] = [kidOf(first.id_token!), kidOf(second.id_token!)];
    expect(after).not.toBe(before);
    expect(after).toBe(rotation.active);
    // Published as next one rotation earlier, so the client already held it: no new download.
    expect(cached).toContain(after);
    expect(fetched).toHaveLength(1);
    expect(second.claims()!.sub).toBe(first.claims()!.sub);
  });

  it('verifies an id_token of a retired key until it expires, not once the key is purged', async () => {
    const { config } = await client();
    const { tokens } = await openidFlow(oc, config, base, 'alice');
    const idToken = tokens.id_token!;
    const { exp } = jose.decodeJwt(idToken);
    const { retired } = await keys.rotate();
    expect(retired).toBe(kidOf(idToken));
    const verify = async () =>
      jose.jwtVerify(idToken, jose.createLocalJWKSet(await publishedJwks()), {
        issuer: base,
        audience: config.clientMetadata().client_id,
        algorithms: ['RS256'],
        currentDate: t.clock.now(),
      });

    // A second before exp: still published, still valid.
    t.clock.set(new Date((exp! - 1) * 1000));
    expect(kids(await publishedJwks())).toContain(retired);
    expect((await verify()).payload.sub).toBe(tokens.claims()!.sub);

    // Past exp and the retention that follows the rotation: unpublished, then purged.
    t.clock.set(new Date((exp! + keys.retentionSeconds) * 1000));
    expect(kids(await publishedJwks())).not.toContain(retired);
    await expect(verify()).rejects.toThrow(jose.errors.JWKSNoMatchingKey);
    const purge = await t.app.get(PurgeService).runOnce();
    expect(purge.deleted.signingKeys).toBe(1);
    expect((await keys.list()).map((key) => key.kid)).not.toContain(retired);
    await expect(verify()).rejects.toThrow(jose.errors.JWKSNoMatchingKey);
  });
});
