import { createApiKey, createApplication, createUser } from '../../../factories';
import { relate } from '../../../factories/app-users';
import { accountBrowser, formToken, postAccountForm } from '../../../support/account';
import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  query,
  browser,
  exchangeCode,
  oauthSetup,
  pkce,
  tokenRequest,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

const MINUTE = 60_000;

/** "Applications you authorized" and revoking one (docs/accounts.md). */
describe('Account page: authorized applications', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /**
   * Alice authorizes "Demo App" (scope read email) through the OAuth pages of `agent`, which is
   * then signed in (the account page shares the session); the client holds tokens.
   */
  async function authorized(agent: Agent) {
    const setup = await oauthSetup(t.app);
    await t.dataSource.query('UPDATE applications SET logo = $1 WHERE id = $2', [
      'https://demo.example/logo.png',
      setup.application.id,
    ]);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(agent, {
      clientId: setup.application.clientId,
      challenge,
      scope: 'read email',
    });
    const tokens = await exchangeCode(t.app, setup.application.clientId, code, verifier);
    return { ...setup, tokens };
  }

  const refresh = (clientId: string, refreshToken: string) =>
    tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    });

  it('lists the application with its logo, scopes and last use, on the session of the OAuth login', async () => {
    const agent = browser(t.app);
    const authorizedAt = t.clock.now();
    const { application, tokens } = await authorized(agent);
    let page = await agent.get('/account');
    expect(page.status).toBe(200);
    const row = /<tr data-application-id="(\d+)">([\s\S]*?)<\/tr>/.exec(page.text);
    expect(row?.[1]).toBe(String(application.id));
    expect(row?.[2]).toContain('<img class="logo" src="https://demo.example/logo.png"');
    expect(row?.[2]).toContain('<strong>Demo App</strong>');
    expect(row?.[2]).toContain('<code>read</code>');
    expect(row?.[2]).toContain('<code>email</code>');
    expect(row?.[2]).toContain(`datetime="${authorizedAt.toISOString()}"`);
    // A refresh later is a use: the page shows its time.
    t.clock.advance(10 * MINUTE);
    expect((await refresh(application.clientId, tokens.refresh_token)).status).toBe(200);
    page = await agent.get('/account');
    expect(page.text).toContain(`datetime="${t.clock.now().toISOString()}"`);
  });

  it('revokes: the refresh token fails with invalid_grant, consent is asked again, the application sees the events', async () => {
    const agent = browser(t.app);
    const { application, tokens, user } = await authorized(agent);
    const { plaintext: key } = await createApiKey(t.app, application.id, ['user:read']);
    const res = await postAccountForm(agent, `/account/applications/${application.id}/revoke`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account?done=revoked');
    const page = await agent.get(res.headers.location);
    expect(page.text).toContain('access was revoked.');
    expect(page.text).toContain('You have not authorized any application.');

    const refused = await refresh(application.clientId, tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    const [relation] = await t.dataSource.query('SELECT granted_scope FROM app_users');
    expect(relation.granted_scope).toBeNull();
    const silent = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          scope: 'read email',
          extra: { prompt: 'none' },
        }),
      ),
    );
    expect(query(silent.headers.location).error).toBe('consent_required');

    const events = await t.http().get('/api/v1/app/events').set('Authorization', `Bearer ${key}`);
    expect(events.status).toBe(200);
    const [revoked, tokenRevoked] = events.body.items as {
      eventType: string;
      userId: string;
      scope: string;
      description: string;
    }[];
    expect(revoked).toMatchObject({
      eventType: 'authorization_revoked',
      userId: user.id,
      scope: 'read email',
      description: 'Revoked by the user from their account page (1 tokens)',
    });
    expect(tokenRevoked).toMatchObject({
      eventType: 'token_revoked',
      userId: user.id,
      description: expect.stringMatching(/^Token \d+ revoked by the user from their account page$/),
    });
  });

  it('answers 404 for an application without a live grant of mine, and changes nothing', async () => {
    const agent = browser(t.app);
    const { application } = await authorized(agent);
    // Another application: related (its owner added me) but never authorized, or unknown.
    const other = await createApplication(t.app, { name: 'Other' });
    const bob = await createUser(t.app, { username: 'bob', email: 'bob@example.org' });
    await relate(t, other.application.id, bob.id, { grantedScope: 'read' });
    const [alice] = await t.dataSource.query("SELECT id FROM users WHERE username = 'alice'");
    await relate(t, other.application.id, alice.id, { grantedScope: null });
    // The token of the revoke forms (one purpose for all of them), posted to other ids.
    const page = await agent.get('/account');
    const csrfToken = formToken(page.text, `/account/applications/${application.id}/revoke`);
    for (const id of [String(other.application.id), '424242', '9999999999', 'abc', '0']) {
      const res = await agent
        .post(`/account/applications/${id}/revoke`)
        .type('form')
        .send({ csrf_token: csrfToken });
      expect(res.status).toBe(404);
      expect(res.text).toContain('You have not authorized this application.');
    }
    const grants = await t.dataSource.query(
      'SELECT application_id, user_id, granted_scope FROM app_users ORDER BY id',
    );
    expect(grants).toEqual([
      { application_id: application.id, user_id: alice.id, granted_scope: 'read email' },
      { application_id: other.application.id, user_id: bob.id, granted_scope: 'read' },
      { application_id: other.application.id, user_id: alice.id, granted_scope: null },
    ]);
    expect(
      await t.dataSource.query('SELECT 1 FROM events WHERE event_type LIKE $1', ['%revoked']),
    ).toEqual([]);
  });

  it('refuses a revoke without the token of this session (403)', async () => {
    const agent = browser(t.app);
    const { application, tokens } = await authorized(agent);
    const elsewhere = await accountBrowser(t.app);
    const page = await elsewhere.get('/account');
    const res = await agent
      .post(`/account/applications/${application.id}/revoke`)
      .type('form')
      .send({ csrf_token: formToken(page.text, `/account/applications/${application.id}/revoke`) });
    expect(res.status).toBe(403);
    expect((await refresh(application.clientId, tokens.refresh_token)).status).toBe(200);
  });
});
