import type { ServerResponse } from 'node:http';
import { ASSERTION_FAILED } from '../../../../src/modules/oauth/client-auth/assertion-failure';
import { JWKS_MAX_AGE_SECONDS } from '../../../../src/modules/oauth/client-auth/jwks-cache';
import { ISSUER } from '../../../support/oauth';
import { httpsStandin, type HttpsStandin } from '../../../support/https-standin';
import {
  assertionFields,
  clientKey,
  jwksOf,
  keyedClient,
  probeTokenEndpoint,
  signAssertion,
  type ClientKey,
} from '../../../support/private-key-jwt';
import { createTestApp, type TestApp } from '../../../support/test-app';

// A client's keys at its jwks_uri: fetched under the webhook address rule (here relaxed for
// loopback with WEBHOOKS_ALLOW_INSECURE, as the webhook tests reach their receivers), cached.
describe('private_key_jwt with a jwks_uri', () => {
  let t: TestApp;
  let standin: HttpsStandin;
  /** What each path answers: a JSON document, or a handler of its own. */
  const routes = new Map<string, unknown>();
  let path = 0;
  beforeAll(async () => {
    standin = await httpsStandin((req, res) => {
      const route = routes.get(req.url ?? '');
      if (typeof route === 'function') return (route as (res: ServerResponse) => void)(res);
      if (route === undefined) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(route));
    });
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_INSECURE: 'true' } });
  });
  afterAll(async () => {
    await t.close();
    await standin.close();
  });
  beforeEach(() => t.truncate());

  /** A keyed client whose jwks_uri serves `document` at a path of its own (the cache is per URI). */
  async function clientAt(document: unknown, app = t) {
    const route = `/jwks/${++path}`;
    routes.set(route, document);
    const client = await keyedClient(app.app, { jwksUri: `${standin.origin}${route}` });
    return { ...client, route };
  }

  const assertion = (key: ClientKey, clientId: string, kid = key.kid) =>
    signAssertion(key, clientId, { now: t.clock.now(), aud: ISSUER, header: { kid } });

  async function status(key: ClientKey, clientId: string, app = t, kid = key.kid) {
    const res = await probeTokenEndpoint(
      app.app,
      assertionFields(await assertion(key, clientId, kid)),
    );
    if (res.status === 401) expect(res.body.error_description).toBe(ASSERTION_FAILED);
    return res.status;
  }

  it('fetches the JWKS once for several requests, and again once it is 5 minutes old', async () => {
    const key = await clientKey('ES256');
    const client = await clientAt(jwksOf(key));
    const statuses = await Promise.all([1, 2, 3].map(() => status(key, client.clientId)));
    expect(statuses).toEqual([400, 400, 400]);
    expect(await status(key, client.clientId)).toBe(400);
    expect(standin.hits(client.route)).toBe(1);
    t.clock.advance((JWKS_MAX_AGE_SECONDS + 1) * 1000);
    expect(await status(key, client.clientId)).toBe(400);
    expect(standin.hits(client.route)).toBe(2);
  });

  it('fetches again once for an unknown kid (a rotated key), not for every made-up kid', async () => {
    const old = await clientKey('ES256');
    const client = await clientAt(jwksOf(old));
    expect(await status(old, client.clientId)).toBe(400);
    const rotated = await clientKey('RS256');
    t.clock.advance(31_000);
    routes.set(client.route, jwksOf(old, rotated));
    expect(await status(rotated, client.clientId)).toBe(400);
    expect(standin.hits(client.route)).toBe(2);
    for (const kid of ['made-up-1', 'made-up-2', 'made-up-3']) {
      expect(await status(rotated, client.clientId, t, kid)).toBe(401);
    }
    expect(standin.hits(client.route)).toBe(2);
  });

  it('refuses a JWKS holding private key material, as at registration', async () => {
    const key = await clientKey('ES256');
    const jose = await import('jose');
    const privateJwk = { ...(await jose.exportJWK(key.privateKey)), kid: key.kid, alg: 'ES256' };
    const client = await clientAt({ keys: [privateJwk] });
    expect(await status(key, client.clientId)).toBe(401);
    const symmetric = await clientAt({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 'h' }] });
    expect(await status(key, symmetric.clientId)).toBe(401);
  });

  it('does not follow a redirect, and refuses another status or an answer over 64 kB', async () => {
    const key = await clientKey('ES256');
    const good = await clientAt(jwksOf(key));
    const redirect = await clientAt((res: ServerResponse) =>
      res.writeHead(302, { location: `${standin.origin}${good.route}` }).end(),
    );
    expect(await status(key, redirect.clientId)).toBe(401);
    expect(standin.hits(good.route)).toBe(0);
    const missing = await clientAt((res: ServerResponse) => res.writeHead(500).end());
    expect(await status(key, missing.clientId)).toBe(401);
    const padded = { ...jwksOf(key), padding: 'x'.repeat(70_000) };
    const huge = await clientAt(padded);
    expect(await status(key, huge.clientId)).toBe(401);
    const endless = await clientAt((res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"keys":[],"padding":"${'x'.repeat(70_000)}`);
    });
    expect(await status(key, endless.clientId)).toBe(401);
  });

  it('refuses a jwks_uri on a loopback address by the webhook address rule', async () => {
    const strict = await createTestApp();
    try {
      const key = await clientKey('ES256');
      const client = await clientAt(jwksOf(key), strict);
      const res = await probeTokenEndpoint(
        strict.app,
        assertionFields(
          await signAssertion(key, client.clientId, { now: strict.clock.now(), aud: ISSUER }),
        ),
      );
      expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
      expect(standin.hits(client.route)).toBe(0);
    } finally {
      await strict.close();
    }
  });
});
