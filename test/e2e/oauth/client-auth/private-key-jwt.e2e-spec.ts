import supertest from 'supertest';
import { ASSERTION_FAILED } from '../../../../src/modules/oauth/client-auth/assertion-failure';
import { ISSUER, basic } from '../../../support/oauth';
import {
  assertionFields,
  clientKey,
  jwksOf,
  keyedClient,
  loadJose,
  probeTokenEndpoint,
  signAssertion,
  unsignedAssertion,
  type AssertionOptions,
  type ClientKey,
} from '../../../support/private-key-jwt';
import { createApplication } from '../../../factories';
import { createTestApp, type TestApp } from '../../../support/test-app';
import { usingRealServices } from '../../../support/test-env';

const TOKEN_ENDPOINT = `${ISSUER}/api/oauth2/token`;

// private_key_jwt (RFC 7523 sections 2.2 and 3, OIDC Core 9) at the token endpoint, clause by
// clause. A refresh with an unknown token tells the two outcomes apart: 400 invalid_grant once
// the client authenticated, 401 invalid_client when it did not.
describe('private_key_jwt client authentication', () => {
  let t: TestApp;
  let other: TestApp;
  let key: ClientKey;
  let client: { id: number; clientId: string };
  beforeAll(async () => {
    t = await createTestApp();
    // A second instance on the same database needs DATABASE_URL (the embedded one is per process).
    other = usingRealServices() ? await createTestApp({ clock: t.clock }) : t;
  });
  afterAll(async () => {
    if (other !== t) await other.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.truncate();
    key = await clientKey('ES256');
    client = await keyedClient(t.app, { jwks: jwksOf(key) });
  });

  const at = (extra: Partial<AssertionOptions> = {}): AssertionOptions => ({
    now: t.clock.now(),
    aud: ISSUER,
    ...extra,
  });
  const sign = (extra: Partial<AssertionOptions> = {}, signer = key, clientId = client.clientId) =>
    signAssertion(signer, clientId, at(extra));

  async function expectAccepted(assertion: string, app = t, fields: Record<string, string> = {}) {
    const res = await probeTokenEndpoint(app.app, { ...assertionFields(assertion), ...fields });
    expect([res.status, res.body]).toEqual([
      400,
      expect.objectContaining({ error: 'invalid_grant' }),
    ]);
  }

  async function expectRefused(assertion: string, fields: Record<string, string> = {}, app = t) {
    const res = await probeTokenEndpoint(app.app, { ...assertionFields(assertion), ...fields });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: ASSERTION_FAILED });
    expect(res.headers['www-authenticate']).toBeDefined();
  }

  it('accepts an ES256, RS256, PS256 and EdDSA assertion signed with a registered key', async () => {
    for (const alg of ['ES256', 'RS256', 'PS256', 'EdDSA'] as const) {
      const signer = await clientKey(alg);
      const keyed = await keyedClient(t.app, { jwks: jwksOf(signer) });
      await expectAccepted(await sign({}, signer, keyed.clientId));
    }
  });

  it('accepts as aud the issuer identifiers and the token endpoints of both issuers, nothing else', async () => {
    for (const aud of [ISSUER, `${ISSUER}/api/oidc`, TOKEN_ENDPOINT, `${ISSUER}/api/oidc/token`]) {
      await expectAccepted(await sign({ aud }));
    }
    for (const aud of [
      `${ISSUER}/`,
      'https://other.example',
      `${ISSUER}/api/oauth2/revoke`,
      `${ISSUER}/api/oauth2/introspect`,
    ]) {
      await expectRefused(await sign({ aud }));
    }
    await expectRefused(await sign({ claims: { aud: [ISSUER, 'https://other.example'] } }));
    await expectAccepted(await sign({ claims: { aud: [ISSUER] } }));
    await expectRefused(await sign({ claims: { aud: undefined } }));
  });

  it('refuses alg none', async () => {
    await expectRefused(unsignedAssertion(client.clientId, at()));
    await expectRefused(unsignedAssertion(client.clientId, at({ header: { kid: key.kid } })));
  });

  it('refuses HS256 signed with the public key as the secret (algorithm confusion)', async () => {
    const jose = await loadJose();
    for (const secret of [
      JSON.stringify(key.publicJwk),
      Buffer.from(JSON.stringify(key.publicJwk)).toString('base64url'),
      key.publicJwk.x as string,
    ]) {
      const assertion = await new jose.SignJWT({ jti: `hs-${secret.length}` })
        .setProtectedHeader({ alg: 'HS256', kid: key.kid })
        .setIssuer(client.clientId)
        .setSubject(client.clientId)
        .setAudience(ISSUER)
        .setIssuedAt(t.clock.now())
        .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 60)
        .sign(new TextEncoder().encode(secret));
      await expectRefused(assertion);
    }
  });

  it('refuses a key not registered for the client, with or without its kid', async () => {
    const stranger = await clientKey('ES256');
    await expectRefused(await sign({}, stranger));
    await expectRefused(await sign({ header: { kid: key.kid } }, stranger));
    await expectRefused(await sign({ header: { kid: undefined } }, stranger));
  });

  it('finds the key by kid, or tries every key of the type when the header has none', async () => {
    const second = await clientKey('ES256');
    const keyed = await keyedClient(t.app, { jwks: jwksOf(key, second) });
    await expectAccepted(await sign({ header: { kid: undefined } }, second, keyed.clientId));
    await expectAccepted(await sign({}, second, keyed.clientId));
    // The kid of one key with the signature of the other.
    await expectRefused(await sign({ header: { kid: key.kid } }, second, keyed.clientId));
  });

  it('refuses iss or sub other than the client_id', async () => {
    await expectRefused(await sign({ claims: { iss: 'someone-else' } }));
    await expectRefused(await sign({ claims: { iss: undefined } }));
    // sub names the client looked up: another existing client, whose keys do not verify it.
    const { application } = await createApplication(t.app, { authMethod: 'secret' });
    await expectRefused(await sign({ claims: { sub: application.clientId } }));
  });

  it('refuses an assertion for another client: a client_id field that differs from sub', async () => {
    const otherKey = await clientKey('ES256');
    const second = await keyedClient(t.app, { jwks: jwksOf(otherKey) });
    await expectRefused(await sign(), { client_id: second.clientId });
    // Signed by the other client for itself, presented under this client's id.
    await expectRefused(await sign({}, otherKey, second.clientId), { client_id: client.clientId });
    await expectAccepted(await sign(), t, { client_id: client.clientId });
  });

  it('requires exp, refuses an expired one and one more than 5 minutes ahead', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    await expectRefused(await sign({ claims: { exp: undefined } }));
    await expectRefused(await sign({ claims: { exp: now - 31 } }));
    await expectRefused(await sign({ claims: { exp: now + 331 } }));
    await expectRefused(await sign({ claims: { exp: String(now + 60) } }));
    // Within the 30 s of clock skew, and exactly the longest life allowed.
    await expectAccepted(await sign({ claims: { exp: now - 29 } }));
    await expectAccepted(await sign({ claims: { exp: now + 300 } }));
  });

  it('refuses nbf or iat in the future', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    await expectRefused(await sign({ claims: { nbf: now + 120 } }));
    await expectRefused(await sign({ claims: { iat: now + 120 } }));
    await expectAccepted(await sign({ claims: { nbf: now - 10, iat: now - 10 } }));
  });

  it('requires jti', async () => {
    await expectRefused(await sign({ claims: { jti: undefined } }));
    await expectRefused(await sign({ claims: { jti: '' } }));
    await expectRefused(await sign({ claims: { jti: 42 } }));
  });

  it('accepts an assertion once: a replayed jti is refused, on this instance and on another', async () => {
    const assertion = await sign();
    await expectAccepted(assertion);
    await expectRefused(assertion);
    await expectRefused(assertion, {}, other);
    // The same jti in a new assertion is a replay too.
    const jti = 'reused-id';
    await expectAccepted(await sign({ claims: { jti } }), other);
    await expectRefused(await sign({ claims: { jti } }));
  });

  it('refuses a replay with Redis down: single use is kept in PostgreSQL, not Redis', async () => {
    // Nothing listens on port 9: every Redis command of this instance fails.
    const redisDown = await createTestApp({
      clock: t.clock,
      env: { REDIS_URL: 'redis://127.0.0.1:9/0' },
    });
    try {
      const keyed = await keyedClient(redisDown.app, { jwks: jwksOf(key) });
      const assertion = await sign({}, key, keyed.clientId);
      await expectAccepted(assertion, redisDown);
      await expectRefused(assertion, {}, redisDown);
    } finally {
      await redisDown.close();
    }
  });

  it('lets one of ten concurrent uses of one assertion through, across two instances', async () => {
    const assertion = await sign();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        probeTokenEndpoint((i % 2 ? other : t).app, assertionFields(assertion)),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([400, ...Array(9).fill(401)]);
  });

  it('refuses an assertion together with client_secret or HTTP Basic as invalid_request', async () => {
    const assertion = await sign();
    for (const [fields, authorization] of [
      [{ client_secret: 'x' }, undefined],
      [{}, basic(client.clientId, 'x')],
    ] as const) {
      const res = await probeTokenEndpoint(
        t.app,
        { ...assertionFields(assertion), ...fields },
        authorization,
      );
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
    }
    // Nothing was spent: the assertion still authenticates alone.
    await expectAccepted(assertion);
  });

  it('refuses half an assertion or another assertion type as invalid_request', async () => {
    const assertion = await sign();
    for (const fields of [
      { client_assertion: assertion },
      { client_assertion_type: assertionFields(assertion).client_assertion_type },
      {
        ...assertionFields(assertion),
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
      },
      { ...assertionFields(assertion), client_assertion: [assertion, assertion] },
    ]) {
      const res = await probeTokenEndpoint(t.app, fields as unknown as Record<string, string>);
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
    }
  });

  it('refuses garbage, and a well-signed assertion of a client that does not use keys', async () => {
    await expectRefused('not.a.jwt');
    await expectRefused('x'.repeat(9000));
    const { application, clientSecret } = await createApplication(t.app, { authMethod: 'secret' });
    await expectRefused(await sign({}, key, application.clientId));
    // ... nor does a secret authenticate a keyed client.
    const res = await probeTokenEndpoint(t.app, {
      client_id: client.clientId,
      client_secret: clientSecret!,
    });
    expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    const none = await probeTokenEndpoint(t.app, { client_id: client.clientId });
    expect([none.status, none.body.error]).toEqual([401, 'invalid_client']);
  });

  it('answers a disabled keyed client unauthorized_client only after its assertion verified', async () => {
    await t.dataSource.query('UPDATE applications SET enabled = false WHERE id = $1', [client.id]);
    const res = await probeTokenEndpoint(t.app, assertionFields(await sign()));
    expect([res.status, res.body.error]).toEqual([400, 'unauthorized_client']);
    await expectRefused(await sign({ aud: 'https://other.example' }));
  });

  it('authenticates revocation and introspection alike, each also accepting its own URL as aud', async () => {
    const server = supertest(t.app.getHttpServer());
    for (const endpoint of ['revoke', 'introspect']) {
      const path = `/api/oauth2/${endpoint}`;
      const ok = await server
        .post(path)
        .type('form')
        .send({ token: 'unknown', ...assertionFields(await sign({ aud: `${ISSUER}${path}` })) });
      expect(ok.status).toBe(200);
      const viaIssuer = await server
        .post(path)
        .type('form')
        .send({ token: 'unknown', ...assertionFields(await sign()) });
      expect(viaIssuer.status).toBe(200);
      const refused = await server
        .post(path)
        .type('form')
        .send({
          token: 'unknown',
          ...assertionFields(
            await sign({
              aud: TOKEN_ENDPOINT.replace('token', endpoint === 'revoke' ? 'introspect' : 'revoke'),
            }),
          ),
        });
      expect([refused.status, refused.body]).toEqual([
        401,
        { error: 'invalid_client', error_description: ASSERTION_FAILED },
      ]);
    }
  });
});
