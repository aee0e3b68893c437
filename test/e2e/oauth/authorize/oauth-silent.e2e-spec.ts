import { createApplication } from '../../../factories';
import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  ISSUER,
  oauthSetup,
  pkce,
  query,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('Silent authentication (prompt=none)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const silent = (agent: ReturnType<typeof browser>, clientId: string, scope = 'read') =>
    agent.get(
      authorizePath(
        authorizeParams({
          clientId,
          scope,
          challenge: pkce().challenge,
          extra: { prompt: 'none' },
        }),
      ),
    );
  const expectError = (
    res: { status: number; headers: Record<string, string> },
    error: string,
    description: string,
  ) => {
    expect(res.status).toBe(302);
    expect(res.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(query(res.headers.location)).toEqual({
      error,
      error_description: description,
      state: 'st-123',
      iss: ISSUER,
    });
  };

  it('answers login_required without a session, never a page', async () => {
    const { application } = await oauthSetup(t.app);
    expectError(
      await silent(browser(t.app), application.clientId),
      'login_required',
      'The user is not signed in',
    );
  });

  it('answers consent_required for a signed-in user who never authorized this app', async () => {
    const { application } = await oauthSetup(t.app);
    const other = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: other.application.clientId,
      challenge: pkce().challenge,
    });
    expectError(
      await silent(agent, application.clientId),
      'consent_required',
      'The user has not authorized this application',
    );
  });

  it('issues a fresh code at once after an earlier authorization, counting it', async () => {
    const { application, user } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    const res = await silent(agent, application.clientId);
    expect(res.status).toBe(302);
    expect(Object.keys(query(res.headers.location)).sort()).toEqual(['code', 'iss', 'state']);
    const [{ auth_count }] = await t.dataSource.query(
      'SELECT auth_count FROM app_users WHERE user_id = $1',
      [user.id],
    );
    expect(auth_count).toBe(2);
    expect(
      await t.dataSource.query(
        "SELECT count(*)::int AS n FROM events WHERE event_type = 'authorization_granted'",
      ),
    ).toEqual([{ n: 2 }]);
  });

  it('answers consent_required when a wider scope than granted is asked', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
      scope: 'profile',
    });
    expectError(
      await silent(agent, application.clientId, 'read'),
      'consent_required',
      'The user has not authorized this application',
    );
  });

  it('answers consent_required after the authorization was revoked', async () => {
    const { application, user } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    await t.dataSource.query('UPDATE app_users SET granted_scope = NULL WHERE user_id = $1', [
      user.id,
    ]);
    expectError(
      await silent(agent, application.clientId),
      'consent_required',
      'The user has not authorized this application',
    );
  });

  it('answers interaction_required for an unverified email where the app requires one', async () => {
    const { application } = await oauthSetup(t.app, { emailVerified: false });
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    await t.dataSource.query(
      'UPDATE applications SET require_verified_email = true WHERE id = $1',
      [application.id],
    );
    expectError(
      await silent(agent, application.clientId),
      'interaction_required',
      'The application requires a verified email address',
    );
  });

  it('answers access_denied for a disabled relation, a disabled app and a full quota', async () => {
    const { application, user } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    await t.dataSource.query('UPDATE app_users SET enabled = false WHERE user_id = $1', [user.id]);
    expectError(
      await silent(agent, application.clientId),
      'access_denied',
      'Your access to this application is disabled',
    );
    await t.dataSource.query('UPDATE app_users SET enabled = true WHERE user_id = $1', [user.id]);
    await t.dataSource.query('UPDATE applications SET enabled = false WHERE id = $1', [
      application.id,
    ]);
    expectError(
      await silent(agent, application.clientId),
      'access_denied',
      'The application is disabled',
    );

    const full = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    await t.dataSource.query('UPDATE applications SET user_quota = 0 WHERE id = $1', [
      full.application.id,
    ]);
    expectError(
      await silent(agent, full.application.clientId),
      'access_denied',
      'The application has reached its user quota',
    );
  });

  it('answers login_required once the session expired (SESSION_TTL_SECONDS, 12 h by default)', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    t.clock.advance(12 * 3600 * 1000);
    expectError(
      await silent(agent, application.clientId),
      'login_required',
      'The user is not signed in',
    );
  });
});
