import { ISSUER } from '../../../support/oauth';
import {
  dpopKey,
  dpopProof,
  noncedProof,
  serverNonce,
  USERINFO_URL,
  type DpopKey,
  type ProofOptions,
} from '../../../support/dpop';
import {
  authorizeInteractively,
  basic,
  browser,
  expectStatus,
  oauthSetup,
  pkce,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';

const EMAILS_URL = `${ISSUER}/api/oauth2/user/emails`;
const DPOP_ALGS = 'algs="RS256 PS256 ES256 EdDSA Ed25519"';

/**
 * DPoP at the resources (RFC 9449 sections 6, 7 and 8): userinfo and user emails take a DPoP-bound
 * access token only under the DPoP scheme with a proof of its key, and introspection tells a
 * resource server the binding.
 */
describe('DPoP-bound access tokens at userinfo, user emails and introspection', () => {
  let t: TestApp;
  let key: DpopKey;
  beforeAll(async () => {
    t = await createTestApp();
    key = await dpopKey();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /** Tokens of a fresh client (public by default), bound to `key` unless `bound` is false. */
  async function tokens(
    options: { authMethod?: 'none' | 'secret'; bound?: boolean; username?: string } = {},
  ) {
    const username = options.username ?? 'alice';
    const setup = await oauthSetup(t.app, { authMethod: options.authMethod ?? 'none', username });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
      scope: 'read email',
      username,
    });
    const req = t.http().post('/api/oauth2/token').type('form');
    if (setup.clientSecret) {
      void req.set('Authorization', basic(setup.application.clientId, setup.clientSecret));
    }
    if (options.bound !== false) void req.set('DPoP', await noncedProof(t, key));
    const res = await req.send({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...(setup.clientSecret ? {} : { client_id: setup.application.clientId }),
    });
    expectStatus(res, 200);
    return { ...setup, accessToken: res.body.access_token as string };
  }

  /** GET userinfo (or user emails) under `scheme`, with a proof when `proof` is given. */
  function resource(
    accessToken: string,
    scheme: 'DPoP' | 'Bearer',
    proof?: string,
    path = '/api/oauth2/userinfo',
  ) {
    const req = t.http().get(path).set('Authorization', `${scheme} ${accessToken}`);
    if (proof !== undefined) void req.set('DPoP', proof);
    return req;
  }

  /** A proof for GET userinfo with `accessToken`'s ath and the server's nonce. */
  async function userinfoProof(accessToken: string, signer = key, options: ProofOptions = {}) {
    return noncedProof(t, signer, { htm: 'GET', htu: USERINFO_URL, accessToken, ...options });
  }

  function expectChallenge(
    res: { status: number; body: unknown; headers: Record<string, string> },
    error: string,
    description: string,
  ): void {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error, error_description: description });
    expect(res.headers['www-authenticate']).toBe(
      `DPoP ${DPOP_ALGS}, error="${error}", error_description="${description}"`,
    );
  }

  it('accepts a DPoP-bound token at userinfo and user emails with a proof of its key, after the nonce', async () => {
    const { accessToken } = await tokens();
    const info = await resource(accessToken, 'DPoP', await userinfoProof(accessToken));
    expectStatus(info, 200);
    expect(info.body.username).toBe('alice');
    const emails = await resource(
      accessToken,
      'DPoP',
      await noncedProof(t, key, { htm: 'GET', htu: EMAILS_URL, accessToken }),
      '/api/oauth2/user/emails',
    );
    expectStatus(emails, 200);
    expect(emails.body).toEqual([expect.objectContaining({ email: 'alice@example.org' })]);
    // A proof without the nonce is answered 401 use_dpop_nonce with the nonce (section 8).
    const unnonced = await resource(
      accessToken,
      'DPoP',
      await dpopProof(t, key, { htm: 'GET', htu: USERINFO_URL, accessToken }),
    );
    expectChallenge(unnonced, 'use_dpop_nonce', 'Use the DPoP nonce the server provides');
    expect(unnonced.headers['dpop-nonce']).toBe(await serverNonce(t, key));
    // Under the DPoP scheme a proof is required.
    expectChallenge(
      await resource(accessToken, 'DPoP'),
      'invalid_dpop_proof',
      'A DPoP proof is required',
    );
  });

  it('refuses a DPoP-bound access token presented as a bearer token, with a DPoP challenge', async () => {
    const { accessToken } = await tokens();
    const description =
      'The access token is bound to a DPoP key: send it under the DPoP scheme with a proof';
    expectChallenge(await resource(accessToken, 'Bearer'), 'invalid_token', description);
    // With a proof beside it too: the bearer scheme is not DPoP.
    expectChallenge(
      await resource(accessToken, 'Bearer', await userinfoProof(accessToken)),
      'invalid_token',
      description,
    );
    expectChallenge(
      await resource(accessToken, 'Bearer', undefined, '/api/oauth2/user/emails'),
      'invalid_token',
      description,
    );
    const form = await t
      .http()
      .post('/api/oauth2/userinfo')
      .type('form')
      .send({ access_token: accessToken });
    expectChallenge(form, 'invalid_token', description);
  });

  it('refuses a bound access token with a proof of another key, and an unbound token under the DPoP scheme', async () => {
    const { accessToken } = await tokens();
    const thief = await dpopKey();
    expectChallenge(
      await resource(accessToken, 'DPoP', await userinfoProof(accessToken, thief)),
      'invalid_token',
      'The DPoP proof is not signed by the key the access token is bound to',
    );
    const bearer = await tokens({ authMethod: 'secret', bound: false, username: 'bob' });
    expectChallenge(
      await resource(bearer.accessToken, 'DPoP', await userinfoProof(bearer.accessToken)),
      'invalid_token',
      'The access token is not DPoP-bound: send it under the Bearer scheme',
    );
    // A bearer token stays a bearer token, answered as before.
    const plain = await resource(bearer.accessToken, 'Bearer');
    expectStatus(plain, 200);
    expect(plain.headers['www-authenticate']).toBeUndefined();
  });

  it('requires ath and refuses a proof made for another access token', async () => {
    const { accessToken } = await tokens();
    const description = 'The DPoP proof does not carry the hash of this access token';
    const withoutAth = await noncedProof(t, key, { htm: 'GET', htu: USERINFO_URL });
    expectChallenge(
      await resource(accessToken, 'DPoP', withoutAth),
      'invalid_dpop_proof',
      description,
    );
    const forAnother = await userinfoProof('another-access-token');
    expectChallenge(
      await resource(accessToken, 'DPoP', forAnother),
      'invalid_dpop_proof',
      description,
    );
    // A proof made for userinfo is not one for user emails.
    expectChallenge(
      await resource(
        accessToken,
        'DPoP',
        await userinfoProof(accessToken),
        '/api/oauth2/user/emails',
      ),
      'invalid_dpop_proof',
      'The DPoP proof is for another URL',
    );
  });

  it('writes nothing for a proof sent with an unknown or unbound token, and spends it with a bound one', async () => {
    const spent = async () =>
      Number(
        (
          await t.dataSource.query<{ count: string }[]>(
            'SELECT count(*) FROM oauth_dpop_proof_jtis',
          )
        )[0].count,
      );
    const { accessToken } = await tokens();
    const before = await spent();
    const unknown = await resource('made-up-token', 'DPoP', await userinfoProof('made-up-token'));
    expect(unknown.status).toBe(401);
    const bearer = await tokens({ authMethod: 'secret', bound: false, username: 'bob' });
    const unbound = await resource(
      bearer.accessToken,
      'DPoP',
      await userinfoProof(bearer.accessToken),
    );
    expect(unbound.status).toBe(401);
    expect(await spent()).toBe(before);
    const proof = await userinfoProof(accessToken);
    expectStatus(await resource(accessToken, 'DPoP', proof), 200);
    expect(await spent()).toBe(before + 1);
    expectChallenge(
      await resource(accessToken, 'DPoP', proof),
      'invalid_dpop_proof',
      'The DPoP proof was already used',
    );
  });

  it('refuses two Authorization headers with invalid_request', async () => {
    const { accessToken } = await tokens();
    const res = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', [`DPoP ${accessToken}`, `Bearer ${accessToken}`] as unknown as string)
      .set('DPoP', await userinfoProof(accessToken));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: 'Send one Authorization header',
    });
  });

  it('answers the binding in introspection: token_type DPoP and cnf.jkt', async () => {
    const bound = await tokens({ authMethod: 'secret' });
    const introspect = (token: string) =>
      t
        .http()
        .post('/api/oauth2/introspect')
        .type('form')
        .set('Authorization', basic(bound.application.clientId, bound.clientSecret!))
        .send({ token });
    const active = await introspect(bound.accessToken);
    expectStatus(active, 200);
    expect(active.body).toMatchObject({
      active: true,
      token_type: 'DPoP',
      cnf: { jkt: key.jkt },
    });
    const bearer = await tokens({ authMethod: 'secret', bound: false, username: 'bob' });
    const plain = await t
      .http()
      .post('/api/oauth2/introspect')
      .type('form')
      .set('Authorization', basic(bearer.application.clientId, bearer.clientSecret!))
      .send({ token: bearer.accessToken });
    expect(plain.body.token_type).toBe('bearer');
    expect(plain.body).not.toHaveProperty('cnf');
  });
});
