import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { createUser } from '../../../factories';
import { PASSWORD } from '../../../support/oauth';
import {
  clockSkewOf,
  listeningApp,
  openidFlow,
  type OpenIdClient,
} from '../../../support/oidc-client';
import { clientKey, jwksOf, keyedClient, type KeyAlg } from '../../../support/private-key-jwt';
import type { TestApp } from '../../../support/test-app';

// private_key_jwt as a certified relying-party library does it (openid-client 6: PrivateKeyJwt,
// aud = the issuer identifier, a fresh jti per request), at all four endpoints that take it.
describe('openid-client with private_key_jwt (code exchange, refresh, introspection, revocation)', () => {
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
    // The truncated signing keys leave the service's view within KEY_CACHE_SECONDS: move past it,
    // so no id_token is signed with a deleted key.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  // openid-client names an Ed25519 signature `Ed25519` (RFC 9864); remapped, `EdDSA`.
  it.each(['ES256', 'RS256', 'PS256', 'EdDSA', 'Ed25519'] as KeyAlg[])(
    'authenticates with a %s key at every endpoint',
    async (alg) => {
      const key = await clientKey(alg);
      const remap = {
        [oc.modifyAssertion]: (header: { alg?: string }) => {
          if (header.alg === 'Ed25519') header.alg = 'EdDSA';
        },
      };
      const client = await keyedClient(t.app, { jwks: jwksOf(key) });
      const username = `user-${alg.toLowerCase()}`;
      await createUser(t.app, {
        username,
        email: `${username}@example.org`,
        password: PASSWORD,
        emailVerified: true,
        nickname: 'Alice',
      });
      const config = await oc.discovery(
        new URL(base),
        client.clientId,
        clockSkewOf(oc, t),
        oc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }, alg === 'EdDSA' ? remap : {}),
        { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
      );
      expect(config.serverMetadata().token_endpoint_auth_methods_supported).toContain(
        'private_key_jwt',
      );
      const { tokens } = await openidFlow(oc, config, base, username);
      expect(tokens.claims()!.aud).toBe(client.clientId);
      const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.claims()!.sub).toBe(tokens.claims()!.sub);
      const active = await oc.tokenIntrospection(config, refreshed.access_token);
      expect(active).toMatchObject({ active: true, client_id: client.clientId });
      await oc.tokenRevocation(config, refreshed.refresh_token!);
      expect(await oc.tokenIntrospection(config, refreshed.refresh_token!)).toEqual({
        active: false,
      });
      // The revoked family's access token goes with it.
      expect((await oc.tokenIntrospection(config, refreshed.access_token)).active).toBe(false);
    },
  );

  it('is refused with a key the client did not register', async () => {
    const client = await keyedClient(t.app, { jwks: jwksOf(await clientKey('ES256')) });
    const stranger = await clientKey('ES256');
    const config = await oc.discovery(
      new URL(base),
      client.clientId,
      clockSkewOf(oc, t),
      oc.PrivateKeyJwt({ key: stranger.privateKey, kid: stranger.kid }),
      { execute: [oc.allowInsecureRequests] },
    );
    const refused = await oc
      .tokenIntrospection(config, 'anything')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(oc.WWWAuthenticateChallengeError);
    expect(refused).toMatchObject({
      status: 401,
      cause: [expect.objectContaining({ scheme: 'basic' })],
    });
    expect((refused as { response: Response }).response.status).toBe(401);
  });
});
