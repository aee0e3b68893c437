import { createHash } from 'node:crypto';
import { accessLogOptions } from '../../../../src/common/http/access-log';
import { oauthSetup, REDIRECT_URI } from '../../../support/oauth';
import { push, pushedForm } from '../../../support/par';
import { createTestApp, type TestApp } from '../../../support/test-app';

type ErrorBody = { error: string; error_description: string };

/** POST /oauth2/par (RFC 9126 section 2): client authentication, validation, JSON errors. */
describe('Pushed authorization request endpoint', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const secretClient = async () => {
    const { application, clientSecret } = await oauthSetup(t.app, { authMethod: 'secret' });
    return { clientId: application.clientId, secret: clientSecret!, id: application.id };
  };
  const stored = () =>
    t.dataSource.query<{ id: string; parameters: Record<string, string> }[]>(
      'SELECT id, parameters FROM oauth_pushed_authorization_requests',
    );

  it('answers 201 with a request_uri of 256 random bits, expires_in 60 and no-store', async () => {
    const { clientId, secret } = await secretClient();
    const res = await push(t, pushedForm(clientId).form, { id: clientId, secret });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body as object).sort()).toEqual(['expires_in', 'request_uri']);
    const { request_uri: uri, expires_in: expiresIn } = res.body as {
      request_uri: string;
      expires_in: number;
    };
    expect(expiresIn).toBe(60);
    const value = /^urn:ietf:params:oauth:request_uri:([A-Za-z0-9_-]+)$/.exec(uri)![1];
    expect(Buffer.from(value, 'base64url')).toHaveLength(32);
    const again = await push(t, pushedForm(clientId).form, { id: clientId, secret });
    expect((again.body as { request_uri: string }).request_uri).not.toBe(uri);
  });

  it('stores only the hash of the request_uri and never the client secret', async () => {
    const { clientId, secret } = await secretClient();
    const res = await push(t, { ...pushedForm(clientId).form, client_secret: secret });
    expect(res.status).toBe(201);
    const uri = (res.body as { request_uri: string }).request_uri;
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(createHash('sha256').update(uri).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(uri);
    expect(rows[0].parameters).toMatchObject({ client_id: clientId, redirect_uri: REDIRECT_URI });
    expect(rows[0].parameters).not.toHaveProperty('client_secret');
  });

  it('refuses a push without client authentication from a secret client with 401 invalid_client', async () => {
    const { clientId } = await secretClient();
    const res = await push(t, pushedForm(clientId).form);
    expect(res.status).toBe(401);
    expect((res.body as ErrorBody).error).toBe('invalid_client');
    expect(res.headers['www-authenticate']).toContain('Basic');
    expect(await stored()).toEqual([]);
  });

  it('refuses a wrong secret or an unknown client with 401 invalid_client', async () => {
    const { clientId } = await secretClient();
    const wrong = await push(t, pushedForm(clientId).form, { id: clientId, secret: 'wrong' });
    expect(wrong.status).toBe(401);
    expect((wrong.body as ErrorBody).error).toBe('invalid_client');
    const unknown = await push(t, pushedForm('nobody').form, { id: 'nobody', secret: 'x' });
    expect(unknown.status).toBe(401);
    expect(await stored()).toEqual([]);
  });

  it('authenticates a none client by its client_id alone, and refuses a secret from it', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const ok = await push(t, pushedForm(application.clientId).form);
    expect(ok.status).toBe(201);
    const withSecret = await push(t, pushedForm(application.clientId).form, {
      id: application.clientId,
      secret: 'made-up',
    });
    expect(withSecret.status).toBe(401);
    expect((withSecret.body as ErrorBody).error).toBe('invalid_client');
  });

  it('refuses a request_uri inside the pushed request with invalid_request', async () => {
    const { clientId, secret } = await secretClient();
    const form = pushedForm(clientId, {
      request_uri: 'urn:ietf:params:oauth:request_uri:abc',
    }).form;
    const res = await push(t, form, { id: clientId, secret });
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error).toBe('invalid_request');
    expect(await stored()).toEqual([]);
  });

  it('refuses a pushed request object with request_not_supported', async () => {
    const { clientId, secret } = await secretClient();
    const res = await push(t, pushedForm(clientId, { request: 'eyJhbGciOiJub25lIn0.e30.' }).form, {
      id: clientId,
      secret,
    });
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error).toBe('request_not_supported');
    expect(await stored()).toEqual([]);
  });

  it('refuses an unregistered or missing redirect_uri with invalid_request as JSON, never a redirect', async () => {
    const { clientId, secret } = await secretClient();
    for (const redirect of ['https://attacker.example/cb', `${REDIRECT_URI}/`, '']) {
      const res = await push(t, pushedForm(clientId, { redirect_uri: redirect }).form, {
        id: clientId,
        secret,
      });
      expect([redirect, res.status, (res.body as ErrorBody).error]).toEqual([
        redirect,
        400,
        'invalid_request',
      ]);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toContain('application/json');
    }
    expect(await stored()).toEqual([]);
  });

  it('checks the pushed request with the checks of /authorize, errors as JSON', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: '' }, 'invalid_request'], // a public client must use PKCE
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ state: 'x'.repeat(1025) }, 'invalid_request'],
      [{ scope: 'openid', prompt: 'none login' }, 'invalid_request'],
    ];
    for (const [extra, error] of cases) {
      const res = await push(t, pushedForm(application.clientId, extra).form);
      expect([extra, res.status, (res.body as ErrorBody).error]).toEqual([extra, 400, error]);
      expect(res.headers.location).toBeUndefined();
    }
    const repeated = await t
      .http()
      .post('/oauth2/par')
      .type('form')
      .send(
        `${new URLSearchParams(pushedForm(application.clientId).form).toString()}&scope=read&scope=read`,
      );
    expect(repeated.status).toBe(400);
    expect((repeated.body as ErrorBody).error_description).toBe(
      'The scope parameter is repeated or malformed',
    );
    expect(await stored()).toEqual([]);
  });

  it('takes a form only, and answers a control character as JSON, not a page', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const json = await t.http().post('/oauth2/par').send(pushedForm(application.clientId).form);
    expect(json.status).toBe(400);
    expect((json.body as ErrorBody).error).toBe('invalid_request');
    const control = await push(t, pushedForm(application.clientId, { state: 'a\u0000b' }).form);
    expect(control.status).toBe(400);
    expect(control.headers['content-type']).toContain('application/json');
    expect((control.body as ErrorBody).error).toBe('invalid_request');
  });

  it('answers the alias route POST /api/oidc/par like /oauth2/par', async () => {
    const { clientId, secret } = await secretClient();
    const ok = await push(t, pushedForm(clientId).form, { id: clientId, secret }, '/api/oidc/par');
    expect(ok.status).toBe(201);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect((ok.body as { request_uri: string }).request_uri).toMatch(
      /^urn:ietf:params:oauth:request_uri:/,
    );
    const refused = await push(t, pushedForm(clientId).form, undefined, '/api/oidc/par');
    expect(refused.status).toBe(401);
    expect((refused.body as ErrorBody).error).toBe('invalid_client');
  });

  it('logs the path of /authorize without its request_uri, and the push without its form', () => {
    const serialize = accessLogOptions('info').serializers!.req as (req: object) => object;
    const uri = 'urn:ietf:params:oauth:request_uri:secretvalue';
    const line = JSON.stringify(
      serialize({
        id: 1,
        method: 'GET',
        url: `/oauth2/authorize?client_id=c&request_uri=${encodeURIComponent(uri)}`,
        body: { client_secret: 'hunter2' },
        headers: { authorization: 'Basic aHVudGVyMg==' },
      }),
    );
    expect(line).toBe('{"id":1,"method":"GET","path":"/oauth2/authorize"}');
  });
});

describe('Pushed authorization requests waiting per client (PAR_MAX_PENDING_PER_CLIENT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PAR_MAX_PENDING_PER_CLIENT: '2' } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('refuses a push past the cap with 429 until the waiting ones expire, and stores nothing more', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const other = await oauthSetup(t.app, { authMethod: 'none', username: 'bob' });
    for (let i = 0; i < 2; i++) {
      expect((await push(t, pushedForm(application.clientId).form)).status).toBe(201);
    }
    const over = await push(t, pushedForm(application.clientId).form);
    expect(over.status).toBe(429);
    expect((over.body as ErrorBody).error).toBe('invalid_request');
    // Another client keeps its own room.
    expect((await push(t, pushedForm(other.application.clientId).form)).status).toBe(201);
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM oauth_pushed_authorization_requests',
    );
    expect(n).toBe(3);
    t.clock.advance(61_000);
    expect((await push(t, pushedForm(application.clientId).form)).status).toBe(201);
  });
});
