import { UpstreamIdentitiesService } from '../../../../src/modules/upstreams/identities/upstream-identities.service';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { consoleWorld, type ConsoleClient, type ConsoleWorld } from '../../../support/console';
import {
  CONFIRMATION_HEADER,
  confirmationToken,
  newAuthenticator,
  registerPasskey,
  type ConfirmationRequestBody,
} from '../../../support/passkeys';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, TestApp } from '../../../support/test-app';

type Method = 'post' | 'put' | 'patch' | 'delete';

interface Case {
  name: string;
  /** The confirmation the operation spends, if any (made by the owner). */
  confirmation?: (w: ConsoleWorld) => ConfirmationRequestBody;
  request: (w: ConsoleWorld) => { method: Method; path: string; body?: object };
  /** Rows the operation changes; equal before and after a failed audit insert. */
  state: string;
}

const app = (w: ConsoleWorld, suffix = '') =>
  `/api/console/applications/${w.applicationId}${suffix}`;
const APPLICATION =
  'SELECT name, client_auth_method, client_secret_hash, redirect_uris FROM applications ORDER BY id';
const KEYS = 'SELECT id, status, expires_at, replaced_by_id FROM api_keys ORDER BY id';
const RELATIONS = 'SELECT user_id, "group", enabled, granted_scope FROM app_users ORDER BY user_id';
const MEMBERS = 'SELECT user_id, role, granted_by FROM console_members ORDER BY user_id';

/**
 * An audited console change and its audit record are one transaction (docs/security.md, "Audit
 * log"): when the audit insert fails, the change is rolled back, and a passkey confirmation the
 * operation spent is unspent again, so the same token then works. The insert is made to fail by
 * a trigger this test puts on audit_log for the duration of one request.
 */
