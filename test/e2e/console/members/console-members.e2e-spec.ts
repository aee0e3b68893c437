import { ConsoleMembers } from '../../../../src/modules/console/roles/console-members.service';
import { createApiKey, createUser } from '../../../factories';
import { bearer, relate } from '../../../factories/app-users';
import {
  consoleSession,
  consoleWorld,
  type ConsoleClient,
  type ConsoleWorld,
} from '../../../support/console';
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
  details: Record<string, unknown>;
}

/**
 * Console roles are given and withdrawn in the console only (docs/console.md, "Roles";
 * docs/security.md, "Console roles and API keys"): an API key changes a user's group and
 * enabled flag, the application's own data, and never console access.
 */
describe('console members: console roles apart from groups', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  let ownerKey: SoftwareAuthenticator;
  let adminKey: SoftwareAuthenticator;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    w = await consoleWorld(t);
    ownerKey = newAuthenticator();
    adminKey = newAuthenticator();
    await registerPasskey(w.owner, ownerKey);
    await registerPasskey(w.admin, adminKey);
  });

  const appPath = (suffix = '') => `/api/console/applications/${w.applicationId}${suffix}`;
  const memberPath = (userId: string) => appPath(`/members/${userId}`);
  const roleOf = async (client: ConsoleClient): Promise<string | null> => {
    const res = await client.request('get', appPath());
    if (res.status === 404) return null;
    expect(res.status).toBe(200);
    return (res.body as { role: string }).role;
  };
  const appApi = (key: string, userId: string, body: object) =>
    t
      .http()
      .patch(`/api/v1/app/users/${userId}`)
      .set(...bearer(key))
      .send(body);
  const grantToken = (
    client: ConsoleClient,
    key: SoftwareAuthenticator,
    targetUserId: string,
    role: string,
  ) =>
    confirmationToken(client, key, {
      action: 'console_role.grant',
      applicationId: w.applicationId,
      targetUserId,
      role,
    });
  const revokeToken = (
    client: ConsoleClient,
    key: SoftwareAuthenticator,
    targetUserId: string,
    role: string,
  ) =>
    confirmationToken(client, key, {
      action: 'console_role.revoke',
      applicationId: w.applicationId,
      targetUserId,
      role,
    });
  const auditLog = async (): Promise<AuditEntry[]> =>
    (
      (await w.owner.request('get', appPath('/audit-log')).expect(200)).body as {
        entries: AuditEntry[];
      }
    ).entries;
  const members = async (): Promise<Record<string, unknown>[]> =>
    (await w.owner.request('get', appPath('/members')).expect(200)).body as Record<
      string,
      unknown
    >[];

  describe('API keys do not reach console roles', () => {
    it("a key with only group:write sets a user's group to admin or viewer: no console access", async () => {
      const { plaintext } = await createApiKey(t.app, w.applicationId, ['group:write']);
      for (const group of ['admin', 'viewer']) {
        const res = await appApi(plaintext, w.member.userId, { group });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ group });
        expect(await roleOf(w.member)).toBeNull();
        const list = await w.member.request('get', '/api/console/applications').expect(200);
        expect(list.body).toEqual([]);
      }
      await w.member.request('get', appPath('/keys')).expect(404);
    });

    it('a key with user:write disabling a console admin or viewer leaves their console access', async () => {
      const { plaintext } = await createApiKey(t.app, w.applicationId, ['user:write']);
      for (const client of [w.admin, w.viewer, w.owner]) {
        const res = await appApi(plaintext, client.userId, { enabled: false });
        expect([res.status, res.body.enabled]).toEqual([200, false]);
      }
      expect(await roleOf(w.admin)).toBe('admin');
      expect(await roleOf(w.viewer)).toBe('viewer');
      expect(await roleOf(w.owner)).toBe('owner');
      await w.admin.request('get', appPath('/keys')).expect(200);
    });

    it('a key with group:write demoting a console admin to t0 leaves the role', async () => {
      const { plaintext } = await createApiKey(t.app, w.applicationId, ['group:write']);
      await appApi(plaintext, w.admin.userId, { group: 't0' }).expect(200);
      expect(await roleOf(w.admin)).toBe('admin');
    });
  });

  describe('GET members', () => {
    it('lists the owner, then admins and viewers, with who granted them', async () => {
      expect(await members()).toEqual([
        expect.objectContaining({ userId: w.owner.userId, role: 'owner', grantedBy: null }),
        expect.objectContaining({
          userId: w.admin.userId,
          username: 'admin',
          role: 'admin',
          grantedBy: { id: w.owner.userId, username: 'owner' },
        }),
        expect.objectContaining({ userId: w.viewer.userId, role: 'viewer' }),
      ]);
      await w.viewer.request('get', appPath('/members')).expect(403);
    });
  });

  describe('granting', () => {
    it('the owner gives admin with a passkey confirmation; audited in the same change', async () => {
      const token = await grantToken(w.owner, ownerKey, w.member.userId, 'admin');
      const res = await w.owner
        .request('put', memberPath(w.member.userId))
        .set(CONFIRMATION_HEADER, token)
        .send({ role: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        userId: w.member.userId,
        role: 'admin',
        grantedBy: { id: w.owner.userId, username: 'owner' },
      });
      expect(await roleOf(w.member)).toBe('admin');
      // The relation's group is untouched: it is the application's data.
      const user = await w.owner.request('get', appPath(`/users/${w.member.userId}`)).expect(200);
      expect(user.body).toMatchObject({ group: 't3' });
      expect((await auditLog())[0]).toMatchObject({
        action: 'console_role.grant',
        target: `user:${w.member.userId}`,
        actor: { id: w.owner.userId },
        details: { role: 'admin', previousRole: null },
      });
      // Single use.
      const again = await w.owner
        .request('put', memberPath(w.member.userId))
        .set(CONFIRMATION_HEADER, token)
        .send({ role: 'viewer' });
      expect([again.status, again.body.error]).toEqual([403, 'passkey_confirmation_required']);
    });

    it('an admin gives viewer; an admin cannot give admin, a viewer cannot give anything (403)', async () => {
      const token = await grantToken(w.admin, adminKey, w.member.userId, 'viewer');
      await w.admin
        .request('put', memberPath(w.member.userId))
        .set(CONFIRMATION_HEADER, token)
        .send({ role: 'viewer' })
        .expect(200);
      expect(await roleOf(w.member)).toBe('viewer');

      // Admin → admin: refused at the confirmation and at the route alike.
      const begin = await w.admin.request('post', '/api/console/confirmations').send({
        action: 'console_role.grant',
        applicationId: w.applicationId,
        targetUserId: w.member.userId,
        role: 'admin',
      });
      expect([begin.status, begin.body.error]).toEqual([403, 'forbidden']);
      const promote = await w.admin
        .request('put', memberPath(w.member.userId))
        .send({ role: 'admin' });
      expect([promote.status, promote.body.error]).toEqual([403, 'forbidden']);
      // Nor turn an admin (here: themselves) into a viewer.
      const demote = await w.admin.request('put', memberPath(w.admin.userId)).send({
        role: 'viewer',
      });
      expect([demote.status, demote.body.error]).toEqual([403, 'forbidden']);

      const viewerKey = newAuthenticator();
      await registerPasskey(w.viewer, viewerKey);
      const byViewer = await w.viewer
        .request('put', memberPath(w.member.userId))
        .send({ role: 'viewer' });
      expect([byViewer.status, byViewer.body.error]).toEqual([403, 'forbidden']);
      expect(await roleOf(w.member)).toBe('viewer');
    });

    it('without a confirmation, or with one for another role or user: 403 passkey_confirmation_required, nothing changes', async () => {
      const none = await w.owner
        .request('put', memberPath(w.member.userId))
        .send({ role: 'admin' });
      expect([none.status, none.body.error]).toEqual([403, 'passkey_confirmation_required']);
      const forViewer = await grantToken(w.owner, ownerKey, w.member.userId, 'viewer');
      const wrongRole = await w.owner
        .request('put', memberPath(w.member.userId))
        .set(CONFIRMATION_HEADER, forViewer)
        .send({ role: 'admin' });
      expect([wrongRole.status, wrongRole.body.error]).toEqual([
        403,
        'passkey_confirmation_required',
      ]);
      const other = await createUser(t.app);
      await relate(t, w.applicationId, other.id);
      const wrongUser = await w.owner
        .request('put', memberPath(other.id))
        .set(CONFIRMATION_HEADER, forViewer)
        .send({ role: 'viewer' });
      expect(wrongUser.status).toBe(403);
      expect(await roleOf(w.member)).toBeNull();
      expect((await auditLog()).some((e) => e.action.startsWith('console_role.'))).toBe(false);
      // The refused uses left it good for what it was made for.
      await w.owner
        .request('put', memberPath(w.member.userId))
        .set(CONFIRMATION_HEADER, forViewer)
        .send({ role: 'viewer' })
        .expect(200);
    });

    it('refuses users of no relation (404), the owner and the role already held (409), bad input (400)', async () => {
      const outsider = await createUser(t.app);
      await consoleSession(t, outsider.id);
      const cases: [string, object, number, string][] = [
        [outsider.id, { role: 'viewer' }, 404, 'user_not_found'],
        [w.owner.userId, { role: 'admin' }, 409, 'conflict'],
        [w.viewer.userId, { role: 'viewer' }, 409, 'conflict'],
        ['abc', { role: 'viewer' }, 400, 'invalid_user_id'],
        [w.member.userId, { role: 'owner' }, 400, 'invalid_body'],
        [w.member.userId, {}, 400, 'invalid_body'],
        [w.member.userId, { role: 'viewer', group: 'admin' }, 400, 'unknown_field'],
      ];
      for (const [userId, body, status, error] of cases) {
        const res = await w.owner.request('put', memberPath(userId)).send(body);
        expect([userId, body, res.status, res.body.error]).toEqual([userId, body, status, error]);
      }
    });
  });

  describe('withdrawing', () => {
    it('the owner withdraws admin; an admin withdraws viewer but not admin; audited', async () => {
      const byAdmin = await w.admin.request('delete', memberPath(w.admin.userId));
      expect([byAdmin.status, byAdmin.body.error]).toEqual([403, 'forbidden']);

      const viewerToken = await revokeToken(w.admin, adminKey, w.viewer.userId, 'viewer');
      await w.admin
        .request('delete', memberPath(w.viewer.userId))
        .set(CONFIRMATION_HEADER, viewerToken)
        .expect(204);
      expect(await roleOf(w.viewer)).toBeNull();

      const none = await w.owner.request('delete', memberPath(w.admin.userId));
      expect([none.status, none.body.error]).toEqual([403, 'passkey_confirmation_required']);
      const adminToken = await revokeToken(w.owner, ownerKey, w.admin.userId, 'admin');
      await w.owner
        .request('delete', memberPath(w.admin.userId))
        .set(CONFIRMATION_HEADER, adminToken)
        .expect(204);
      expect(await roleOf(w.admin)).toBeNull();
      // The relation stays: they are still users of the application.
      await w.owner.request('get', appPath(`/users/${w.admin.userId}`)).expect(200);

      const entries = (await auditLog()).filter((e) => e.action === 'console_role.revoke');
      expect(entries).toEqual([
        expect.objectContaining({
          target: `user:${w.admin.userId}`,
          actor: expect.objectContaining({ id: w.owner.userId }),
          details: { role: 'admin' },
        }),
        expect.objectContaining({
          target: `user:${w.viewer.userId}`,
          actor: expect.objectContaining({ id: w.admin.userId }),
          details: { role: 'viewer' },
        }),
      ]);
      const rows = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM audit_log WHERE action LIKE 'console_role.%'`,
      );
      expect(rows[0].n).toBe(2);
    });

    it('a confirmation to withdraw viewer does not withdraw the admin the user became meanwhile', async () => {
      const token = await revokeToken(w.owner, ownerKey, w.viewer.userId, 'viewer');
      const promote = await grantToken(w.owner, ownerKey, w.viewer.userId, 'admin');
      await w.owner
        .request('put', memberPath(w.viewer.userId))
        .set(CONFIRMATION_HEADER, promote)
        .send({ role: 'admin' })
        .expect(200);
      const res = await w.owner
        .request('delete', memberPath(w.viewer.userId))
        .set(CONFIRMATION_HEADER, token);
      expect([res.status, res.body.error]).toEqual([403, 'passkey_confirmation_required']);
      expect(await roleOf(w.viewer)).toBe('admin');
    });

    it('applies a checked change only if the role is still the one checked (409 otherwise)', async () => {
      const members = t.app.get(ConsoleMembers);
      const stale = (
        kind: 'grant' | 'revoke',
        previous: 'admin' | 'viewer' | null,
        role: 'admin' | 'viewer',
      ) =>
        t.dataSource.transaction((manager) =>
          members.apply(
            manager,
            { kind, applicationId: w.applicationId, targetUserId: w.viewer.userId, previous, role },
            w.owner.userId,
          ),
        );
      // The viewer was planned as having no role, as an admin, or withdrawn as an admin.
      await expect(stale('grant', null, 'admin')).rejects.toMatchObject({ code: 'conflict' });
      await expect(stale('grant', 'admin', 'viewer')).rejects.toMatchObject({ code: 'conflict' });
      await expect(stale('revoke', 'admin', 'admin')).rejects.toMatchObject({ code: 'conflict' });
      expect(await roleOf(w.viewer)).toBe('viewer');
    });

    it('a 409 (the role changed meanwhile) leaves the confirmation unspent for a retry', async () => {
      // Another admin's change lands between the check and the write: made here by a trigger on
      // the spend of the confirmation (the statement just before the write), so no race is
      // needed. The trigger makes the viewer an admin in the spending statement's transaction.
      await t.dataSource.query(`
        CREATE FUNCTION test_role_changed_meanwhile() RETURNS trigger AS $$
        BEGIN
          UPDATE console_members SET role = 'admin'
           WHERE application_id = ${Number(w.applicationId)} AND user_id = ${BigInt(w.viewer.userId)};
          RETURN NULL;
        END $$ LANGUAGE plpgsql`);
      await t.dataSource.query(`
        CREATE TRIGGER test_role_changed_meanwhile AFTER UPDATE ON passkey_confirmations
        FOR EACH ROW EXECUTE FUNCTION test_role_changed_meanwhile()`);
      const token = await revokeToken(w.owner, ownerKey, w.viewer.userId, 'viewer');
      const withdraw = () =>
        w.owner.request('delete', memberPath(w.viewer.userId)).set(CONFIRMATION_HEADER, token);
      try {
        const refused = await withdraw();
        expect([refused.status, refused.body.error]).toEqual([409, 'conflict']);
      } finally {
        await t.dataSource.query(
          'DROP TRIGGER IF EXISTS test_role_changed_meanwhile ON passkey_confirmations',
        );
        await t.dataSource.query('DROP FUNCTION IF EXISTS test_role_changed_meanwhile()');
      }
      // The role is the confirmed one again (the other change undone): the same token withdraws it.
      await t.dataSource.query(
        `UPDATE console_members SET role = 'viewer' WHERE application_id = $1 AND user_id = $2`,
        [w.applicationId, w.viewer.userId],
      );
      expect((await withdraw()).status).toBe(204);
      expect(await roleOf(w.viewer)).toBeNull();
    });

    it('a user without a role: 404 not_found', async () => {
      const res = await w.owner.request('delete', memberPath(w.member.userId));
      expect([res.status, res.body.error]).toEqual([404, 'not_found']);
    });
  });
});
