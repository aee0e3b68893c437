import { ApplicationsService } from '../../../../src/modules/applications/applications.service';
import { DPOP_PROOF_MAX_AGE_SECONDS } from '../../../../src/modules/oauth/dpop/dpop-proof';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { createUser, runInApp } from '../../../factories';
import { consoleWorld } from '../../../support/console';
import { FetchBrowser } from '../../../support/fetch-browser';
import { authorizePath, pkce, PASSWORD, query, REDIRECT_URI } from '../../../support/oauth';
import { clockSkewOf, listeningApp, type OpenIdClient } from '../../../support/oidc-client';
import { dpopKey, noncedProof } from '../../../support/dpop';
import {
  assertionFields,
  clientKey,
  jwksOf,
  loadJose,
  signAssertion,
  type ClientKey,
} from '../../../support/private-key-jwt';
import type { TestApp } from '../../../support/test-app';

/**
 * The FAPI 2.0 Security Profile per client (docs/oidc.md, "FAPI 2.0 Security Profile"): a client
 * registers under `fapi2` only when it meets the profile, and is then served only as the
 * profile says: pushed requests, PKCE, private_key_jwt, DPoP-bound tokens, codes of at most
 * 60 s, ID tokens PS256, ES256 or EdDSA.
 */
describe('FAPI 2.0 Security Profile per client', () => {
  let t: TestApp;
  let base: string;
  let oc: OpenIdClient;
  let key: ClientKey;
  beforeAll(async () => {
    // Codes would live 300 s for other clients: a fapi2 client's live 60.
    ({ t, base } = await listeningApp({ AUTH_CODE_TTL_SECONDS: '300' }));
    oc = await import('openid-client');
    key = await clientKey('ES256');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.advance((KEY_CACHE_SECONDS + DPOP_PROOF_MAX_AGE_SECONDS + 1) * 1000);
  });

  const applications = () => t.app.get(ApplicationsService);

  async function fapiClient() {
    const { application } = await applications().create({
      name: 'Bank',
      redirectUris: [REDIRECT_URI],
      authMethod: 'private_key_jwt',
      jwks: jwksOf(key),
      idTokenSignedResponseAlg: 'PS256',
      securityProfile: 'fapi2',
    });
    return application;
  }

  it('refuses the fapi2 profile for a client without private_key_jwt, with an http redirect URI or an RS256 id_token', async () => {
    const refusal = (promise: Promise<unknown>) =>
      expect(promise).rejects.toMatchObject({ code: 'invalid_request' });
    await refusal(
      applications().create({
        name: 'Secret',
        redirectUris: [REDIRECT_URI],
        idTokenSignedResponseAlg: 'PS256',
        securityProfile: 'fapi2',
      }),
    );
    await refusal(
      applications().create({
        name: 'Loopback',
        redirectUris: ['http://127.0.0.1:8123/cb'],
        authMethod: 'private_key_jwt',
        jwks: jwksOf(key),
        idTokenSignedResponseAlg: 'ES256',
        securityProfile: 'fapi2',
      }),
    );
    await refusal(
      applications().create({
        name: 'Rs256',
        redirectUris: [REDIRECT_URI],
        authMethod: 'private_key_jwt',
        jwks: jwksOf(key),
        securityProfile: 'fapi2',
      }),
    );
    // A fapi2 client cannot be moved out of the profile by another change.
    const bank = await fapiClient();
    await refusal(applications().update(bank.id, { idTokenSignedResponseAlg: 'RS256' }));
    await refusal(applications().update(bank.id, { authMethod: 'secret' }));
    await refusal(applications().update(bank.id, { redirectUris: ['http://localhost:9/cb'] }));
    // The console answers the same 400, naming each problem; the CLI too.
    const w = await consoleWorld(t);
    const res = await w.admin
      .request('patch', `/api/console/applications/${w.applicationId}`)
      .send({ securityProfile: 'fapi2' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    expect((res.body as { message: string }).message).toContain(
      'the fapi2 profile needs client authentication by private_key_jwt',
    );
    const cli = await runInApp(t.app, [
      'app',
      'update',
      String(w.applicationId),
      '--profile',
      'fapi2',
      '--json',
    ]);
    expect(cli.exitCode).not.toBe(0);
    const bad = await runInApp(t.app, ['app', 'update', String(bank.id), '--profile', 'fapi9']);
    expect(`${bad.stdout}${bad.stderr}`).toContain('--profile must be one of none, fapi2');
  });

  it('runs a fapi2 client through PAR, PKCE, private_key_jwt and DPoP with openid-client, its ID token PS256', async () => {
    const bank = await fapiClient();
    await createUser(t.app, {
      username: 'frank',
      email: 'frank@example.org',
      password: PASSWORD,
      emailVerified: true,
    });
    const config = await oc.discovery(
      new URL(base),
      bank.clientId,
      { ...clockSkewOf(oc, t), id_token_signed_response_alg: 'PS256' },
      oc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    const DPoP = oc.getDPoPHandle(config, await oc.randomDPoPKeyPair('ES256'));
    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const url = await oc.buildAuthorizationUrlWithPAR(
      config,
      {
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile',
        code_challenge: await oc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      },
      { DPoP },
    );
    const callback = await new FetchBrowser(base).authorize(url, 'frank');
    expect(callback.searchParams.get('iss')).toBe(base);
    const [code] = await t.dataSource.query<{ lifetime: number }[]>(
      'SELECT extract(epoch FROM expires_at - created_at)::int AS lifetime FROM oauth_codes',
    );
    expect(code.lifetime).toBe(60);
    const tokens = await oc.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type).toBe('dpop');
    const jose = await loadJose();
    expect(jose.decodeProtectedHeader(tokens.id_token!).alg).toBe('PS256');
    const { sub } = tokens.claims()!;
    expect(await oc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).toMatchObject({
      sub,
    });
  });

  it('refuses what the profile forbids: a direct /authorize, no PKCE, a token request without DPoP', async () => {
    const bank = await fapiClient();
    const direct = await t.http().get(
      authorizePath({
        client_id: bank.clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'openid',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(direct.status).toBe(302);
    expect(query(direct.headers.location)).toMatchObject({
      error: 'invalid_request',
      error_description: 'Pushed authorization request required',
    });
    const config = await oc.discovery(
      new URL(base),
      bank.clientId,
      clockSkewOf(oc, t),
      oc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }),
      { execute: [oc.allowInsecureRequests] },
    );
    // A push without PKCE is refused (FAPI 2.0 section 5.3.2.2).
    await expect(
      oc.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT_URI, scope: 'openid' }),
    ).rejects.toMatchObject({
      error: 'invalid_request',
      error_description: 'This client must send a PKCE code_challenge',
    });
    // A token request without a DPoP proof is refused before its grant is looked at.
    await expect(oc.refreshTokenGrant(config, 'any-refresh-token')).rejects.toMatchObject({
      error: 'invalid_request',
      error_description: 'This client must send a DPoP proof with its token requests',
    });
  });

  it('takes from a fapi2 client only assertions for the issuer, and assertions and DPoP proofs signed PS256, ES256 or EdDSA', async () => {
    const rsa = await clientKey('RS256');
    const { application: bank } = await applications().create({
      name: 'Bank',
      redirectUris: [REDIRECT_URI],
      authMethod: 'private_key_jwt',
      jwks: jwksOf(key, rsa),
      idTokenSignedResponseAlg: 'ES256',
      securityProfile: 'fapi2',
    });
    // A token request whose grant fails (unknown refresh token) once the client and the proof hold.
    const probe = async (assertion: string, proof?: string) => {
      const req = t.http().post('/api/oauth2/token').type('form');
      void req.set(
        'DPoP',
        proof ??
          (await noncedProof(t, await dpopKey('ES256'), { htu: `${base}/api/oauth2/token` })),
      );
      return req.send({
        grant_type: 'refresh_token',
        refresh_token: 'unknown',
        ...assertionFields(assertion),
      });
    };
    const now = t.clock.now();
    const assertion = (signer: ClientKey, aud: string) =>
      signAssertion(signer, bank.clientId, { now, aud });
    expect((await probe(await assertion(key, base))).body.error).toBe('invalid_grant');
    // The token endpoint's URL is an audience other clients may use, not a fapi2 client.
    for (const aud of [`${base}/api/oauth2/token`, `${base}/api/oauth2/introspect`]) {
      const res = await probe(await assertion(key, aud));
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }
    const rs256 = await probe(await assertion(rsa, base));
    expect(rs256.status).toBe(401);
    expect(rs256.body.error).toBe('invalid_client');
    const rs256Proof = await noncedProof(t, await dpopKey('RS256'), {
      htu: `${base}/api/oauth2/token`,
    });
    const refused = await probe(await assertion(key, base), rs256Proof);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'invalid_dpop_proof',
      error_description: 'This client must sign its DPoP proofs with PS256, ES256 or EdDSA',
    });
  });
});
