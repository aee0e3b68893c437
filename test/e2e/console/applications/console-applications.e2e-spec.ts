import { createApiKey } from '../../../factories';
import { bearer } from '../../../factories/app-users';
import { consoleWorld, type ConsoleClient, type ConsoleWorld } from '../../../support/console';
import { basic, tokenRequest } from '../../../support/oauth';
import { tokenManagementRequest } from '../../../support/oauth-tokens';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
} from '../../../support/passkeys';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, TestApp } from '../../../support/test-app';

interface AuditEntry {
  action: string;
  target: string;
  actor: { id: string; username: string } | null;
  ip: string;
  details: Record<string, unknown>;
  createdAt: string;
}

/** Console API: applications, their settings, client secret and deletion; the owner rule. */
describe('console applications', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));
  let t: TestApp;
  let w: ConsoleWorld;
  let authenticator: SoftwareAuthenticator;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(start);
    w = await consoleWorld(t);
    authenticator = newAuthenticator();
    await registerPasskey(w.owner, authenticator);
  });

  const appPath = (suffix = '') => `/api/console/applications/${w.applicationId}${suffix}`;
  const auditLog = async (client: ConsoleClient = w.owner): Promise<AuditEntry[]> =>
    (
      (await client.request('get', appPath('/audit-log')).expect(200)).body as {
        entries: AuditEntry[];
      }
    ).entries;

  /** A client_settings.update token of the owner for exactly these client settings. */
  const clientSettingsToken = (settings: {
    redirectUris?: string[];
    postLogoutRedirectUris?: string[];
    clientAuthMethod?: string;
  }): Promise<string> =>
    confirmationToken(w.owner, authenticator, {
      action: 'client_settings.update',
      applicationId: w.applicationId,
      settings,
    });

  /** The owner's PATCH of client settings, confirmed with a passkey for exactly them. */
  const patchClient = async (settings: { clientAuthMethod?: string; redirectUris?: string[] }) =>
    w.owner
      .request('patch', appPath())
      .set(CONFIRMATION_HEADER, await clientSettingsToken(settings))
      .send(settings);

  /** Client authentication at the token endpoint: 401 invalid_client, or past it (400 invalid_grant). */
  /** Whether the secret authenticates the client, at the token endpoint and at introspection alike. */
  const clientAuthenticates = async (clientId: string, secret: string): Promise<boolean> => {
    const introspection = await tokenManagementRequest(
      t.app,
      'introspect',
      { token: 'unknown' },
      basic(clientId, secret),
    );
    const res = await tokenRequest(
      t.app,
      {
        grant_type: 'authorization_code',
        code: 'not-a-code',
        redirect_uri: 'https://client.example/cb',
      },
      basic(clientId, secret),
    );
    expect(introspection.status !== 401).toBe(res.status !== 401);
    return res.status !== 401;
  };

  it('creates an application: the creator is its owner, related as admin; the secret is shown once', async () => {
    const created = await w.viewer.request('post', '/api/console/applications').send({
      name: '  Shop  ',
      description: 'The shop',
      homeUrl: 'https://shop.example',
      logo: 'https://shop.example/logo.png',
      redirectUris: ['https://shop.example/cb', 'https://shop.example/cb'],
      clientAuthMethod: 'secret',
      isPublic: true,
      requireVerifiedEmail: true,
      signUpEnabled: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const id = (created.body as { id: number }).id;
    expect(created.body).toEqual({
      id,
      name: 'Shop',
      description: 'The shop',
      homeUrl: 'https://shop.example',
      logo: 'https://shop.example/logo.png',
      enabled: true,
      role: 'owner',
      // Row timestamps of applications are the database's (not the injectable clock).
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      clientId: expect.stringMatching(/^[0-9A-Za-z]{24}$/),
      clientAuthMethod: 'secret',
      redirectUris: ['https://shop.example/cb'],
      postLogoutRedirectUris: [],
      isPublic: true,
      requireVerifiedEmail: true,
      signUpEnabled: true,
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
      deviceCodeGrant: false,
      securityProfile: 'none',
      idTokenSignedResponseAlg: 'RS256',
      requiredUpstreams: [],
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: false,
      clientSecret: expect.stringMatching(/^[0-9A-Za-z]{48}$/),
    });
    const { clientId, clientSecret } = created.body as { clientId: string; clientSecret: string };
    expect(await clientAuthenticates(clientId, clientSecret)).toBe(true);

    // Shown once: the detail never carries it again.
    const detail = await w.viewer.request('get', `/api/console/applications/${id}`).expect(200);
    expect(detail.body).not.toHaveProperty('clientSecret');
    expect(detail.body).toMatchObject({ role: 'owner', clientId });

    // Related as admin with no authorization yet; new end users still start at t0.
    const [relation] = await t.dataSource.query<
      { group: string; enabled: boolean; auth_count: number }[]
    >(`SELECT "group", enabled, auth_count FROM app_users WHERE application_id = $1`, [id]);
    expect(relation).toEqual({ group: 'admin', enabled: true, auth_count: 0 });

    const audit = (
      await w.viewer.request('get', `/api/console/applications/${id}/audit-log`).expect(200)
    ).body as { entries: AuditEntry[] };
    expect(audit.entries).toEqual([
      {
        id: expect.any(String),
        action: 'application.create',
        target: `application:${id}`,
        actor: { id: w.viewer.userId, username: 'viewer' },
        ip: expect.stringMatching(/127\.0\.0\.1/),
        details: { name: 'Shop', clientAuthMethod: 'secret' },
        createdAt: start.toISOString(),
      },
    ]);
  });

  it('creates a public (none) client without a secret and without redirect URIs', async () => {
    const res = await w.owner
      .request('post', '/api/console/applications')
      .send({ name: 'SPA', clientAuthMethod: 'none' })
      .expect(201);
    expect(res.body).toMatchObject({
      clientAuthMethod: 'none',
      redirectUris: [],
      clientSecret: null,
    });
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'invalid_body'],
      [{ name: '' }, 'invalid_request'],
      [{ name: 'x'.repeat(101) }, 'invalid_body'],
      [{ name: 'A', redirectUris: ['http://evil.example/cb'] }, 'invalid_request'],
      [{ name: 'A', redirectUris: 'https://a.example/cb' }, 'invalid_body'],
      [{ name: 'A', clientAuthMethod: 'client_secret_jwt' }, 'invalid_body'],
      // A method that exists, without the keys it needs: the service's rule, not the shape's.
      [{ name: 'A', clientAuthMethod: 'private_key_jwt' }, 'invalid_request'],
      [{ name: 'A', homeUrl: 'not a url' }, 'invalid_request'],
      [{ name: 'A', isPublic: 'yes' }, 'invalid_body'],
      [{ name: 'A', ownerId: '1' }, 'unknown_field'],
      [['A'], 'invalid_body'],
    ];
    for (const [body, error] of cases) {
      const res = await w.owner.request('post', '/api/console/applications').send(body as object);
      expect([JSON.stringify(body), res.status, (res.body as { error: string }).error]).toEqual([
        JSON.stringify(body),
        400,
        error,
      ]);
    }
    const [{ count }] = await t.dataSource.query<{ count: string }[]>(
      'SELECT count(*) FROM applications',
    );
    expect(count).toBe('2');
  });

  it('shows viewers the summary only: no client id, redirect URIs or settings', async () => {
    const viewer = await w.viewer.request('get', appPath()).expect(200);
    expect(Object.keys(viewer.body as object).sort()).toEqual(
      ['createdAt', 'description', 'enabled', 'homeUrl', 'id', 'logo', 'name', 'role'].sort(),
    );
    expect(viewer.body).toMatchObject({ role: 'viewer' });
    const admin = await w.admin.request('get', appPath()).expect(200);
    expect(admin.body).toMatchObject({
      role: 'admin',
      redirectUris: ['https://client.example/cb'],
    });
  });

  it('updates settings (admin) and records the change', async () => {
    t.clock.advance(60_000);
    const res = await w.admin.request('patch', appPath()).send({
      name: 'Renamed',
      enabled: false,
      requireVerifiedEmail: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      role: 'admin',
      enabled: false,
      requireVerifiedEmail: true,
      clientSecret: null,
    });
    // A disabled application's keys stop working (docs/api-keys.md).
    await t
      .http()
      .get('/api/v1/app/me')
      .set(...bearer(w.key))
      .expect(401);

    const [entry] = await auditLog();
    expect(entry).toMatchObject({
      action: 'application.update',
      target: `application:${w.applicationId}`,
      actor: { username: 'admin' },
      details: { name: 'Renamed', enabled: false, requireVerifiedEmail: true },
    });
  });

  it('issues a secret when the method changes to secret, and drops it for none', async () => {
    const { clientId } = (await w.owner.request('get', appPath()).expect(200)).body as {
      clientId: string;
    };
    const toNone = await patchClient({ clientAuthMethod: 'none' });
    expect(toNone.body).toMatchObject({ clientAuthMethod: 'none', clientSecret: null });
    expect(await clientAuthenticates(clientId, w.clientSecret)).toBe(false);
    const toSecret = await patchClient({ clientAuthMethod: 'secret' });
    const { clientSecret } = toSecret.body as { clientSecret: string };
    expect(clientSecret).toMatch(/^[0-9A-Za-z]{48}$/);
    expect(await clientAuthenticates(clientId, clientSecret)).toBe(true);
    const actions = (await auditLog()).map((entry) => [entry.action, entry.details]);
    expect(actions.slice(0, 3)).toEqual([
      ['client_secret.issue', {}],
      ['application.client_auth_method.update', { clientAuthMethod: 'secret', from: 'none' }],
      ['application.client_auth_method.update', { clientAuthMethod: 'none', from: 'secret' }],
    ]);
    expect(JSON.stringify(await auditLog())).not.toContain(clientSecret);
  });

  it('refuses to mint a secret through the settings without a passkey: none → secret is confirmed', async () => {
    expect((await patchClient({ clientAuthMethod: 'none' })).status).toBe(200);
    const before = await t.dataSource.query(
      'SELECT client_auth_method, client_secret_hash FROM applications WHERE id = $1',
      [w.applicationId],
    );
    const res = await w.owner.request('patch', appPath()).send({ clientAuthMethod: 'secret' });
    expect([res.status, (res.body as { error: string }).error]).toEqual([
      403,
      'passkey_confirmation_required',
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/[0-9A-Za-z]{48}/);
    expect(
      await t.dataSource.query(
        'SELECT client_auth_method, client_secret_hash FROM applications WHERE id = $1',
        [w.applicationId],
      ),
    ).toEqual(before);
  });

  it('binds the confirmation to the exact client settings: another change cannot spend it', async () => {
    const wanted = ['https://client.example/cb', 'https://client.example/new'];
    const token = await clientSettingsToken({ redirectUris: wanted });
    const send = (body: object, header?: string) => {
      const req = w.owner.request('patch', appPath());
      if (header !== undefined) req.set(CONFIRMATION_HEADER, header);
      return req.send(body);
    };
    // Every client setting is guarded: redirect URIs, post-logout redirect URIs, the method.
    for (const body of [
      { redirectUris: wanted },
      { postLogoutRedirectUris: ['https://client.example/bye'] },
      { clientAuthMethod: 'none' },
    ]) {
      const res = await send(body);
      expect([body, res.status, (res.body as { error: string }).error]).toEqual([
        body,
        403,
        'passkey_confirmation_required',
      ]);
    }
    // The token for `wanted` does not confirm other values, nor other settings alongside.
    for (const body of [
      { redirectUris: ['https://evil.example/cb'] },
      { redirectUris: wanted, clientAuthMethod: 'none' },
    ]) {
      const res = await send(body, token);
      expect([body, res.status]).toEqual([body, 403]);
    }
    const unchanged = (await w.owner.request('get', appPath()).expect(200)).body as {
      redirectUris: string[];
    };
    expect(unchanged.redirectUris).toEqual(['https://client.example/cb']);
    // It was left unspent: the change it was made for goes through, once.
    const done = await send({ redirectUris: wanted, name: 'Also renamed' }, token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ redirectUris: wanted, name: 'Also renamed' });
    expect((await send({ redirectUris: wanted.slice(1) }, token)).status).toBe(403);
    const [redirects, update] = await auditLog();
    expect(redirects).toMatchObject({
      action: 'application.redirect_uris.update',
      actor: { username: 'owner' },
      details: { redirectUris: wanted },
    });
    expect(update).toMatchObject({
      action: 'application.update',
      details: { name: 'Also renamed' },
    });
  });

  it('needs no confirmation when the client settings sent are the ones in place', async () => {
    const res = await w.admin.request('patch', appPath()).send({
      name: 'Same client',
      redirectUris: ['https://client.example/cb', 'https://client.example/cb'],
      postLogoutRedirectUris: [],
      clientAuthMethod: 'secret',
    });
    expect(res.status).toBe(200);
    const [entry] = await auditLog();
    expect(entry).toMatchObject({ action: 'application.update' });
  });

  it('checks the values before the confirmation: a refused URI is 400 and spends nothing', async () => {
    const start = await w.admin.request('post', '/api/console/confirmations').send({
      action: 'client_settings.update',
      applicationId: w.applicationId,
      settings: { redirectUris: ['http://evil.example/cb'] },
    });
    expect([start.status, (start.body as { error: string }).error]).toEqual([
      400,
      'invalid_request',
    ]);
    const malformed = await w.admin
      .request('post', '/api/console/confirmations')
      .send({ action: 'client_settings.update', applicationId: w.applicationId, settings: 1 });
    expect([malformed.status, (malformed.body as { error: string }).error]).toEqual([
      400,
      'invalid_body',
    ]);
    const viewer = await w.viewer
      .request('post', '/api/console/confirmations')
      .send({ action: 'client_settings.update', applicationId: w.applicationId, settings: {} });
    expect(viewer.status).toBe(403);
  });

  it('refuses an empty or unknown settings change', async () => {
    for (const [body, error] of [
      [{}, 'empty_body'],
      [{ clientId: 'mine' }, 'unknown_field'],
      [{ enabled: 'no' }, 'invalid_body'],
    ] as const) {
      const res = await w.owner.request('patch', appPath()).send(body);
      expect([res.status, (res.body as { error: string }).error]).toEqual([400, error]);
    }
  });

  it('resets the client secret with a confirmation: the old one stops working at once', async () => {
    const { clientId } = (await w.owner.request('get', appPath()).expect(200)).body as {
      clientId: string;
    };
    const token = await confirmationToken(w.owner, authenticator, {
      action: 'client_secret.reset',
      applicationId: w.applicationId,
    });
    const res = await w.owner
      .request('post', appPath('/client-secret'))
      .set(CONFIRMATION_HEADER, token)
      .send();
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { clientSecret } = res.body as { clientSecret: string };
    expect(await clientAuthenticates(clientId, w.clientSecret)).toBe(false);
    expect(await clientAuthenticates(clientId, clientSecret)).toBe(true);

    // The token was spent.
    const again = await w.owner
      .request('post', appPath('/client-secret'))
      .set(CONFIRMATION_HEADER, token);
    expect([again.status, (again.body as { error: string }).error]).toEqual([
      403,
      'passkey_confirmation_required',
    ]);
    expect(await clientAuthenticates(clientId, clientSecret)).toBe(true);
    const [entry] = await auditLog();
    expect(entry).toMatchObject({ action: 'client_secret.reset', details: {} });
    expect(JSON.stringify(await auditLog())).not.toContain(clientSecret);
  });

  it('answers 409 for a secret reset of a none client, before spending the confirmation', async () => {
    expect((await patchClient({ clientAuthMethod: 'none' })).status).toBe(200);
    const token = await confirmationToken(w.owner, authenticator, {
      action: 'client_secret.reset',
      applicationId: w.applicationId,
    });
    const res = await w.owner
      .request('post', appPath('/client-secret'))
      .set(CONFIRMATION_HEADER, token);
    expect([res.status, (res.body as { error: string }).error]).toEqual([409, 'conflict']);
  });

  it('deletes the application (owner, confirmed): keys stop working, the audit log stays', async () => {
    const token = await confirmationToken(w.owner, authenticator, {
      action: 'application.delete',
      applicationId: w.applicationId,
    });
    // A token for another action does not delete.
    const other = await confirmationToken(w.owner, authenticator, {
      action: 'client_secret.reset',
      applicationId: w.applicationId,
    });
    const wrong = await w.owner.request('delete', appPath()).set(CONFIRMATION_HEADER, other);
    expect(wrong.status).toBe(403);
    await w.owner.request('get', appPath()).expect(200);

    const res = await w.owner.request('delete', appPath()).set(CONFIRMATION_HEADER, token);
    expect(res.status).toBe(204);
    await w.owner.request('get', appPath()).expect(404);
    await w.admin.request('get', appPath()).expect(404);
    await t
      .http()
      .get('/api/v1/app/me')
      .set(...bearer(w.key))
      .expect(401);
    const list = await w.owner.request('get', '/api/console/applications').expect(200);
    expect(list.body).toEqual([]);

    const rows = await t.dataSource.query<{ action: string; actor_user_id: string }[]>(
      `SELECT action, actor_user_id::text FROM audit_log WHERE application_id = $1 ORDER BY id`,
      [w.applicationId],
    );
    expect(rows.map((row) => row.action)).toEqual(['application.create', 'application.delete']);
    expect(rows[1].actor_user_id).toBe(w.owner.userId);
  });

  describe("the owner's relation is data like anyone's", () => {
    const ownerPath = () => appPath(`/users/${w.owner.userId}`);

    it("an admin may change the owner's group and disable it in the console; the owner stays owner", async () => {
      const res = await w.admin.request('patch', ownerPath()).send({ group: 't0', enabled: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ group: 't0', enabled: false });
      const detail = await w.owner.request('get', appPath()).expect(200);
      expect(detail.body).toMatchObject({ role: 'owner' });
      // And a group below viewer for an admin does not take their console role either.
      await w.owner
        .request('patch', appPath(`/users/${w.admin.userId}`))
        .send({ group: 't1' })
        .expect(200);
      expect((await w.admin.request('get', appPath()).expect(200)).body).toMatchObject({
        role: 'admin',
      });
    });

    it("an API key sets the owner's group and enabled as the contract says; the owner stays owner", async () => {
      const { plaintext } = await createApiKey(t.app, w.applicationId, [
        'user:write',
        'group:write',
      ]);
      const res = await t
        .http()
        .patch(`/api/v1/app/users/${w.owner.userId}`)
        .set(...bearer(plaintext))
        .send({ group: 't0', enabled: false });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ group: 't0', enabled: false });
      expect((await w.owner.request('get', appPath()).expect(200)).body).toMatchObject({
        role: 'owner',
      });
    });
  });
});
