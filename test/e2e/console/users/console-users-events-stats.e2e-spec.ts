import { createApiKey, createUser } from '../../../factories';
import { bearer, insertToken, relate } from '../../../factories/app-users';
import { consoleWorld, type ConsoleWorld } from '../../../support/console';
import { insertEvent } from '../../../factories/events';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Users, events and stats in the console answer what /api/v1/app answers for the same
 * application (the same services, no second query path), and the console's changes
 * to users are audited.
 */
describe('console users, events and stats', () => {
  const now = new Date('2031-06-15T10:00:00.000Z');
  let t: TestApp;
  let w: ConsoleWorld;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(now);
    w = await consoleWorld(t);
    apiKey = (await createApiKey(t.app, w.applicationId, ['user:read', 'stats:read', 'user:write']))
      .plaintext;
    for (let i = 0; i < 7; i += 1) {
      const user = await createUser(t.app, { username: `end${i}`, email: `end${i}@example.org` });
      await relate(t, w.applicationId, user.id, {
        group: `t${i % 3}`,
        enabled: i !== 4,
        authCount: i,
        lastAuthAt: new Date(now.getTime() - i * 86_400_000),
      });
      await insertEvent(
        t.dataSource,
        w.applicationId,
        i % 2 ? 'authorization_granted' : 'token_issued',
        new Date(now.getTime() - i * 3_600_000).toISOString(),
        user.id,
      );
    }
    // The other application's rows must not appear.
    await insertEvent(t.dataSource, w.otherApplicationId, 'token_issued', now.toISOString());
  });

  const viaApi = (path: string) =>
    t
      .http()
      .get(`/api/v1/app${path}`)
      .set(...bearer(apiKey));
  const viaConsole = (path: string) =>
    w.viewer.request('get', `/api/console/applications/${w.applicationId}${path}`);

  it.each([
    '/users',
    '/users?page=2&pageSize=3',
    '/users?group=t1',
    '/users?enabled=false',
    '/users?keyword=END',
    '/users?pageSize=500',
    '/events',
    '/events?limit=2',
    '/events?eventType=authorization_granted',
    '/events?after=0&limit=3',
    '/stats',
  ])('GET %s answers as the application API does', async (path) => {
    const api = await viaApi(path);
    const console = await viaConsole(path);
    expect(api.status).toBe(200);
    expect(console.status).toBe(200);
    expect(console.body).toEqual(api.body);
  });

  it.each([
    '/users?page=0',
    '/users?group=boss',
    '/users?pagesize=5',
    '/events?before=yesterday',
    '/events?after=1&before=2030-01-01T00:00:00Z',
  ])('GET %s is refused as the application API refuses it', async (path) => {
    const api = await viaApi(path);
    const console = await viaConsole(path);
    expect(api.status).toBe(400);
    expect([console.status, console.body]).toEqual([api.status, api.body]);
  });

  it('reads one user as the application API does, 404 user_not_found for a stranger', async () => {
    const api = await viaApi(`/users/${w.member.userId}`);
    expect(api.status).toBe(200);
    expect((await viaConsole(`/users/${w.member.userId}`)).body).toEqual(api.body);
    const stranger = await viaConsole(`/users/${w.stranger.userId}`);
    expect([stranger.status, stranger.body]).toEqual([
      404,
      (await viaApi(`/users/${w.stranger.userId}`)).body,
    ]);
    expect((await viaConsole('/users/abc')).status).toBe(400);
  });

  it('changes group and enabled (admin), forcing the user offline, and records it', async () => {
    await insertToken(t, w.applicationId, w.member.userId);
    const res = await w.admin
      .request('patch', `/api/console/applications/${w.applicationId}/users/${w.member.userId}`)
      .send({ group: 'viewer', enabled: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: w.member.userId, group: 'viewer', enabled: false });
    expect((await viaApi(`/users/${w.member.userId}`)).body).toEqual(res.body);
    const [{ live }] = await t.dataSource.query<{ live: string }[]>(
      `SELECT count(*) AS live FROM oauth_tokens WHERE user_id = $1 AND revoked_at IS NULL`,
      [w.member.userId],
    );
    expect(live).toBe('0');

    const audit = await w.admin
      .request('get', `/api/console/applications/${w.applicationId}/audit-log`)
      .expect(200);
    expect((audit.body as { entries: unknown[] }).entries[0]).toMatchObject({
      action: 'user.update',
      target: `user:${w.member.userId}`,
      actor: { id: w.admin.userId, username: 'admin' },
      details: { group: 'viewer', enabled: false },
    });
  });

  it('refuses a bad PATCH like the application API (400 codes, nothing written)', async () => {
    const path = `/api/console/applications/${w.applicationId}/users/${w.member.userId}`;
    for (const [body, error] of [
      [{ group: 'boss' }, 'invalid_group'],
      [{ enabled: 'false' }, 'invalid_body'],
      [{ authCount: 9 }, 'unknown_field'],
      [{}, 'empty_body'],
    ] as const) {
      const res = await w.admin.request('patch', path).send(body);
      expect([res.status, (res.body as { error: string }).error]).toEqual([400, error]);
    }
    expect((await viaConsole(`/users/${w.member.userId}`)).body).toMatchObject({ group: 't3' });
  });

  it('forces a user offline: tokens revoked, consent forgotten, audited', async () => {
    await insertToken(t, w.applicationId, w.member.userId);
    await insertToken(t, w.applicationId, w.member.userId);
    const res = await w.admin
      .request(
        'post',
        `/api/console/applications/${w.applicationId}/users/${w.member.userId}/force-offline`,
      )
      .send();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: true, revokedTokens: 2 });
    const audit = await w.owner
      .request('get', `/api/console/applications/${w.applicationId}/audit-log?limit=1`)
      .expect(200);
    expect(audit.body).toMatchObject({
      entries: [
        {
          action: 'user.force_offline',
          target: `user:${w.member.userId}`,
          details: { revokedTokens: 2 },
        },
      ],
      next: expect.any(String),
    });
    // The application sees who did it in its event stream.
    const [revoked] = await t.dataSource.query<{ description: string }[]>(
      `SELECT description FROM events WHERE event_type = 'authorization_revoked'`,
    );
    expect(revoked.description).toBe('Revoked from the console (2 tokens)');
  });

  it('pages the audit log newest first with before/limit', async () => {
    const path = `/api/console/applications/${w.applicationId}/users/${w.member.userId}`;
    for (const group of ['t1', 't2', 't3', 't4']) {
      await w.admin.request('patch', path).send({ group }).expect(200);
    }
    const log = `/api/console/applications/${w.applicationId}/audit-log`;
    const first = (await w.admin.request('get', `${log}?limit=2`).expect(200)).body as {
      entries: { details: { group?: string } }[];
      next: string;
    };
    expect(first.entries.map((e) => e.details.group)).toEqual(['t4', 't3']);
    const second = (await w.admin.request('get', `${log}?limit=2&before=${first.next}`).expect(200))
      .body as { entries: { details: { group?: string } }[]; next: string };
    expect(second.entries.map((e) => e.details.group)).toEqual(['t2', 't1']);
    const last = (await w.admin.request('get', `${log}?before=${second.next}`).expect(200))
      .body as {
      entries: { action: string }[];
      next: string | null;
    };
    expect(last).toEqual({
      entries: [expect.objectContaining({ action: 'application.create' })],
      next: null,
    });
    for (const query of ['limit=0', 'before=abc', 'after=1', 'limit=1&limit=2']) {
      const res = await w.admin.request('get', `${log}?${query}`);
      expect([query, res.status, (res.body as { error: string }).error]).toEqual([
        query,
        400,
        'invalid_query',
      ]);
    }
  });
});
