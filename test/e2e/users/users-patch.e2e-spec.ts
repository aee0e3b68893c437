import { createApiKey, createUser } from '../../factories';
import { bearer, insertToken, relate, twoApplications } from '../../factories/app-users';
import { createTestApp, TestApp } from '../../support/test-app';

const NOW = new Date('2031-03-04T05:06:07.000Z');
const ALL = ['user:read', 'user:write', 'group:write', 'relation:revoke'] as const;

/** PATCH /users/:userId and POST /users/:userId/revoke (docs/contract/users.md). */
describe('application API: changing users', () => {
  let t: TestApp;
  let appA: number;
  let appB: number;
  let keyA: string;
  let keyB: string;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(NOW);
    ({ appA, appB, keyA, keyB } = await twoApplications(t, [...ALL]));
    userId = (await createUser(t.app, { username: 'bob', email: 'bob@example.org' })).id;
    await relate(t, appA, userId, { group: 't0', authCount: 3, grantedScope: 'openid email' });
  });

  const patch = (key: string, body: unknown, id = userId) =>
    t
      .http()
      .patch(`/api/v1/app/users/${id}`)
      .set(...bearer(key))
      .send(body as object);
  const raw = (key: string, contentType: string, body: string) =>
    t
      .http()
      .patch(`/api/v1/app/users/${userId}`)
      .set(...bearer(key))
      .set('Content-Type', contentType)
      .send(body);
  const relation = async () =>
    (
      await t.dataSource.query(
        `SELECT "group", enabled, auth_count, granted_scope FROM app_users WHERE application_id = $1 AND user_id = $2`,
        [appA, userId],
      )
    )[0];
  const tokens = () =>
    t.dataSource.query(
      `SELECT id::text AS id, application_id, revoked_at FROM oauth_tokens ORDER BY id`,
    );
  const events = () =>
    t.dataSource.query(
      `SELECT application_id, event_type, user_id::text AS user_id, scope, created_at FROM events ORDER BY id`,
    );

  it('changes the group and returns the updated view', async () => {
    const res = await patch(keyA, { group: 't4' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userId,
      username: 'bob',
      group: 't4',
      enabled: true,
      authCount: 3,
    });
    expect(await relation()).toMatchObject({ group: 't4', enabled: true });
  });

  it('disables a user, revoking exactly its live tokens for this application in one go', async () => {
    const live1 = await insertToken(t, appA, userId, 'openid');
    const live2 = await insertToken(t, appA, userId, 'openid email');
    const old = new Date('2031-01-01T00:00:00Z');
    await insertToken(t, appA, userId, 'openid', old);
    await insertToken(t, appB, userId, 'openid');
    const res = await patch(keyA, { enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId, enabled: false, group: 't0' });
    const rows = await tokens();
    expect(
      rows.map((r: { revoked_at: Date | null }) => r.revoked_at?.toISOString() ?? null),
    ).toEqual([NOW.toISOString(), NOW.toISOString(), old.toISOString(), null]);
    expect(await events()).toEqual([
      {
        application_id: appA,
        event_type: 'token_revoked',
        user_id: userId,
        scope: 'openid',
        created_at: NOW,
      },
      {
        application_id: appA,
        event_type: 'token_revoked',
        user_id: userId,
        scope: 'openid email',
        created_at: NOW,
      },
    ]);
    expect([live1, live2]).toHaveLength(2);
    // Disabling keeps the consent: re-enabling does not require a new interactive authorization.
    expect((await relation()).granted_scope).toBe('openid email');
    const again = await patch(keyA, { enabled: true });
    expect(again.body.enabled).toBe(true);
    expect(await events()).toHaveLength(2);
  });

  it('changes both fields when the key has both scopes', async () => {
    const res = await patch(keyA, { group: 'admin', enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ group: 'admin', enabled: false });
  });

  it.each([
    [{ enabled: false }, ['group:write'], ['user:write']],
    [{ group: 't1' }, ['user:write'], ['group:write']],
    [{ group: 't1', enabled: true }, ['group:write'], ['user:write']],
    [{ group: 't1', enabled: true }, ['user:write'], ['group:write']],
    [{ group: 't1', enabled: true }, ['user:read'], ['user:write']],
  ])(
    'PATCH %j with scopes %j is 403 needing %j and writes nothing',
    async (body, scopes, needed) => {
      const token = await insertToken(t, appA, userId);
      const { plaintext } = await createApiKey(t.app, appA, scopes as never);
      const res = await patch(plaintext, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        message: expect.any(String),
        required_any_of: needed,
        granted_scopes: scopes,
      });
      expect(await relation()).toMatchObject({ group: 't0', enabled: true });
      expect((await tokens())[0]).toMatchObject({ id: token, revoked_at: null });
    },
  );

  it.each([
    ['a JSON array', 'application/json', '[]'],
    ['a JSON string', 'application/json', '"x"'],
    ['JSON null', 'application/json', 'null'],
    ['malformed JSON', 'application/json', '{"group": '],
    ['plain text', 'text/plain', 'group=t1'],
    ['a form', 'application/x-www-form-urlencoded', 'group=t1'],
  ])('rejects %s with 400 invalid_body', async (_, type, body) => {
    const res = await raw(keyA, type, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_body', message: expect.any(String) });
  });

  it('rejects a request without a body as invalid_body', async () => {
    const res = await t
      .http()
      .patch(`/api/v1/app/users/${userId}`)
      .set(...bearer(keyA));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_body');
  });

  it.each([
    [{ enabled: 'false' }],
    [{ enabled: 0 }],
    [{ enabled: null }],
    [{ group: 1 }],
    [{ group: null }],
    [{ group: ['t1'] }],
  ])('rejects wrong types %j with 400 invalid_body', async (body) => {
    const res = await patch(keyA, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_body');
    expect(await relation()).toMatchObject({ group: 't0', enabled: true });
  });

  it('rejects {} with 400 empty_body', async () => {
    const res = await patch(keyA, {});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('empty_body');
  });

  it.each(['t6', 'T1', '', 'superuser'])(
    'rejects group %j with 400 invalid_group',
    async (group) => {
      const res = await patch(keyA, { group });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_group');
    },
  );

  it.each([
    [{ userId: '5', enabled: true }, ['userId']],
    [{ authCount: 100 }, ['authCount']],
    [{ group: 't1', username: 'x', createdAt: 'y' }, ['username', 'createdAt']],
  ])('refuses mass assignment %j with 400 unknown_field', async (body, fields) => {
    const res = await patch(keyA, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'unknown_field', message: expect.any(String), fields });
    expect(await relation()).toMatchObject({ group: 't0', enabled: true, auth_count: 3 });
  });

  it('404s users of other applications and checks the id first', async () => {
    const res = await patch(keyB, { group: 't1' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('user_not_found');
    expect((await patch(keyA, { group: 't1' }, '12x')).body.error).toBe('invalid_user_id');
    expect((await patch(keyA, { group: 't1' }, '424242')).status).toBe(404);
    expect(await relation()).toMatchObject({ group: 't0' });
  });

  describe('POST /users/:userId/revoke', () => {
    const revoke = (key: string, id = userId) =>
      t
        .http()
        .post(`/api/v1/app/users/${id}/revoke`)
        .set(...bearer(key));

    it('revokes live tokens, keeps the relation and forgets the consent', async () => {
      await insertToken(t, appA, userId, 'openid');
      await insertToken(t, appA, userId, 'openid', new Date('2031-01-01T00:00:00Z'));
      const other = await insertToken(t, appB, userId, 'openid');
      const res = await revoke(keyA);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ revoked: true, revokedTokens: 1 });
      const rows = await tokens();
      expect(rows[0].revoked_at).toEqual(NOW);
      expect(rows[1].revoked_at).toEqual(new Date('2031-01-01T00:00:00Z'));
      expect(rows[2]).toMatchObject({ id: other, revoked_at: null });
      expect(await relation()).toEqual({
        group: 't0',
        enabled: true,
        auth_count: 3,
        granted_scope: null,
      });
      expect(await events()).toEqual([
        {
          application_id: appA,
          event_type: 'token_revoked',
          user_id: userId,
          scope: 'openid',
          created_at: NOW,
        },
        {
          application_id: appA,
          event_type: 'authorization_revoked',
          user_id: userId,
          scope: 'openid email',
          created_at: NOW,
        },
      ]);
      const view = await t
        .http()
        .get(`/api/v1/app/users/${userId}`)
        .set(...bearer(keyA));
      expect(view.status).toBe(200);
    });

    it('reports zero when nothing is live', async () => {
      expect((await revoke(keyA)).body).toEqual({ revoked: true, revokedTokens: 0 });
    });

    it('404s for another application, 400s a bad id and needs relation:revoke', async () => {
      await insertToken(t, appA, userId);
      const res = await revoke(keyB);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('user_not_found');
      expect((await revoke(keyA, 'abc')).body.error).toBe('invalid_user_id');
      const { plaintext } = await createApiKey(t.app, appA, ['user:read', 'user:write']);
      const denied = await revoke(plaintext);
      expect(denied.status).toBe(403);
      expect(denied.body.required_any_of).toEqual(['relation:revoke']);
      expect((await tokens())[0].revoked_at).toBeNull();
      expect(await events()).toEqual([]);
    });
  });
});