describe('console changes commit with their audit record', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let authenticator: SoftwareAuthenticator;

  beforeAll(async () => {
    t = await createTestApp();
    await t.dataSource.query(`
      CREATE OR REPLACE FUNCTION test_refuse_audit() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'audit insert refused by the test'; END $$ LANGUAGE plpgsql`);
  });
  afterAll(async () => {
    await refuseAudit(false);
    await t.dataSource.query('DROP FUNCTION IF EXISTS test_refuse_audit()');
    await t.close();
  });
  beforeEach(async () => {
    await refuseAudit(false);
    await t.truncate();
    w = await consoleWorld(t);
    authenticator = newAuthenticator();
    await registerPasskey(w.owner, authenticator);
  });

  async function refuseAudit(on: boolean): Promise<void> {
    await t.dataSource.query('DROP TRIGGER IF EXISTS test_refuse_audit ON audit_log');
    if (on) {
      await t.dataSource.query(
        'CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()',
      );
    }
  }

  function send(client: ConsoleClient, c: Case, token: string | undefined) {
    const { method, path, body } = c.request(w);
    const req = client.request(method, path);
    if (token !== undefined) req.set(CONFIRMATION_HEADER, token);
    return body === undefined ? req.send() : req.send(body);
  }

  const cases: Case[] = [
    {
      name: 'key.create',
      confirmation: (w) => ({ action: 'key.create', applicationId: w.applicationId }),
      request: (w) => ({
        method: 'post',
        path: app(w, '/keys'),
        body: { name: 'ci', scopes: ['user:read'] },
      }),
      state: KEYS,
    },
    {
      name: 'key.rotate',
      confirmation: (w) => ({
        action: 'key.rotate',
        applicationId: w.applicationId,
        keyId: w.keyId,
      }),
      request: (w) => ({ method: 'post', path: app(w, `/keys/${w.keyId}/rotate`) }),
      state: KEYS,
    },
    {
      name: 'key.revoke',
      confirmation: (w) => ({
        action: 'key.revoke',
        applicationId: w.applicationId,
        keyId: w.keyId,
      }),
      request: (w) => ({ method: 'post', path: app(w, `/keys/${w.keyId}/revoke`) }),
      state: KEYS,
    },
    {
      name: 'key.delete',
      confirmation: (w) => ({
        action: 'key.delete',
        applicationId: w.applicationId,
        keyId: w.keyId,
      }),
      request: (w) => ({ method: 'delete', path: app(w, `/keys/${w.keyId}`) }),
      state: KEYS,
    },
    {
      name: 'client_secret.reset',
      confirmation: (w) => ({ action: 'client_secret.reset', applicationId: w.applicationId }),
      request: (w) => ({ method: 'post', path: app(w, '/client-secret') }),
      state: APPLICATION,
    },
    {
      name: 'application.update (settings without a confirmation)',
      request: (w) => ({ method: 'patch', path: app(w), body: { name: 'Renamed' } }),
      state: APPLICATION,
    },
    {
      name: 'client settings (application.client_auth_method.update)',
      confirmation: (w) => ({
        action: 'client_settings.update',
        applicationId: w.applicationId,
        settings: { clientAuthMethod: 'none', redirectUris: ['https://client.example/two'] },
      }),
      request: (w) => ({
        method: 'patch',
        path: app(w),
        body: { clientAuthMethod: 'none', redirectUris: ['https://client.example/two'] },
      }),
      state: APPLICATION,
    },
    {
      name: 'application.delete',
      confirmation: (w) => ({ action: 'application.delete', applicationId: w.applicationId }),
      request: (w) => ({ method: 'delete', path: app(w) }),
      state: APPLICATION,
    },
    {
      name: 'console_role.grant',
      confirmation: (w) => ({
        action: 'console_role.grant',
        applicationId: w.applicationId,
        targetUserId: w.member.userId,
        role: 'viewer',
      }),
      request: (w) => ({
        method: 'put',
        path: app(w, `/members/${w.member.userId}`),
        body: { role: 'viewer' },
      }),
      state: MEMBERS,
    },
    {
      name: 'console_role.revoke',
      confirmation: (w) => ({
        action: 'console_role.revoke',
        applicationId: w.applicationId,
        targetUserId: w.viewer.userId,
        role: 'viewer',
      }),
      request: (w) => ({ method: 'delete', path: app(w, `/members/${w.viewer.userId}`) }),
      state: MEMBERS,
    },
    {
      name: 'user.update',
      request: (w) => ({
        method: 'patch',
        path: app(w, `/users/${w.member.userId}`),
        body: { group: 't4', enabled: false },
      }),
      state: RELATIONS,
    },
    {
      name: 'user.force_offline',
      request: (w) => ({ method: 'post', path: app(w, `/users/${w.member.userId}/force-offline`) }),
      state: RELATIONS,
    },
  ];

  it.each(cases)('$name: a failed audit insert undoes the change', async (c) => {
    if (c.name === 'user.force_offline') {
      await t.dataSource.query(
        "UPDATE app_users SET granted_scope = 'openid' WHERE application_id = $1 AND user_id = $2",
        [w.applicationId, w.member.userId],
      );
    }
    const token = c.confirmation
      ? await confirmationToken(w.owner, authenticator, c.confirmation(w))
      : undefined;
    const before = await t.dataSource.query(c.state);
    const audited = await t.dataSource.query('SELECT count(*)::int AS n FROM audit_log');

    await refuseAudit(true);
    const failed = await send(w.owner, c, token);
    await refuseAudit(false);
    expect(failed.status).toBe(500);
    expect(await t.dataSource.query(c.state)).toEqual(before);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM audit_log')).toEqual(audited);

    // The token was not spent: the same operation with it now succeeds, audited.
    const done = await send(w.owner, c, token);
    expect(done.status).toBeLessThan(300);
    expect(await t.dataSource.query(c.state)).not.toEqual(before);
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM audit_log',
    );
    expect(n).toBeGreaterThan(audited[0].n);
  });

  it('passkey.remove and upstream.unbind: a failed audit insert undoes them, the token stays good', async () => {
    const [passkey] = (await w.owner.request('get', '/api/console/account/passkeys').expect(200))
      .body as { id: string }[];
    const remove = () =>
      confirmationToken(w.owner, authenticator, {
        action: 'passkey.remove',
        passkeyId: passkey.id,
      });
    const removeToken = await remove();

    // Two bindings, so unbinding one is allowed.
    await t.app.get(UpstreamProvidersService).create({
      id: 'corp',
      displayName: 'Corp',
      kind: 'oidc',
      clientId: 'c',
      clientSecret: 's',
      settings: { issuer: 'https://corp.example' },
    });
    const profile = {
      username: 'o',
      email: null,
      emailVerified: false,
      avatar: null,
      providerData: {},
    };
    const identities = t.app.get(UpstreamIdentitiesService);
    const bound = await identities.bind(w.owner.userId, {
      providerId: 'corp',
      subject: 'a',
      profile,
    });
    if (bound.kind !== 'bound') throw new Error('not bound');
    await identities.bind(w.owner.userId, { providerId: 'other', subject: 'b', profile });
    const unbindToken = await confirmationToken(w.owner, authenticator, {
      action: 'upstream.unbind',
      upstreamIdentityId: bound.identity.id,
    });
    const unbind = (token: string) =>
      w.owner
        .request('delete', `/api/console/account/upstreams/${bound.identity.id}`)
        .set(CONFIRMATION_HEADER, token)
        .send();
    const removal = (token: string) =>
      w.owner
        .request('delete', `/api/console/account/passkeys/${passkey.id}`)
        .set(CONFIRMATION_HEADER, token)
        .send();

    await refuseAudit(true);
    expect((await unbind(unbindToken)).status).toBe(500);
    expect((await removal(removeToken)).status).toBe(500);
    await refuseAudit(false);
    expect(await t.dataSource.query('SELECT id FROM upstream_identities')).toHaveLength(2);
    expect(await t.dataSource.query('SELECT id FROM passkey_credentials')).toHaveLength(1);

    expect((await unbind(unbindToken)).status).toBe(204);
    expect((await removal(removeToken)).status).toBe(204);
    expect(await t.dataSource.query('SELECT provider_id FROM upstream_identities')).toEqual([
      { provider_id: 'other' },
    ]);
    expect(await t.dataSource.query('SELECT id FROM passkey_credentials')).toEqual([]);
  });
});
