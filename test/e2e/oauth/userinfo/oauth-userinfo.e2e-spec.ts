import { sha256Hex } from '../../../../src/common/crypto/hash';
import { userinfoOwners } from '../../../../src/modules/oauth/userinfo/userinfo.service';
import { createUser } from '../../../factories';
import {
  authorizeInteractively,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('GET /api/oauth2/userinfo and /api/oauth2/user/emails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function accessToken(scope = 'read', username = 'alice') {
    const setup = await oauthSetup(t.app, { username });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
      scope,
      username,
    });
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: setup.application.clientId,
      code_verifier: verifier,
    });
    return { ...setup, token: res.body.access_token as string };
  }
  const get = (path: string, token?: string) => {
    const req = t.http().get(path);
    return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
  };

  it('returns the user info of the token owner, groups expanded from the relation group', async () => {
    const { token, user, application } = await accessToken();
    await t.dataSource.query('UPDATE users SET avatar = $2 WHERE id = $1', [
      user.id,
      'https://img.example/a.png',
    ]);
    const res = await get('/api/oauth2/userinfo', token);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      id: Number(user.id),
      username: 'alice',
      nickname: 'Alice',
      email: 'alice@example.org',
      avatar: 'https://img.example/a.png',
      groups: ['t0'],
      upstreams: [],
    });
    await t.dataSource.query(
      'UPDATE app_users SET "group" = $3 WHERE application_id = $1 AND user_id = $2',
      [application.id, user.id, 't3'],
    );
    expect((await get('/api/oauth2/userinfo', token)).body.groups).toEqual([
      't0',
      't1',
      't2',
      't3',
    ]);
  });

  it('returns the email entries, primary first', async () => {
    const { token, user } = await accessToken();
    await t.dataSource.query(
      'INSERT INTO user_emails (user_id, email, verified, "primary", visibility) VALUES ($1, $2, false, false, $3)',
      [user.id, 'alice.alt@example.org', 'public'],
    );
    await createUser(t.app, { username: 'mallory', email: 'mallory@example.org' });
    const res = await get('/api/oauth2/user/emails', token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { email: 'alice@example.org', verified: true, primary: true, visibility: 'public' },
      { email: 'alice.alt@example.org', verified: false, primary: false, visibility: 'public' },
    ]);
  });

  it('answers 401 with a Bearer challenge without a token, and invalid_token for a bad one', async () => {
    await accessToken();
    for (const path of ['/api/oauth2/userinfo', '/api/oauth2/user/emails']) {
      const missing = await get(path);
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="oauth2"');
      const bad = await get(path, 'x'.repeat(43));
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({
        error: 'invalid_token',
        error_description: 'The access token is invalid, expired or revoked',
      });
      expect(bad.headers['www-authenticate']).toBe(
        'Bearer realm="oauth2", error="invalid_token", error_description="The access token is invalid, expired or revoked"',
      );
      const basicScheme = await t.http().get(path).set('Authorization', 'Basic abc');
      expect(basicScheme.status).toBe(401);
      expect(basicScheme.body.error).toBe('invalid_token');
    }
  });

  it('refuses an expired access token (ACCESS_TOKEN_TTL_SECONDS, 3600 by default) and a revoked one', async () => {
    const { token } = await accessToken();
    t.clock.advance(3599_000);
    expect((await get('/api/oauth2/userinfo', token)).status).toBe(200);
    t.clock.advance(1000);
    expect((await get('/api/oauth2/userinfo', token)).body.error).toBe('invalid_token');
    const second = await accessToken('read', 'bob');
    await t.dataSource.query('UPDATE oauth_tokens SET revoked_at = now() WHERE user_id = $1', [
      second.user.id,
    ]);
    expect((await get('/api/oauth2/userinfo', second.token)).status).toBe(401);
  });

  it('answers 403 insufficient_scope when the token lacks the endpoint scope', async () => {
    const { token } = await accessToken('email');
    const res = await get('/api/oauth2/userinfo', token);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="oauth2", error="insufficient_scope", scope="read profile"',
    );
    expect((await get('/api/oauth2/user/emails', token)).status).toBe(200);
  });

  // Lookups that arrive together go as one statement (userinfo.service.ts).
  it('answers every token of one batch statement as the single statement would, in order, repeats included', async () => {
    const alice = await accessToken('read', 'alice');
    const bob = await accessToken('read', 'bob');
    const carol = await accessToken('read', 'carol');
    await t.dataSource.query('UPDATE oauth_tokens SET revoked_at = now() WHERE user_id = $1', [
      carol.user.id,
    ]);
    const tokens = [alice.token, 'x'.repeat(43), bob.token, carol.token, alice.token];
    const owners = await userinfoOwners(t.dataSource, tokens.map(sha256Hex), t.clock.now());
    expect(owners.map((owner) => owner?.username ?? null)).toEqual([
      'alice',
      null,
      'bob',
      null,
      'alice',
    ]);
    expect(owners[0]).toEqual(owners[4]);
    expect(owners[2]).toMatchObject({ id: String(bob.user.id), scope: 'read', upstreams: null });
    // An expired token is no owner either, at the `now` the batch is read at.
    const later = new Date(t.clock.now().getTime() + 3600_000);
    expect(await userinfoOwners(t.dataSource, [sha256Hex(alice.token)], later)).toEqual([null]);
  });

  it('gives each of many concurrent requests its own answer', async () => {
    const alice = await accessToken('read', 'alice');
    const bob = await accessToken('read', 'bob');
    const dave = await accessToken('email', 'dave');
    const cases = [
      { token: alice.token, status: 200, username: 'alice' },
      { token: bob.token, status: 200, username: 'bob' },
      { token: 'x'.repeat(43), status: 401, error: 'invalid_token' },
      { token: dave.token, status: 403, error: 'insufficient_scope' },
    ];
    const sent = Array.from({ length: 40 }, (_, i) => cases[i % cases.length]);
    const responses = await Promise.all(sent.map((c) => get('/api/oauth2/userinfo', c.token)));
    responses.forEach((res, i) => {
      expect(res.status).toBe(sent[i].status);
      if (res.status === 200) expect(res.body.username).toBe(sent[i].username);
      else expect(res.body.error).toBe(sent[i].error);
    });
  });

  // RFC 6750 section 2.2: the form-encoded body parameter, POST only, never with the header too.
  describe('the access token in a POST form body', () => {
    const post = (path: string, form?: Record<string, string>, token?: string) => {
      const req = t.http().post(path);
      if (token !== undefined) void req.set('Authorization', `Bearer ${token}`);
      return form === undefined ? req : req.type('form').send(form);
    };

    it.each(['/api/oauth2/userinfo', '/api/oidc/userinfo'])(
      'answers %s as with the header',
      async (path) => {
        const { token, user } = await accessToken();
        const res = await post(path, { access_token: token });
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toEqual((await get('/api/oauth2/userinfo', token)).body);
        expect(res.body.id).toBe(Number(user.id));
        // The header alone on a POST still works, with or without an unrelated form field.
        expect((await post(path, undefined, token)).status).toBe(200);
        expect((await post(path, { other: 'x' }, token)).status).toBe(200);
      },
    );

    it.each(['/api/oauth2/userinfo', '/api/oidc/userinfo'])(
      'refuses the token in both the header and the form on %s (invalid_request)',
      async (path) => {
        const { token } = await accessToken();
        const res = await post(path, { access_token: token }, token);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid_request',
          error_description:
            'Send the access token in the Authorization header or the form, not both',
        });
        expect(res.headers['www-authenticate']).toBe(
          'Bearer realm="oauth2", error="invalid_request", error_description="Send the access token in the Authorization header or the form, not both"',
        );
      },
    );

    it('gives a form token the errors of a header token', async () => {
      const { token } = await accessToken('email');
      const unknown = await post('/api/oauth2/userinfo', { access_token: 'x'.repeat(43) });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe('invalid_token');
      expect(unknown.headers['www-authenticate']).toBe(
        'Bearer realm="oauth2", error="invalid_token", error_description="The access token is invalid, expired or revoked"',
      );
      const narrow = await post('/api/oauth2/userinfo', { access_token: token });
      expect(narrow.status).toBe(403);
      expect(narrow.body.error).toBe('insufficient_scope');
      const empty = await post('/api/oauth2/userinfo', { access_token: '' });
      expect(empty.status).toBe(401);
      expect(empty.headers['www-authenticate']).toBe('Bearer realm="oauth2"');
      const repeated = await t
        .http()
        .post('/api/oauth2/userinfo')
        .type('form')
        .send(`access_token=${token}&access_token=${token}`);
      expect(repeated.status).toBe(400);
      expect(repeated.body.error).toBe('invalid_request');
    });

    it('takes no form token on a GET (RFC 6750 section 2.2) nor at user emails (GET only)', async () => {
      const { token } = await accessToken();
      for (const path of ['/api/oauth2/userinfo', '/api/oauth2/user/emails']) {
        const res = await t.http().get(path).type('form').send({ access_token: token });
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="oauth2"');
      }
    });
  });

  it('does not take tokens from the query string', async () => {
    const { token } = await accessToken();
    const res = await t.http().get(`/api/oauth2/userinfo?access_token=${token}`);
    expect(res.status).toBe(401);
  });
});
