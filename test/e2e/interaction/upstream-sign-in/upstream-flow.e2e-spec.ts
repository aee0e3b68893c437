import { createUser } from '../../../factories';
import { consoleSession, type ConsoleClient } from '../../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../../support/passkeys';
import { UpstreamIdentitiesService } from '../../../../src/modules/upstreams/identities/upstream-identities.service';
import {
  authorizeParams,
  authorizePath,
  approveFrom,
  browser,
  ISSUER,
  oauthSetup,
  PASSWORD,
  pkce,
  query,
  REDIRECT_URI,
  tokenRequest,
  type Agent,
} from '../../../support/oauth';
import { visitUpstream } from '../../../support/upstream-standins/browser';
import { increase, scrape } from '../../../support/metrics';
import { useUpstreamBed } from '../../../support/upstream-bed';

/** Sign-in through an upstream provider, end to end over HTTP (docs/upstreams.md). */
describe('Upstream sign-in flow', () => {
  const bed = useUpstreamBed({
    env: { METRICS_PORT: '0' },
    account: {
      sub: 'corp-42',
      email: 'dana@corp.example',
      email_verified: true,
      preferred_username: 'dana',
    },
  });

  async function setup() {
    const { application } = await oauthSetup(bed.t.app);
    await bed.addProvider();
    return application;
  }

  /** /oauth2/authorize → the login page; returns the page. */
  async function loginPage(
    agent: Agent,
    clientId: string,
    extra: Record<string, string> = {},
    challenge = pkce().challenge,
  ) {
    const start = await agent.get(
      authorizePath({ ...authorizeParams({ clientId, challenge }), ...extra }),
    );
    expect(start.status).toBe(302);
    return agent.get(start.headers.location);
  }

  const startLink = (html: string): string => {
    const href = /href="(\/api\/auth\/upstream\/corp\/start\?request=[^"]+)"/.exec(html)?.[1];
    if (!href) throw new Error('no start link on the page');
    return href.replace(/&amp;/g, '&');
  };

  /** Login page → start → the upstream signs in → the callback path on this service. */
  async function throughUpstream(agent: Agent, clientId: string, challenge?: string) {
    const page = await loginPage(agent, clientId, {}, challenge);
    const start = await agent.get(startLink(page.text));
    expect(start.status).toBe(302);
    return visitUpstream(start.headers.location, ISSUER);
  }

  it('signs a new person in through the provider, creates the user and issues a code after consent', async () => {
    const application = await setup();
    const agent = browser(bed.t.app);
    const callback = await throughUpstream(agent, application.clientId);
    expect(callback).toMatch(/^\/api\/auth\/upstream\/corp\/callback\?/);
    const back = await agent.get(callback);
    expect(back.status).toBe(302);
    expect(back.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    const { code } = await approveFrom(agent, back.headers.location);
    expect(code).toEqual(expect.any(String));

    const users = await bed.t.dataSource.query(
      "SELECT username, email, email_verified, password_hash FROM users WHERE username <> 'alice'",
    );
    expect(users).toEqual([
      { username: 'dana', email: 'dana@corp.example', email_verified: true, password_hash: null },
    ]);
    const sessions = await bed.t.dataSource.query('SELECT auth_method FROM oauth_sessions');
    expect(sessions).toEqual([{ auth_method: 'upstream' }]);
    // An ordinary authorization, with the events of a password login.
    const events = await bed.t.dataSource.query('SELECT event_type FROM events ORDER BY id');
    expect(events).toEqual([
      { event_type: 'authorization_granted' },
      { event_type: 'code_issued' },
    ]);

    // The same upstream account signs in to the same user; the earlier grant covers the scopes.
    const again = browser(bed.t.app);
    const second = await again.get(await throughUpstream(again, application.clientId));
    expect(second.status).toBe(302);
    expect(query(second.headers.location).code).toEqual(expect.any(String));
    const [{ count }] = await bed.t.dataSource.query('SELECT count(*)::int AS count FROM users');
    expect(count).toBe(2);
  });

  it('puts the bound identity in userinfo upstreams', async () => {
    const application = await setup();
    const agent = browser(bed.t.app);
    const { verifier, challenge } = pkce();
    const back = await agent.get(await throughUpstream(agent, application.clientId, challenge));
    const { code } = await approveFrom(agent, back.headers.location);
    const token = await tokenRequest(bed.t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    const res = await bed.t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${token.body.access_token as string}`);
    expect(res.body).toMatchObject({ username: 'dana', email: 'dana@corp.example' });
    expect(res.body.upstreams).toEqual([
      {
        id: 1,
        upstream_id: null,
        upstream_name: 'Corp SSO',
        upstream_type: 'corp',
        upstream_icon: null,
        upstream_user_id: 'corp-42',
        upstream_username: 'dana',
        upstream_email: 'dana@corp.example',
        upstream_avatar: null,
        provider_data: { iss: bed.upstream.issuer },
        username: 'dana',
      },
    ]);
  });

  it('refuses a replayed callback, even with the attempt cookie copied', async () => {
    const application = await setup();
    const agent = browser(bed.t.app);
    const page = await loginPage(agent, application.clientId);
    const start = await agent.get(startLink(page.text));
    const cookie = (start.headers['set-cookie'] as unknown as string[])
      .map((line) => line.split(';')[0])
      .find((pair) => pair.startsWith('idsvc_upstream='));
    const callback = await visitUpstream(start.headers.location, ISSUER);
    expect((await agent.get(callback)).status).toBe(302);
    const replay = await bed.t
      .http()
      .get(callback)
      .set('Cookie', cookie ?? '');
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('already used');
  });

  it('refuses a callback whose state is not the one sealed in this browser', async () => {
    const application = await setup();
    const agent = browser(bed.t.app);
    const callback = await throughUpstream(agent, application.clientId);
    const forged = callback.replace(/state=[^&]+/, 'state=forged');
    const res = await agent.get(forged);
    expect(res.status).toBe(400);
    // Another browser (no attempt cookie) cannot use the genuine answer either.
    const other = await browser(bed.t.app).get(callback);
    expect(other.status).toBe(400);
    expect(other.text).toContain('Sign-in expired');
    const [{ count }] = await bed.t.dataSource.query('SELECT count(*)::int AS count FROM users');
    expect(count).toBe(1);
  });

  it('ends on a clear page when the person refuses at the provider', async () => {
    const application = await setup();
    const agent = browser(bed.t.app);
    const page = await loginPage(agent, application.clientId);
    const start = await agent.get(startLink(page.text));
    const state = new URL(start.headers.location).searchParams.get('state');
    const res = await agent.get(
      `/api/auth/upstream/corp/callback?error=access_denied&state=${state}`,
    );
    expect(res.status).toBe(403);
    expect(res.text).toContain('Sign-in cancelled');
  });

  it('counts sign-ins in the metrics by provider kind and outcome', async () => {
    const application = await setup();
    const before = (await scrape(bed.t.app)).samples;
    const agent = browser(bed.t.app);
    expect((await agent.get(await throughUpstream(agent, application.clientId))).status).toBe(302);
    const refused = browser(bed.t.app);
    const start = await refused.get(
      startLink((await loginPage(refused, application.clientId)).text),
    );
    const state = new URL(start.headers.location).searchParams.get('state');
    const cancelled = await refused.get(
      `/api/auth/upstream/corp/callback?error=access_denied&state=${state}`,
    );
    expect(cancelled.status).toBe(403);
    const after = await scrape(bed.t.app);
    const logins = (outcome: string) =>
      increase(before, after.samples, 'idsvc_logins_total', { method: 'upstream:oidc', outcome });
    expect(logins('success')).toBe(1);
    expect(logins('upstream_error')).toBe(1);
    // The provider's id and the person stay out of the labels.
    expect(after.text).not.toMatch(/corp|dana/);
  });

  it('never links to an existing account because of a matching email', async () => {
    const application = await setup();
    await createUser(bed.t.app, { username: 'dana-local', email: 'dana@corp.example' });
    const agent = browser(bed.t.app);
    const res = await agent.get(await throughUpstream(agent, application.clientId));
    expect(res.status).toBe(409);
    expect(res.text).toContain('Account already exists');
    expect(await bed.t.dataSource.query('SELECT id FROM upstream_identities')).toEqual([]);
  });

  describe('upstream_providers', () => {
    it('offers the configured providers it names, ignoring unknown names', async () => {
      const application = await setup();
      const all = await loginPage(browser(bed.t.app), application.clientId);
      expect(all.text).toContain('Sign in with Corp SSO');
      expect(all.text).toContain('name="password"');

      const named = await loginPage(browser(bed.t.app), application.clientId, {
        upstream_providers: 'corp,nope',
      });
      expect(named.status).toBe(200);
      expect(named.text).toContain('Sign in with Corp SSO');
      expect(named.text).not.toContain('name="password"');

      const passwordOnly = await loginPage(browser(bed.t.app), application.clientId, {
        upstream_providers: 'password',
      });
      expect(passwordOnly.text).not.toContain('Corp SSO');
      expect(passwordOnly.text).toContain('name="password"');
    });

    it('keeps the password form when the list names no configured provider', async () => {
      // Integrations of the original service send e.g. upstream_providers=github whether or not
      // this deployment has configured that provider.
      const application = await setup();
      const res = await loginPage(browser(bed.t.app), application.clientId, {
        upstream_providers: 'nope,github',
      });
      expect(res.status).toBe(200);
      expect(res.text).toContain('name="password"');
      expect(res.text).not.toContain('Corp SSO');
    });

    it('lets no provider outside the list start or complete the request', async () => {
      const application = await setup();
      const agent = browser(bed.t.app);
      const page = await loginPage(agent, application.clientId, { upstream_providers: 'password' });
      const request = /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      const res = await agent.get(
        `/api/auth/upstream/corp/start?request=${encodeURIComponent(request)}`,
      );
      expect(res.status).toBe(403);
      expect(res.text).toContain('not offered');
      // An answer from another provider than the one started is refused too.
      const callback = await throughUpstream(agent, application.clientId);
      const other = await agent.get(callback.replace('/corp/', '/github/'));
      expect(other.status).toBe(400);
    });

    it('refuses the password form when the list leaves it out', async () => {
      const application = await setup();
      const agent = browser(bed.t.app);
      const page = await loginPage(agent, application.clientId, { upstream_providers: 'corp' });
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text);
      expect(csrf).toBeNull();
      const request = /request=([^"&]+)/.exec(startLink(page.text))?.[1] ?? '';
      const res = await agent
        .post('/oauth2/login')
        .type('form')
        .send({
          request: decodeURIComponent(request),
          csrf_token: 'x',
          username: 'alice',
          password: 'y',
        });
      expect(res.status).toBe(403); // the CSRF check comes first, as for every form
    });
  });

  describe('direct entry', () => {
    it("starts the provider at once for this service's authorization request", async () => {
      const application = await setup();
      const agent = browser(bed.t.app);
      const { challenge } = pkce();
      const redirect = `${ISSUER}${authorizePath(authorizeParams({ clientId: application.clientId, challenge }))}`;
      const start = await agent.get(
        `/api/auth/upstream/corp?redirect=${encodeURIComponent(redirect)}`,
      );
      expect(start.status).toBe(302);
      expect(start.headers.location).toMatch(new RegExp(`^${bed.upstream.issuer}/`));
      const back = await agent.get(await visitUpstream(start.headers.location, ISSUER));
      expect(back.status).toBe(302);
      expect(back.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    });

    it('refuses a redirect that is not an authorization request URL of this service', async () => {
      await setup();
      for (const redirect of [
        'https://evil.example/oauth2/authorize?client_id=x',
        `${ISSUER}/oauth2/login`,
        '//evil.example/oauth2/authorize',
      ]) {
        const res = await browser(bed.t.app).get(
          `/api/auth/upstream/corp?redirect=${encodeURIComponent(redirect)}`,
        );
        expect([redirect, res.status, res.headers.location]).toEqual([redirect, 400, undefined]);
      }
    });

    it('answers prompt=none silently, without the provider', async () => {
      const application = await setup();
      const { challenge } = pkce();
      const redirect = `${ISSUER}${authorizePath({ ...authorizeParams({ clientId: application.clientId, challenge }), prompt: 'none' })}`;
      const res = await browser(bed.t.app).get(
        `/api/auth/upstream/corp?redirect=${encodeURIComponent(redirect)}`,
      );
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(new RegExp(`^${REDIRECT_URI}\\?`));
      expect(query(res.headers.location).error).toBe('login_required');
    });
  });

  describe('binding while signed in (console)', () => {
    async function bindAs(userId: string) {
      const console = await consoleSession(bed.t, userId);
      const started = await console.request('post', '/api/console/account/upstreams/corp/bind');
      expect(started.status).toBe(200);
      const attempt = (started.headers['set-cookie'] as unknown as string[])
        .map((line) => line.split(';')[0])
        .find((pair) => pair.startsWith('idsvc_upstream='));
      const callback = await visitUpstream(started.body.location as string, ISSUER);
      return { console, attempt: attempt ?? '', callback };
    }

    it('binds the provider account to the signed-in user, audited, and later signs in to it', async () => {
      const application = await setup();
      const alice = await createUser(bed.t.app, {
        username: 'alice2',
        email: 'alice2@example.org',
      });
      const { console, attempt, callback } = await bindAs(alice.id);
      const done = await bed.t.http().get(callback).set('Cookie', `${console.cookie}; ${attempt}`);
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe('/console/account');
      const listed = await console.request('get', '/api/console/account/upstreams');
      expect(listed.body).toEqual([
        expect.objectContaining({ providerId: 'corp', subject: 'corp-42', username: 'dana' }),
      ]);
      const audit = await bed.t.dataSource.query(
        'SELECT action, actor_user_id, target FROM audit_log',
      );
      expect(audit).toEqual([
        {
          action: 'upstream.bind',
          actor_user_id: alice.id,
          target: `upstream:${listed.body[0].id}`,
        },
      ]);
      // Signing in through the provider now lands in alice's account, no new user.
      const agent = browser(bed.t.app);
      const back = await agent.get(await throughUpstream(agent, application.clientId));
      expect(back.status).toBe(302);
      const sessions = await bed.t.dataSource.query(
        "SELECT user_id FROM oauth_sessions WHERE auth_method = 'upstream'",
      );
      expect(sessions).toEqual([{ user_id: alice.id }]);
    });

    it('needs a step-up to start: a passkey confirmation for that provider, or a fresh password sign-in', async () => {
      await setup();
      const bind = (client: ConsoleClient, token?: string) => {
        const req = client.request('post', '/api/console/account/upstreams/corp/bind');
        if (token !== undefined) req.set(CONFIRMATION_HEADER, token);
        return req.send();
      };
      const attemptCookie = (res: { headers: Record<string, unknown> }) =>
        ((res.headers['set-cookie'] as string[] | undefined) ?? []).some((line) =>
          line.startsWith('idsvc_upstream='),
        );
      // Without a passkey: a password sign-in within the last 5 minutes, and not a minute older.
      const bob = await createUser(bed.t.app, { username: 'bob2', email: 'bob2@example.org' });
      const stale = await consoleSession(bed.t, bob.id);
      bed.t.clock.advance(5 * 60_000 + 1000);
      const late = await bind(stale);
      expect([late.status, late.body.error, attemptCookie(late)]).toEqual([
        403,
        'recent_sign_in_required',
        false,
      ]);
      expect((await bind(await consoleSession(bed.t, bob.id))).status).toBe(200);
      // A session signed in with a passkey is no step-up by itself either.
      const alice = await createUser(bed.t.app, {
        username: 'alice2',
        email: 'alice2@example.org',
      });
      const authenticator = newAuthenticator();
      const fresh = await consoleSession(bed.t, alice.id);
      await registerPasskey(fresh, authenticator);
      const none = await bind(fresh);
      expect([none.status, none.body.error, attemptCookie(none)]).toEqual([
        403,
        'passkey_confirmation_required',
        false,
      ]);
      // A token for another operation does not bind, and is left for its own.
      const unrelated = await confirmationToken(fresh, authenticator, {
        action: 'passkey.register',
      });
      expect((await bind(fresh, unrelated)).body.error).toBe('passkey_confirmation_required');
      // Confirmed for this provider: the attempt starts; the token is then spent.
      const token = await confirmationToken(fresh, authenticator, {
        action: 'upstream.bind',
        providerId: 'corp',
      });
      const started = await bind(fresh, token);
      expect([started.status, attemptCookie(started)]).toEqual([200, true]);
      expect((await bind(fresh, token)).body.error).toBe('passkey_confirmation_required');
      // An unknown provider is 404 before anything is spent or asked.
      const unknown = await fresh.request('post', '/api/console/account/upstreams/nope/bind');
      expect(unknown.status).toBe(404);
      const start = await fresh
        .request('post', '/api/console/confirmations')
        .send({ action: 'upstream.bind', providerId: 'nope' });
      expect([start.status, start.body.error]).toEqual([404, 'not_found']);
    });

    it('refuses an upstream account another user holds', async () => {
      const application = await setup();
      const agent = browser(bed.t.app);
      await agent.get(await throughUpstream(agent, application.clientId)); // creates dana
      const alice = await createUser(bed.t.app, {
        username: 'alice2',
        email: 'alice2@example.org',
      });
      const { console, attempt, callback } = await bindAs(alice.id);
      const res = await bed.t.http().get(callback).set('Cookie', `${console.cookie}; ${attempt}`);
      expect(res.status).toBe(409);
      expect(res.text).toContain('bound to another account');
    });

    it('unbinds with a passkey confirmation, audited, but never the last way to sign in', async () => {
      await setup();
      const identities = bed.t.app.get(UpstreamIdentitiesService);
      const profile = {
        username: 'x',
        email: null,
        emailVerified: false,
        avatar: null,
        providerData: {},
      };
      // An account created by the provider: no password, one binding.
      const created = await identities.signIn({ providerId: 'corp', subject: 'only', profile });
      if (created.kind === 'email_taken') throw new Error('unexpected');
      const console = await consoleSession(bed.t, created.user.id);
      const authenticator = newAuthenticator();
      await registerPasskey(console, authenticator);
      const [{ id }] = await bed.t.dataSource.query('SELECT id FROM upstream_identities');
      const unbind = async (withConfirmation: boolean) => {
        const req = console.request('delete', `/api/console/account/upstreams/${id}`);
        if (withConfirmation) {
          req.set(
            CONFIRMATION_HEADER,
            await confirmationToken(console, authenticator, {
              action: 'upstream.unbind',
              upstreamIdentityId: id,
            }),
          );
        }
        return req;
      };
      expect((await unbind(false)).body.error).toBe('passkey_confirmation_required');
      const last = await unbind(true);
      expect([last.status, last.body.error]).toEqual([409, 'conflict']);

      await identities.bind(created.user.id, { providerId: 'other', subject: 'o-1', profile });
      const done = await unbind(true);
      expect(done.status).toBe(204);
      expect(await bed.t.dataSource.query('SELECT provider_id FROM upstream_identities')).toEqual([
        { provider_id: 'other' },
      ]);
      const audit = await bed.t.dataSource.query(
        "SELECT target FROM audit_log WHERE action = 'upstream.unbind'",
      );
      expect(audit).toEqual([{ target: `upstream:${id}` }]);
      const gone = await unbind(false);
      expect(gone.status).toBe(404);
      // A path id that cannot name a binding is 404 like an unknown one, before the confirmation.
      for (const notAnId of ['abc', '0', `0${id}`, '2147483648']) {
        const res = await console.request('delete', `/api/console/account/upstreams/${notAnId}`);
        expect([res.status, res.body.error]).toEqual([404, 'not_found']);
      }
    });

    it("binds the unbind confirmation to one identity: a token for A cannot unbind B, and A's works once", async () => {
      await setup();
      const identities = bed.t.app.get(UpstreamIdentitiesService);
      const alice = await createUser(bed.t.app, {
        username: 'alice2',
        email: 'alice2@example.org',
      });
      const profile = {
        username: 'x',
        email: null,
        emailVerified: false,
        avatar: null,
        providerData: {},
      };
      await identities.bind(alice.id, { providerId: 'corp', subject: 'a-1', profile });
      await identities.bind(alice.id, { providerId: 'other', subject: 'b-1', profile });
      const rows: { id: number; provider_id: string }[] = await bed.t.dataSource.query(
        'SELECT id, provider_id FROM upstream_identities ORDER BY id',
      );
      const [a, b] = rows.map((row) => row.id);
      const console = await consoleSession(bed.t, alice.id);
      const authenticator = newAuthenticator();
      await registerPasskey(console, authenticator);
      const forA = await confirmationToken(console, authenticator, {
        action: 'upstream.unbind',
        upstreamIdentityId: a,
      });
      const unbind = (identityId: number) =>
        console
          .request('delete', `/api/console/account/upstreams/${identityId}`)
          .set(CONFIRMATION_HEADER, forA);

      const wrong = await unbind(b);
      expect([wrong.status, wrong.body.error]).toEqual([403, 'passkey_confirmation_required']);
      expect(
        await bed.t.dataSource.query('SELECT id FROM upstream_identities ORDER BY id'),
      ).toEqual([{ id: a }, { id: b }]);
      expect(
        await bed.t.dataSource.query("SELECT id FROM audit_log WHERE action = 'upstream.unbind'"),
      ).toEqual([]);

      expect((await unbind(a)).status).toBe(204);
      expect(await bed.t.dataSource.query('SELECT id FROM upstream_identities')).toEqual([
        { id: b },
      ]);
      // Spent: not good for a second operation, not even on the remaining identity.
      const again = await unbind(b);
      expect([again.status, again.body.error]).toEqual([403, 'passkey_confirmation_required']);
    });

    it("refuses to start an unbind confirmation for an identity that is not the user's own", async () => {
      await setup();
      const identities = bed.t.app.get(UpstreamIdentitiesService);
      const alice = await createUser(bed.t.app, {
        username: 'alice2',
        email: 'alice2@example.org',
      });
      const bob = await createUser(bed.t.app, { username: 'bob2', email: 'bob2@example.org' });
      const profile = {
        username: 'x',
        email: null,
        emailVerified: false,
        avatar: null,
        providerData: {},
      };
      await identities.bind(bob.id, { providerId: 'corp', subject: 'b-1', profile });
      const [{ id }] = await bed.t.dataSource.query('SELECT id FROM upstream_identities');
      const console = await consoleSession(bed.t, alice.id);
      await registerPasskey(console, newAuthenticator());
      const begin = (body: object) =>
        console.request('post', '/api/console/confirmations').send(body);
      const foreign = await begin({ action: 'upstream.unbind', upstreamIdentityId: id });
      expect([foreign.status, foreign.body.error]).toEqual([404, 'not_found']);
      const missing = await begin({ action: 'upstream.unbind' });
      expect([missing.status, missing.body.error]).toEqual([400, 'invalid_body']);
    });

    it('finishes only with the session of the user who started it', async () => {
      await setup();
      const alice = await createUser(bed.t.app, {
        username: 'alice2',
        email: 'alice2@example.org',
      });
      const { attempt, callback } = await bindAs(alice.id);
      const res = await bed.t.http().get(callback).set('Cookie', attempt);
      expect(res.status).toBe(400);
      expect(await bed.t.dataSource.query('SELECT id FROM upstream_identities')).toEqual([]);
    });
  });

  describe('required upstream (application setting)', () => {
    it('answers interaction_required to prompt=none until a required provider is bound', async () => {
      const application = await setup();
      await bed.t.dataSource.query(
        'UPDATE applications SET required_upstreams = $2 WHERE id = $1',
        [application.id, ['corp', 'other']],
      );
      const alice = await bed.t.dataSource.query("SELECT id FROM users WHERE username = 'alice'");
      const agent = browser(bed.t.app);
      // alice signs in with her password but has no binding.
      const { challenge } = pkce();
      const page = await loginPage(agent, application.clientId, {}, challenge);
      const login = await agent
        .post('/oauth2/login')
        .type('form')
        .send({
          request: /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? '',
          csrf_token: /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '',
          username: 'alice',
          password: PASSWORD,
        });
      // Interactively she is asked to bind one of them.
      expect(login.status).toBe(303);
      expect(login.headers.location).toMatch(/^\/oauth2\/bind-upstream\?request=/);
      const silent = () =>
        agent.get(
          authorizePath({
            ...authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
            prompt: 'none',
          }),
        );
      const refused = query((await silent()).headers.location);
      expect(refused.error).toBe('interaction_required');
      expect(refused.error_description).toContain('corp, other');

      await bed.t.app.get(UpstreamIdentitiesService).bind(alice[0].id, {
        providerId: 'corp',
        subject: 'corp-alice',
        profile: {
          username: 'alice',
          email: null,
          emailVerified: false,
          avatar: null,
          providerData: {},
        },
      });
      const afterBind = await silent();
      // Bound now: the next answer is about consent, no longer about the binding.
      expect(query(afterBind.headers.location).error).toBe('consent_required');
    });

    it('asks a signed-in user to bind a required provider, then continues the request', async () => {
      const application = await setup();
      await bed.t.dataSource.query(
        'UPDATE applications SET required_upstreams = $2 WHERE id = $1',
        [application.id, ['corp']],
      );
      const agent = browser(bed.t.app);
      const page = await loginPage(agent, application.clientId);
      const login = await agent
        .post('/oauth2/login')
        .type('form')
        .send({
          request: /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? '',
          csrf_token: /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '',
          username: 'alice',
          password: PASSWORD,
        });
      const bindPage = await agent.get(login.headers.location);
      expect(bindPage.status).toBe(200);
      expect(bindPage.text).toContain('Bind Corp SSO');
      const form = {
        request: /name="request" value="([^"]+)"/.exec(bindPage.text)?.[1] ?? '',
        csrf_token: /name="csrf_token" value="([^"]+)"/.exec(bindPage.text)?.[1] ?? '',
      };
      // Without the page's CSRF token nothing starts.
      const forged = await agent
        .post('/api/auth/upstream/corp/bind')
        .type('form')
        .send({ ...form, csrf_token: 'x' });
      expect(forged.status).toBe(403);
      const start = await agent.post('/api/auth/upstream/corp/bind').type('form').send(form);
      // A page, not a redirect: the form page's CSP form-action would block one to the provider.
      expect(start.status).toBe(200);
      const links = [...start.text.matchAll(/href="([^"]+)"/g)].map((m) =>
        m[1].replace(/&amp;/g, '&'),
      );
      const provider = links.find((link) => link.startsWith(bed.upstream.issuer)) ?? '';
      const back = await agent.get(await visitUpstream(provider, ISSUER));
      expect(back.status).toBe(302);
      expect(back.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
      const { code } = await approveFrom(agent, back.headers.location);
      expect(code).toEqual(expect.any(String));
      const bound = await bed.t.dataSource.query(
        'SELECT u.username FROM upstream_identities i JOIN users u ON u.id = i.user_id',
      );
      expect(bound).toEqual([{ username: 'alice' }]);
      const audit = await bed.t.dataSource.query('SELECT action FROM audit_log');
      expect(audit).toEqual([{ action: 'upstream.bind' }]);
    });
  });
});
